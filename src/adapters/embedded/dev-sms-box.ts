import type { SmsSender, TextMessage } from '../../ports/sms.js';

export type DeliveredTextMessage = TextMessage & { id: string; sent_at: string };

/**
 * The embedded text-message sender: nothing leaves the machine; every message is kept, newest
 * first, for the dev SMS page (`/dev/sms`), as the dev mailbox keeps e-mails. Bounded, so that a
 * long-running dev server does not grow without end.
 */
export class DevSmsBox implements SmsSender {
  private readonly messages: DeliveredTextMessage[] = [];

  constructor(private readonly capacity = 1000) {}

  async send(message: TextMessage): Promise<void> {
    this.messages.unshift({ ...message, id: crypto.randomUUID(), sent_at: new Date().toISOString() });
    this.messages.length = Math.min(this.messages.length, this.capacity);
  }

  list(): readonly DeliveredTextMessage[] {
    return this.messages;
  }
}
