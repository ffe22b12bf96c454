import { jwtVerify, SignJWT } from 'jose';
import { isApiKeyId, isUuid } from '../../lib/ids.js';

/** Access tokens live one hour (docs/api-reference.md, section 8.4). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

const ISSUER = 'esign-api';
const AUDIENCE = 'esign-api/v1';

export type TokenClaims = { apiKeyId: string; companyId: string; keyVersion: number };

export async function issueAccessToken(secret: Uint8Array, claims: TokenClaims, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ cid: claims.companyId, ver: claims.keyVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(claims.apiKeyId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
    .setJti(crypto.randomUUID())
    .sign(secret);
}

/**
 * The claims of a token this service signed and that has not expired at `now`, else null. Every
 * token we issue carries `iat` and `exp` one hour apart, so one without them, issued in the future,
 * or meant to live longer is not ours however it is signed. The ids it names are checked by shape
 * too, since they go into a query as they are.
 */
export async function verifyAccessToken(secret: Uint8Array, token: string, now: Date): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await verificationKey(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['iat', 'exp', 'sub'],
      maxTokenAge: ACCESS_TOKEN_TTL_SECONDS,
    });
    const { sub, cid, ver, iat, exp } = payload;
    if (typeof sub !== 'string' || !isApiKeyId(sub)) return null;
    if (typeof cid !== 'string' || !isUuid(cid)) return null;
    if (typeof ver !== 'number' || !Number.isSafeInteger(ver)) return null;
    if (iat === undefined || exp === undefined || exp - iat > ACCESS_TOKEN_TTL_SECONDS) return null;
    return { apiKeyId: sub, companyId: cid, keyVersion: ver };
  } catch {
    return null;
  }
}

// The HMAC key, imported once per secret: jose would import the raw bytes on every verification.
const verificationKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function verificationKey(secret: Uint8Array): Promise<CryptoKey> {
  let key = verificationKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    verificationKeys.set(secret, key);
  }
  return key;
}
