/**
 * The words of every e-mail, one entry per kind, each a function from the e-mail's values to a
 * `Letter`, in a language of the catalogue (`src/i18n`, keys `email.*`). Values are plain text:
 * the catalogue's `html` escapes them, and `renderLetter` escapes the rest.
 */
import { type Direction, type Language, type MessageKey, type Messages, messagesFor, negotiateLanguage } from '../../i18n/index.js';
import type { Letter, Paragraph } from './letter.js';

export type RequestValues = {
  /** The company's display name. */
  from: string;
  senderEmail: string;
  title: string;
  /** The e-mail subject the sender chose (the template's, or the send's). */
  subject: string;
  message: string | null;
  link: string;
  expiresAt: Date | null;
};
export type SenderValues = { from: string; title: string; envelopeId: string };
/** `link`: the envelope's page in the company's application. */
export type CompletedValues = SenderValues & { link: string };
export type DeclinedValues = SenderValues & { decliner: { name: string; email: string } | null; reason: string | null };
export type ReadyValues = { from: string; title: string; link: string };

export type EmailWords = {
  signingRequest(values: RequestValues): Letter;
  reminder(values: RequestValues): Letter;
  completed(values: CompletedValues): Letter;
  declined(values: DeclinedValues): Letter;
  documentReady(values: ReadyValues): Letter;
};

type Values = Record<string, string>;

function wordsIn(m: Messages): EmailWords {
  const said = (key: MessageKey, values?: Values): Paragraph => ({ text: m.text(key, values), html: m.html(key, values) });
  const linkAsText = m.text('email.linkAsText');

  const request = (values: RequestValues, subject: string, lead: MessageKey): Letter => {
    const who = { sender: values.senderEmail, title: values.title };
    return {
      subject,
      preheader: m.text('email.request.preheader', who),
      paragraphs: [said(lead, who)],
      quote: values.message ? { label: m.text('email.request.messageLabel', { sender: values.senderEmail }), text: values.message } : undefined,
      action: { label: m.text('email.request.action'), url: values.link, fallback: linkAsText },
      notes: [m.text('email.request.personal'), ...(values.expiresAt ? [m.text('email.request.expires', { date: m.date(values.expiresAt) })] : [])],
      footer: m.text('email.request.footer', { sender: values.senderEmail, company: values.from }),
    };
  };

  return {
    signingRequest: (values) => request(values, values.subject, 'email.request.lead'),
    reminder: (values) => request(values, m.text('email.reminder.subject', { subject: values.subject }), 'email.reminder.lead'),
    completed: (values) => ({
      subject: m.text('email.completed.subject', { title: values.title }),
      preheader: m.text('email.completed.preheader', { title: values.title }),
      paragraphs: [said('email.completed.lead', { title: values.title, envelopeId: values.envelopeId }), said('email.completed.pdf')],
      action: { label: m.text('email.completed.action'), url: values.link, fallback: linkAsText },
      notes: [],
      footer: m.text('email.sender.footer', { company: values.from }),
    }),
    declined: (values) => {
      const name = values.decliner ? `${values.decliner.name} (${values.decliner.email})` : m.text('email.declined.someone');
      return {
        subject: m.text('email.declined.subject', { title: values.title }),
        preheader: m.text('email.declined.preheader', { name: values.decliner?.name ?? name, title: values.title }),
        paragraphs: [said('email.declined.lead', { name, title: values.title, envelopeId: values.envelopeId }), said('email.declined.closed')],
        quote: values.reason ? { label: m.text('email.declined.reasonLabel'), text: values.reason } : undefined,
        notes: [m.text('email.declined.alsoIn')],
        footer: m.text('email.sender.footer', { company: values.from }),
      };
    },
    documentReady: (values) => ({
      subject: m.text('email.ready.subject', { title: values.title }),
      preheader: m.text('email.ready.lead', { title: values.title }),
      paragraphs: [said('email.ready.lead', { title: values.title })],
      action: { label: m.text('email.ready.action'), url: values.link, fallback: linkAsText },
      notes: [m.text('email.ready.personal')],
      footer: m.text('email.ready.footer', { company: values.from }),
    }),
  };
}

const made = new Map<Language, EmailWords>();

/**
 * The words of e-mails in the first of the settings that names one of the catalogue's languages
 * (the template's, then the company's), else English. An e-mail has no browser to ask.
 */
export function emailWordsFor(settings: { template?: string | null; company?: string | null }): { language: Language; dir: Direction; words: EmailWords } {
  const language = negotiateLanguage(settings);
  let words = made.get(language);
  if (!words) made.set(language, (words = wordsIn(messagesFor(language))));
  return { language, dir: messagesFor(language).dir, words };
}
