import { describe, expect, it } from 'vitest';
import { issueAccessToken, verifyAccessToken } from '../../src/domain/auth/access-tokens.js';
import { displayPrefix, generateApiKey, hashApiKey, looksLikeApiKey } from '../../src/domain/auth/api-key-format.js';
import type { Principal } from '../../src/domain/auth/principal.js';
import { authorize, rolePermissions, scopes } from '../../src/domain/auth/scopes.js';
import type { DomainError } from '../../src/errors.js';

describe('API keys', () => {
  it('are esk_<env>_ plus 32 base62 characters, all different', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('live')));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^esk_live_[0-9A-Za-z]{32}$/);
      expect(looksLikeApiKey(key)).toBe(true);
    }
    expect(generateApiKey('test')).toMatch(/^esk_test_/);
  });

  it('are stored as a SHA-256 hash and shown again only by their prefix', async () => {
    const key = 'esk_test_acme_full_5Qm3x9Lr2Vt8Wp4Nz7Hc';
    expect(await hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashApiKey(key)).not.toBe(await hashApiKey(`${key}x`));
    expect(displayPrefix(key)).toBe('esk_test_acme_full_5Qm3');
    expect(displayPrefix('esk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345')).toBe('esk_live_ABCD');
  });
});

describe('access tokens', () => {
  const secret = new TextEncoder().encode('unit-test-secret-0123456789-abcdefghij');
  const claims = { apiKeyId: 'key_1', companyId: '7b0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60', keyVersion: 3 };
  const now = new Date('2026-11-22T12:00:00.000Z');

  it('round-trip their claims until one hour has passed', async () => {
    const token = await issueAccessToken(secret, claims, now);
    expect(await verifyAccessToken(secret, token, now)).toEqual(claims);
    expect(await verifyAccessToken(secret, token, new Date(now.getTime() + 3599_000))).toEqual(claims);
    expect(await verifyAccessToken(secret, token, new Date(now.getTime() + 3601_000))).toBeNull();
  });

  it('are refused under another secret or when altered', async () => {
    const token = await issueAccessToken(secret, claims, now);
    expect(await verifyAccessToken(new TextEncoder().encode('x'.repeat(40)), token, now)).toBeNull();
    const [header, payload, signature] = token.split('.');
    const altered = JSON.parse(atob(payload!.replace(/-/g, '+').replace(/_/g, '/')));
    altered.sub = 'key_2';
    const forgedPayload = btoa(JSON.stringify(altered)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    expect(await verifyAccessToken(secret, `${header}.${forgedPayload}.${signature}`, now)).toBeNull();
    expect(await verifyAccessToken(secret, 'a.b.c', now)).toBeNull();
  });
});

describe('authorization: key scope AND owner role', () => {
  const principal = (role: Principal['owner']['role'], keyScopes: Principal['scopes'], active = true): Principal => ({
    companyId: 'c',
    apiKeyId: 'k',
    scopes: keyScopes,
    owner: { id: 'u', email: 'u@example.test', role, active, esignSeat: true },
  });
  const codeOf = (fn: () => void) => {
    try {
      fn();
      return 'allowed';
    } catch (err) {
      return (err as DomainError).code;
    }
  };

  it('follows the role table of the API guide for every role and scope', () => {
    const table = {
      owner: [true, true, true, true, true, true],
      admin: [true, true, true, true, true, true],
      member: [true, true, true, true, true, false],
      viewer: [true, true, false, false, true, false],
    } as const;
    for (const [role, allowed] of Object.entries(table)) {
      scopes.forEach((scope, i) => {
        expect(rolePermissions[role as keyof typeof table].includes(scope), `${role} ${scope}`).toBe(allowed[i]);
        expect(codeOf(() => authorize(principal(role as keyof typeof table, scopes), scope))).toBe(allowed[i] ? 'allowed' : 'permission_denied');
      });
    }
  });

  it('a scope can only narrow: missing scope is insufficient_scope even for an owner', () => {
    expect(codeOf(() => authorize(principal('owner', ['templates:read']), 'contacts:read'))).toBe('insufficient_scope');
  });

  it('an inactive owner can do nothing', () => {
    for (const scope of scopes) expect(codeOf(() => authorize(principal('owner', scopes, false), scope))).toBe('permission_denied');
  });
});
