import { type Email, type Mailer, refuseUnsafeHeaders } from '../../ports/mailer.js';

export type DeliveredEmail = Email & { id: string; sent_at: string };

const MAX_REMEMBERED_KEYS = 10_000;

/**
 * The embedded mailer: nothing leaves the machine; every e-mail is kept, newest first, for the
 * dev mailbox page. Bounded so that a long-running dev server does not grow without end.
 *
 * Like the production e-mail API, it sends one e-mail per idempotency key: a queue message
 * delivered again asks for the same e-mail twice, and the second is dropped.
 */
export class DevMailbox implements Mailer {
  private readonly emails: DeliveredEmail[] = [];
  private readonly delivered = new Set<string>();

  constructor(private readonly capacity = 1000) {}

  async send(email: Email): Promise<void> {
    // As the production mailer does: the dev mailbox shows what would have been sent, and this would not.
    refuseUnsafeHeaders(email);
    if (this.delivered.has(email.idempotencyKey)) return;
    this.delivered.add(email.idempotencyKey);
    // Sets keep insertion order: forget the oldest keys, so a long-running server stays bounded.
    if (this.delivered.size > MAX_REMEMBERED_KEYS) this.delivered.delete(this.delivered.values().next().value!);
    this.emails.unshift({ ...email, id: crypto.randomUUID(), sent_at: new Date().toISOString() });
    this.emails.length = Math.min(this.emails.length, this.capacity);
  }

  list(): readonly DeliveredEmail[] {
    return this.emails;
  }
}
