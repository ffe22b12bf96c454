/**
 * Text messages to a phone: the port the verification codes of `sms_code` roles go through. The
 * body holds a code, a secret while it lives: an adapter never logs it, nor quotes it in an error.
 */
export type TextMessage = {
  /** E.164: `+` and 8 to 15 digits. */
  to: string;
  body: string;
  /** What the message is about, for the dev SMS box; never sent to a provider. */
  tags?: Record<string, string>;
};

export interface SmsSender {
  /** Resolves once the provider has accepted the message; throws when it did not, or gave no answer (`ProviderFailure`). */
  send(message: TextMessage): Promise<void>;
}
