import { isSingleLineText } from '../lib/single-line-text.js';

export type Email = {
  /**
   * Who the e-mail is from, as its reader sees it: the company's display name. The address stays
   * the service's own (only it may send from its domain), so only the name is given.
   */
  from?: { name: string };
  to: { name: string; email: string };
  subject: string;
  /** The plain-text alternative: the whole message, every link written out. */
  text: string;
  /** The same message as HTML, shown by mail clients that show HTML. */
  html?: string;
  /** What the e-mail is about, for the dev mailbox and delivery logs. */
  tags?: Record<string, string>;
  /**
   * The same for every attempt at one logical e-mail (a queue message delivered again, a retry
   * after a timeout), so that a mailer can send it once however often it is asked.
   */
  idempotencyKey: string;
};

export interface Mailer {
  /** Resolves once the provider has accepted the e-mail; throws when it did not, or gave no answer (`ProviderFailure`). */
  send(email: Email): Promise<void>;
}

/** The parts of an e-mail that become header lines, as the port names them. */
export type HeaderPart = 'subject' | 'from.name' | 'to.name' | 'to.email';

/**
 * A mailer's refusal of an e-mail whose header would hold a line break or another control
 * character: one could add a header (`Bcc:`) or a recipient. It names the part, never its text.
 */
export class UnsafeEmailHeader extends Error {
  override readonly name = 'UnsafeEmailHeader';
  constructor(readonly part: HeaderPart) {
    super(`The e-mail's ${part} holds a line break or another control character: not sent.`);
  }
}

/**
 * Every mailer's last check before it sends. The API refuses such text on the way in and the
 * consumers clean what was stored before, so this only ever stops a mistake of ours.
 */
export function refuseUnsafeHeaders(email: Email): void {
  const parts: [HeaderPart, string][] = [
    ['subject', email.subject],
    ...(email.from ? [['from.name', email.from.name] as [HeaderPart, string]] : []),
    ['to.name', email.to.name],
    ['to.email', email.to.email],
  ];
  for (const [part, value] of parts) if (!isSingleLineText(value)) throw new UnsafeEmailHeader(part);
}
