import { type Email, type Mailer, refuseUnsafeHeaders } from '../../ports/mailer.js';
import { type ProviderOptions, ProviderError, requestProvider } from './provider-request.js';

export type EmailApi = { url: string; apiKey: string; from: string };

export type EmailApiMailerOptions = ProviderOptions;

/** A failed send, told by status and the provider's error name only: never the key or the e-mail. */
export class EmailApiError extends ProviderError {
  override readonly name = 'EmailApiError';
}

/**
 * Sends e-mail straight to an HTTP e-mail API in Resend's format (`POST {EMAIL_API_URL}` with
 * `{ from, to, subject, text, html, tags }`): from the company's display name at the service's
 * own address (EMAIL_FROM's), HTML with its plain-text alternative, from the queue consumer that asked for it. Nothing
 * of the e-mail rests with anyone but the provider: its text holds a signing link, with which
 * anyone can sign as the recipient, and the request carries the provider's API key.
 *
 * A subject, name or address with a line break or another control character is refused (throws
 * `UnsafeEmailHeader`) before anything is sent.
 *
 * A failure throws, so the queue delivers the consumer's message again. The `Idempotency-Key`
 * makes the provider answer such a repeat, for 24 hours, with the first answer instead of a
 * second e-mail; a 409 (the same key still being sent, or already sent with other content) throws
 * too, to be tried again later rather than taken for sent.
 */
export class EmailApiMailer implements Mailer {
  constructor(
    private readonly api: EmailApi,
    private readonly options: EmailApiMailerOptions = {},
  ) {}

  async send(email: Email): Promise<void> {
    refuseUnsafeHeaders(email);
    const init: RequestInit = {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${this.api.apiKey}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': email.idempotencyKey,
      },
      body: JSON.stringify({
        from: email.from ? addressList(email.from.name, serviceAddress(this.api.from)) : this.api.from,
        to: [addressList(email.to.name, email.to.email)],
        subject: email.subject,
        text: email.text,
        ...(email.html ? { html: email.html } : {}),
        ...(email.tags ? { tags: Object.entries(email.tags).map(([name, value]) => ({ name, value })) } : {}),
      }),
    };
    const answer = await requestProvider('The e-mail API', this.api.url, init, this.options, (failure) => new EmailApiError(failure));
    if (answer.ok) {
      // A replayed answer (the same key sent before) is success too: the e-mail went out then.
      await answer.body?.cancel().catch(() => {});
      return;
    }
    const reason = await providerErrorName(answer);
    throw new EmailApiError(`The e-mail API answered ${answer.status}${reason ? ` (${reason})` : ''}.`, answer.status);
  }
}

/**
 * `Name <address>`, for a recipient and for the company's display name before the service's
 * address. A name with a character that means something in an address list (a comma
 * between addresses, `@`, `;`, `:` of a group) is quoted, so that `evil@example.com, Cleo` stays one
 * person's name instead of becoming a second recipient.
 */
function addressList(displayName: string, address: string): string {
  const name = displayName.replace(/[<>"]/g, '');
  const phrase = /[,;:@()[\]\\]/.test(name) ? `"${name.replace(/\\/g, '\\\\')}"` : name;
  return `${phrase} <${address}>`;
}

/** The address of EMAIL_FROM, given as `sign@acme.com` or `Acme Sign <sign@acme.com>`. */
const serviceAddress = (from: string) => /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();

/**
 * The provider's machine-readable error name (`{ "name": "rate_limit_exceeded", … }`), and only
 * that: its message may quote the addresses or content it refused.
 */
async function providerErrorName(answer: Response): Promise<string | undefined> {
  const body = (await answer.json().catch(() => null)) as { name?: unknown } | null;
  const name = body?.name;
  return typeof name === 'string' && /^[a-z0-9_]{1,64}$/.test(name) ? name : undefined;
}
