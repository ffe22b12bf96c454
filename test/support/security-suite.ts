/**
 * The checks every authenticated `/v1` route must pass, generated for each route from one place:
 * no token, a malformed, forged or expired token, Basic auth, a revoked or rotated key, a key
 * without the scope, an owner whose role lacks the permission, and an inactive owner.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import type { UserRole } from '../../src/data/schema.js';
import { revokeApiKey, rotateApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { type Scope, scopes } from '../../src/domain/auth/scopes.js';
import { call, errorCode } from './http.js';
import { addKeyHolder, asOperator, createTestCompany, type TestCompany } from './factories.js';
import type { TestStack } from './stack.js';

export type SecuredRoute = {
  method: string;
  path: string | ((company: TestCompany) => Promise<string> | string);
  scope: Scope;
  /** The request body; a function makes one for the suite's company (a send needs its template). */
  body?: unknown | ((company: TestCompany) => Promise<unknown> | unknown);
  /** The lowest role that lacks the scope's permission, if any role does. */
  roleWithout?: UserRole;
};

export function securitySuite(getStack: () => TestStack, route: SecuredRoute) {
  describe(`${route.method} ${typeof route.path === 'string' ? route.path : '(path)'}: security`, () => {
    let company: TestCompany;
    let path: string;
    let body: unknown;
    const send = (token: string | undefined, headers: Record<string, string> = {}) => call(getStack(), route.method, path, { token, body, headers });

    beforeAll(async () => {
      company = await createTestCompany(getStack());
      path = typeof route.path === 'string' ? route.path : await route.path(company);
      body = typeof route.body === 'function' ? await route.body(company) : route.body;
    });

    it('refuses a request without a token', async () => {
      const answer = await send(undefined);
      expect(answer.status).toBe(401);
      expect(errorCode(answer)).toBe('unauthorized');
    });

    it('refuses Basic auth, a malformed token and a forged one', async () => {
      for (const headers of [
        { authorization: `Basic ${btoa('user:pass')}` },
        { authorization: 'Bearer not-a-jwt' },
        { authorization: `Bearer ${company.owner.token.slice(0, -4)}AAAA` },
        { authorization: company.owner.token },
      ]) {
        const answer = await send(undefined, headers);
        expect(answer.status, headers.authorization).toBe(401);
        expect(errorCode(answer)).toBe('unauthorized');
      }
      const forged = await new SignJWT({ cid: company.id, ver: 1 })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('esign-api')
        .setAudience('esign-api/v1')
        .setSubject(company.owner.id)
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('some-other-secret-0123456789-abcdefghij'));
      expect((await send(forged)).status).toBe(401);
    });

    it('refuses an expired token (one hour after issue)', async () => {
      const holder = await addKeyHolder(getStack(), company.id);
      getStack().clock.advance(3600 * 1000 + 1000);
      try {
        const answer = await send(holder.token);
        expect(answer.status).toBe(401);
        expect(errorCode(answer)).toBe('unauthorized');
      } finally {
        getStack().clock.advance(-(3600 * 1000 + 1000));
      }
    });

    it('refuses tokens of a revoked or rotated key on the next request', async () => {
      const revoked = await addKeyHolder(getStack(), company.id);
      await revokeApiKey(asOperator(getStack()), { apiKeyId: revoked.id });
      expect(errorCode(await send(revoked.token))).toBe('unauthorized');
      const rotated = await addKeyHolder(getStack(), company.id);
      await rotateApiKey(asOperator(getStack()), { apiKeyId: rotated.id });
      expect(errorCode(await send(rotated.token))).toBe('unauthorized');
    });

    it('refuses a key without the scope', async () => {
      const holder = await addKeyHolder(getStack(), company.id, { scopes: scopes.filter((scope) => scope !== route.scope) });
      const answer = await send(holder.token);
      expect(answer.status).toBe(403);
      expect(errorCode(answer)).toBe('insufficient_scope');
    });

    if (route.roleWithout) {
      it(`refuses a ${route.roleWithout} owner even with the scope`, async () => {
        const holder = await addKeyHolder(getStack(), company.id, { role: route.roleWithout });
        const answer = await send(holder.token);
        expect(answer.status).toBe(403);
        expect(errorCode(answer)).toBe('permission_denied');
      });
    }

    it('refuses an inactive owner', async () => {
      const holder = await addKeyHolder(getStack(), company.id, { active: false });
      const answer = await send(holder.token);
      expect(answer.status).toBe(403);
      expect(errorCode(answer)).toBe('permission_denied');
    });
  });
}
