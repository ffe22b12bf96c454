/**
 * The sender's Completed e-mail in every language the e-mails speak: a button and a plain-text
 * link to the envelope's page in the application, where the finished PDF is downloaded, and no
 * word of webhooks, which mean nothing to a person.
 */
import { describe, expect, it } from 'vitest';
import { brandedEmail } from '../../src/domain/emails/branded-email.js';
import { emailWordsFor } from '../../src/domain/emails/email-words.js';
import { messagesFor } from '../../src/i18n/index.js';
import { LANGUAGES } from '../../src/i18n/languages.js';

const link = 'https://esign.example.test/app/envelopes/3f0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60';

describe('the sender’s Completed e-mail', () => {
  it.each(LANGUAGES)('in %s, links to the envelope’s page with the button’s words of that language', (language) => {
    const { words, ...speech } = emailWordsFor({ template: null, company: language });
    const look = { displayName: 'Acme Ltd', accentColor: '#0b7a53', accentChosen: true, logoUrl: null, language };
    const letter = words.completed({ from: look.displayName, title: 'Lease', envelopeId: 'env_1', link });
    const mail = brandedEmail(look, speech, letter, { to: { name: 'o@acme.test', email: 'o@acme.test' }, tags: {}, idempotencyKey: 'k' });
    const action = messagesFor(language).text('email.completed.action');
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain(action);
    expect(mail.text).toContain(link);
    expect(`${mail.subject}\n${mail.text}`).not.toMatch(/webhook|document_ready/i);
    if (language !== 'en') expect(action).not.toBe(messagesFor('en').text('email.completed.action'));
  });
});
