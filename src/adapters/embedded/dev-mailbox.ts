import type { Email, Mailer } from '../../ports/mailer.js';

export type DeliveredEmail = Email & { id: string; sent_at: string };

/**
 * The embedded mailer: nothing leaves the machine; every e-mail is kept, newest first, for the
 * dev mailbox page. Bounded so that a long-running dev server does not grow without end.
 */
export class DevMailbox implements Mailer {
  private readonly emails: DeliveredEmail[] = [];

  constructor(private readonly capacity = 1000) {}

  async send(email: Email): Promise<void> {
    this.emails.unshift({ ...email, id: crypto.randomUUID(), sent_at: new Date().toISOString() });
    this.emails.length = Math.min(this.emails.length, this.capacity);
  }

  list(): readonly DeliveredEmail[] {
    return this.emails;
  }
}
