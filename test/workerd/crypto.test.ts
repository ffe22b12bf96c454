/** The WebCrypto helpers, API keys and access tokens, on workerd's own crypto and jose's Workers build. */
import { describe, expect, it } from 'vitest';
import { issueAccessToken, verifyAccessToken } from '../../src/domain/auth/access-tokens.js';
import { displayPrefix, generateApiKey, hashApiKey, looksLikeApiKey, newApiKeyId } from '../../src/domain/auth/api-key-format.js';
import { randomBase62, sha256Hex, timingSafeEqual, toHex } from '../../src/lib/crypto.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('the runtime', () => {
  it('is workerd, with the Workers globals and nodejs_compat', () => {
    expect(navigator.userAgent).toBe('Cloudflare-Workers');
    expect(typeof (globalThis as { WebSocketPair?: unknown }).WebSocketPair).toBe('function');
    expect(typeof crypto.subtle.digest).toBe('function');
  });
});

describe('sha256Hex', () => {
  it('gives the standard digests of strings and bytes', async () => {
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe(await sha256Hex('abc'));
    // UTF-8, not UTF-16: "é" is the two bytes c3 a9.
    expect(await sha256Hex('é')).toBe(await sha256Hex(new Uint8Array([0xc3, 0xa9])));
  });

  it('hashes a view of a larger buffer by its own bytes only', async () => {
    const buffer = new TextEncoder().encode('xxabcxx');
    expect(await sha256Hex(buffer.subarray(2, 5))).toBe(await sha256Hex('abc'));
  });

  it('toHex pads every byte to two digits', () => {
    expect(toHex(new Uint8Array([0, 1, 15, 16, 255]))).toBe('00010f10ff');
  });
});

describe('randomBase62', () => {
  it('gives exactly the length asked for, in base62 only', () => {
    for (const length of [0, 1, 2, 20, 32, 61, 62, 63, 200]) {
      const value = randomBase62(length);
      expect(value).toHaveLength(length);
      expect(value).toMatch(/^[0-9A-Za-z]*$/);
    }
  });

  it('draws every character about equally often (chi-squared), and never repeats a key', () => {
    const sample = Array.from({ length: 2000 }, () => randomBase62(31)).join('');
    const counts = new Map<string, number>();
    for (const char of sample) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe([...BASE62].sort().join(''));
    const expected = sample.length / 62;
    const chiSquared = [...counts.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    // 61 degrees of freedom: a fair draw scores above 140 about once in 10^8 runs. Taking every
    // byte modulo 62 (no rejection above 248) would favour the first eight characters and score about 400.
    expect(chiSquared).toBeLessThan(140);
    expect(new Set(Array.from({ length: 1000 }, () => randomBase62(22))).size).toBe(1000);
  });

  // getRandomValues refuses more than 65,536 bytes a call, in workerd and Node alike.
  it('gives long strings too', () => {
    expect(randomBase62(40_000)).toHaveLength(40_000);
  });
});

describe('timingSafeEqual', () => {
  it('is true only for identical strings', () => {
    expect(timingSafeEqual('', '')).toBe(true);
    expect(timingSafeEqual('secret-token', 'secret-token')).toBe(true);
    expect(timingSafeEqual('secret-token', 'secret-tokeN')).toBe(false);
    expect(timingSafeEqual('Secret-token', 'secret-token')).toBe(false);
    expect(timingSafeEqual('secret', 'secret-token')).toBe(false);
    expect(timingSafeEqual('secret-token', 'secret')).toBe(false);
    expect(timingSafeEqual('', 'a')).toBe(false);
    // A prefix padded with NULs must not pass for the shorter string.
    expect(timingSafeEqual('abc', 'abc\u0000')).toBe(false);
    expect(timingSafeEqual('é', 'e\u0301')).toBe(false);
  });
});

describe('API keys', () => {
  it('are esk_<environment>_ and 32 base62 characters, all different', () => {
    const keys = Array.from({ length: 300 }, () => generateApiKey('live'));
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) {
      expect(key).toMatch(/^esk_live_[0-9A-Za-z]{32}$/);
      expect(looksLikeApiKey(key)).toBe(true);
    }
    expect(generateApiKey('test')).toMatch(/^esk_test_[0-9A-Za-z]{32}$/);
    expect(newApiKeyId()).toMatch(/^key_[0-9A-Za-z]{20}$/);
    expect(looksLikeApiKey('sk_live_0123456789abcdef')).toBe(false);
  });

  it('are stored as their SHA-256 in hex, and shown again only by prefix', async () => {
    const key = generateApiKey('live');
    const hash = await hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(await sha256Hex(key));
    expect(await hashApiKey(`${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`)).not.toBe(hash);
    expect(displayPrefix(key)).toBe(key.slice(0, 13));
  });
});

describe('access tokens', () => {
  const secret = new TextEncoder().encode('workerd-access-token-secret-0123456789');
  const claims = { apiKeyId: 'key_workerd', companyId: '1f0e3c2b-4a59-4d68-8e7f-90a1b2c3d4e5', keyVersion: 2 };
  const now = new Date('2026-11-22T12:00:00.000Z');
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);

  const decode = (part: string) => JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
  const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

  it('are HS256 JWTs that carry the claims for one hour', async () => {
    const token = await issueAccessToken(secret, claims, now);
    const [header, payload] = token.split('.');
    expect(decode(header!)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(decode(payload!)).toMatchObject({ sub: 'key_workerd', cid: claims.companyId, ver: 2, iat: now.getTime() / 1000, exp: now.getTime() / 1000 + 3600 });
    expect(await verifyAccessToken(secret, token, now)).toEqual(claims);
    expect(await verifyAccessToken(secret, token, at(3599))).toEqual(claims);
    expect(await verifyAccessToken(secret, token, at(3600))).toBeNull();
    expect(await verifyAccessToken(secret, token, at(7200))).toBeNull();
  });

  it('each get their own jti', async () => {
    const ids = await Promise.all([1, 2, 3].map(async () => decode((await issueAccessToken(secret, claims, now)).split('.')[1]!).jti));
    expect(new Set(ids).size).toBe(3);
  });

  it('are refused under another secret, when altered, or with another algorithm', async () => {
    const token = await issueAccessToken(secret, claims, now);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(await verifyAccessToken(new TextEncoder().encode('another-secret-0123456789-abcdefghij'), token, now)).toBeNull();

    const otherCompany = encode({ ...decode(payload), cid: crypto.randomUUID() });
    expect(await verifyAccessToken(secret, `${header}.${otherCompany}.${signature}`, now)).toBeNull();
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    expect(await verifyAccessToken(secret, unsigned, now)).toBeNull();
    expect(await verifyAccessToken(secret, `${header}.${payload}.`, now)).toBeNull();
    expect(await verifyAccessToken(secret, 'not-a-jwt', now)).toBeNull();
  });

  it('are refused when signed with the right secret but for another audience or issuer', async () => {
    const { SignJWT } = await import('jose');
    const iat = now.getTime() / 1000;
    const sign = (issuer: string, audience: string) =>
      new SignJWT({ cid: claims.companyId, ver: 2 })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(claims.apiKeyId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 60)
        .sign(secret);
    expect(await verifyAccessToken(secret, await sign('esign-api', 'esign-api/v1'), now)).toEqual(claims);
    expect(await verifyAccessToken(secret, await sign('someone-else', 'esign-api/v1'), now)).toBeNull();
    expect(await verifyAccessToken(secret, await sign('esign-api', 'esign-api/admin'), now)).toBeNull();
  });
});
