import type { SmsSender, TextMessage } from '../../ports/sms.js';
import type { ProviderFailure } from '../../ports/unconfirmed-send.js';

export type TwilioAccount = {
  accountSid: string;
  authToken: string;
  /** A sending number in E.164, or a Messaging Service's SID (`MG…`). */
  from: string;
  /** The API's origin; a local stand-in's in development. */
  apiUrl?: string;
};

export type TwilioSmsOptions = {
  /** How long one request may take before it counts as failed. */
  timeoutMs?: number;
  /** The HTTP client; tests hand in a stand-in's. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
};

/** A failed send, told by status and Twilio's error code only: never the number, the body or the token. */
export class TwilioSmsError extends Error implements ProviderFailure {
  override readonly name = 'TwilioSmsError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }

  /** No answer (a timeout, a connection lost): the provider may have taken the message. */
  get unconfirmed(): boolean {
    return this.status === undefined;
  }
}

/**
 * Sends text messages with Twilio's Messages API: `POST {api}/2010-04-01/Accounts/{AccountSid}/Messages.json`,
 * form-encoded `To`, `Body` and `From` (or `MessagingServiceSid` when the sender is a Messaging
 * Service), under basic auth with the account SID and auth token, bounded by a timeout.
 */
export class TwilioSms implements SmsSender {
  private readonly timeoutMs: number;

  constructor(
    private readonly account: TwilioAccount,
    private readonly options: TwilioSmsOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async send(message: TextMessage): Promise<void> {
    const { accountSid, authToken, from } = this.account;
    const form = new URLSearchParams({ To: message.to, Body: message.body });
    if (/^MG[0-9a-f]{32}$/i.test(from)) form.set('MessagingServiceSid', from);
    else form.set('From', from);
    const api = (this.account.apiUrl ?? 'https://api.twilio.com').replace(/\/$/, '');
    const url = `${api}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
    const init: RequestInit = {
      method: 'POST',
      headers: {
        Authorization: `Basic ${btoa(`${accountSid}:${authToken}`)}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: form.toString(),
      signal: AbortSignal.timeout(this.timeoutMs),
    };
    const client = this.options.fetch ?? fetch;
    let answer: Response;
    try {
      answer = await client(url, init);
    } catch (err) {
      // The client's error is not passed on: it may describe the request, and the request holds the code.
      const name = err instanceof Error ? err.name : 'Error';
      throw new TwilioSmsError(
        name === 'TimeoutError' || name === 'AbortError'
          ? `Twilio did not answer within ${this.timeoutMs} ms.`
          : `Twilio could not be reached (${name}).`,
      );
    }
    if (answer.ok) {
      await answer.body?.cancel().catch(() => {});
      return;
    }
    // Twilio's numeric error code (21211: invalid To, …) and nothing else: its message may quote the number.
    const body = (await answer.json().catch(() => null)) as { code?: unknown } | null;
    const code = typeof body?.code === 'number' ? ` (error ${body.code})` : '';
    throw new TwilioSmsError(`Twilio answered ${answer.status}${code}.`, answer.status);
  }
}
