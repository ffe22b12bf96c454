export type Email = {
  to: { name: string; email: string };
  subject: string;
  text: string;
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
  send(email: Email): Promise<void>;
}
