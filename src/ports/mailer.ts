export type Email = {
  to: { name: string; email: string };
  subject: string;
  text: string;
  html?: string;
  /** What the e-mail is about, for the dev mailbox and delivery logs. */
  tags?: Record<string, string>;
};

export interface Mailer {
  send(email: Email): Promise<void>;
}
