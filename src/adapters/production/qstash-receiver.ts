import { jwtVerify } from 'jose';
import { base64url } from '../../lib/crypto.js';

export type SignedDelivery = { signature: string; body: string; url: string };

/**
 * Checks QStash's `Upstash-Signature` on a delivery, as @upstash/qstash's Receiver checks it
 * (test/standins/qstash-protocol.test.ts holds the two side by side): a JWT signed with the
 * current signing key, or the next one during a rotation, issued by "Upstash", not expired, whose
 * subject is the URL called and whose `body` claim is the SHA-256 of the body received. Here, so
 * the Worker does not bundle that whole client for one check; only HS256 is taken, the one
 * algorithm QStash signs with.
 */
export class QStashReceiver {
  private readonly keys: Uint8Array[];

  constructor(signingKeys: { current: string; next: string }) {
    this.keys = [signingKeys.current, signingKeys.next].map((key) => new TextEncoder().encode(key));
  }

  /** True for a delivery signed by QStash for this URL and body; false for anything else. */
  async verify(delivery: SignedDelivery): Promise<boolean> {
    for (const key of this.keys) {
      const claims = await jwtVerify(delivery.signature, key, { issuer: 'Upstash', algorithms: ['HS256'] }).then(
        ({ payload }) => payload,
        () => undefined,
      );
      if (!claims) continue;
      if (claims.sub !== delivery.url || typeof claims.body !== 'string') return false;
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(delivery.body)));
      return claims.body.replace(/=+$/, '') === base64url(digest);
    }
    return false;
  }
}
