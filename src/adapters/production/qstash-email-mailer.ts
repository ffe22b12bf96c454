import type { Client } from '@upstash/qstash';
import type { Email, Mailer } from '../../ports/mailer.js';

export type EmailApi = { url: string; apiKey: string; from: string };

/**
 * Sends e-mail through QStash to an HTTP e-mail API in Resend's format (`POST /emails` with
 * `{ from, to, subject, text, html }`): QStash retries until the provider accepts it, so a slow
 * or failing provider never holds up or fails the request that caused the e-mail.
 */
export class QStashEmailMailer implements Mailer {
  constructor(
    private readonly client: Client,
    private readonly api: EmailApi,
  ) {}

  async send(email: Email): Promise<void> {
    await this.client.publishJSON({
      url: this.api.url,
      // The client forwards these to the provider; QStash keeps them out of its logs' bodies.
      headers: { Authorization: `Bearer ${this.api.apiKey}` },
      body: {
        from: this.api.from,
        to: [`${email.to.name.replace(/[<>"]/g, '')} <${email.to.email}>`],
        subject: email.subject,
        text: email.text,
        ...(email.html ? { html: email.html } : {}),
        ...(email.tags ? { tags: Object.entries(email.tags).map(([name, value]) => ({ name, value })) } : {}),
      },
      retries: 5,
    });
  }
}
