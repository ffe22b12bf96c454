import { jwtVerify, SignJWT } from 'jose';

/** Access tokens live one hour (spec section 8.4). */
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

/** The claims of a token this service signed and that has not expired at `now`, else null. */
export async function verifyAccessToken(secret: Uint8Array, token: string, now: Date): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: now,
    });
    if (typeof payload.sub !== 'string' || typeof payload.cid !== 'string' || typeof payload.ver !== 'number') return null;
    return { apiKeyId: payload.sub, companyId: payload.cid, keyVersion: payload.ver };
  } catch {
    return null;
  }
}
