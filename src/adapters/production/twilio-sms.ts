import type { SmsSender, TextMessage } from '../../ports/sms.js';
import { type ProviderOptions, ProviderError, requestProvider } from './provider-request.js';

export type TwilioAccount = {
  accountSid: string;
  authToken: string;
  /** A sending number in E.164, or a Messaging Service's SID (`MG…`). */
  from: string;
  /** The API's origin; a local stand-in's in development. */
  apiUrl?: string;
};

export type TwilioSmsOptions = ProviderOptions;

/** A failed send, told by status and Twilio's error code only: never the number, the body or the token. */
export class TwilioSmsError extends ProviderError {
  override readonly name = 'TwilioSmsError';
}

/**
 * Sends text messages with Twilio's Messages API: `POST {api}/2010-04-01/Accounts/{AccountSid}/Messages.json`,
 * form-encoded `To`, `Body` and `From` (or `MessagingServiceSid` when the sender is a Messaging
 * Service), under basic auth with the account SID and auth token, bounded by a timeout.
 */
export class TwilioSms implements SmsSender {
  constructor(
    private readonly account: TwilioAccount,
    private readonly options: TwilioSmsOptions = {},
  ) {}

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
    };
    const answer = await requestProvider('Twilio', url, init, this.options, (failure) => new TwilioSmsError(failure));
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
