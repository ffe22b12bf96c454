/**
 * The hidden `form_token` of the signing page's forms: an HMAC of the signing token (src/lib/form-mac.ts)
 * under a label of its own, so it can pass neither for a signing link nor for an access token. A
 * post must bring the one its page was given; a page of another site cannot make it without the
 * link, and with the link it could sign anyway.
 */
import { formMac, verifyFormMac } from '../lib/form-mac.js';

const LABEL = 'esign signing page form v1';

export const formToken = (tokenSecret: Uint8Array, signingToken: string): Promise<string> => formMac(tokenSecret, LABEL, signingToken);

/** True when `presented` is the form token of this signing token. */
export const verifyFormToken = (tokenSecret: Uint8Array, signingToken: string, presented: unknown): Promise<boolean> =>
  verifyFormMac(tokenSecret, LABEL, signingToken, presented);
