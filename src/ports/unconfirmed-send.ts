/**
 * A mailer's or text-message sender's failure tells whether the provider answered. A refusal (an
 * answer that is not a success) means it took nothing. No answer at all (none in time, the
 * connection lost on the way) leaves it unknown: the message may have gone out all the same, so a
 * verification code sent that way still counts against the limits on sending codes.
 */
export interface ProviderFailure {
  /** True when the provider gave no answer: the message may have been sent. */
  readonly unconfirmed: boolean;
}

/** Whether a failed send may have gone out: only an adapter that says so is believed. */
export const mayHaveGoneOut = (err: unknown): boolean => typeof err === 'object' && err !== null && (err as Partial<ProviderFailure>).unconfirmed === true;
