/**
 * Embedded signing on the signing page: `frame-ancestors` lists exactly the origins the company
 * allows (`'none'` without, with `X-Frame-Options: DENY`), on every answer of its links; the page
 * names what it tells its parent only for an allowed `?embed_origin=`, keeps that origin on its
 * forms and redirects, and a post from inside the frame is taken like any post of the page's own.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingSettings } from '../../src/data/schema.js';
import { putEmbedding } from '../../src/domain/companies/embedding.js';
import { companyContext } from '../../src/domain/verb-context.js';
import { SIGNING_CSP } from '../../src/signing-page/security.js';
import { createTestCompany, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

const APP = 'https://app.example.com';
const OTHER_APP = 'https://other-app.example.com';
const embedded = (origin: string) => `embed_origin=${encodeURIComponent(origin)}`;

type Answer = { status: number; html: string; headers: Headers };
async function request(path: string, init: RequestInit = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  // Each request from an address of its own: the per-address limit of unverified links stays out of the way.
  headers.set('x-test-client-ip', `embed-${crypto.randomUUID()}`);
  const response = await stack.app.request(path, { ...init, headers });
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/** The policy with `frame-ancestors` naming `origins`, everything else as the page always has it. */
const policyFor = (origins: string[]) => SIGNING_CSP.replace("frame-ancestors 'none'", `frame-ancestors ${origins.join(' ')}`);

/** What the page tells its parent, from the element sign.js reads; null when it tells nothing. */
function embedOf(html: string) {
  const meta = /<meta name="esign-embed"[^>]*>/.exec(html)?.[0];
  if (!meta) return null;
  const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(meta)?.[1];
  return {
    origin: attribute('data-origin'),
    envelopeId: attribute('data-envelope-id'),
    recipientId: attribute('data-recipient-id'),
    events: attribute('data-events')?.split(' '),
  };
}

const formTokenOf = (html: string) => /name="form_token" value="([^"]+)"/.exec(html)![1]!;

/** The sign form posted from inside a cross-site frame: the page's own origin, no referrer, so `Origin: null`. */
async function signInFrame(token: string, query: string) {
  const shown = await request(`/sign/${token}?${query}`);
  const form = new URLSearchParams({ form_token: formTokenOf(shown.html), consent: 'yes' });
  for (const [, name] of shown.html.matchAll(/name="(field\.[^"]+)"/g)) form.set(name!, 'Cleo Client');
  return request(`/sign/${token}?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'iframe' },
    body: form.toString(),
  });
}

async function embeddingCompany(origins: string[]): Promise<TestCompany> {
  const company = await createTestCompany(stack);
  await putEmbedding(companyContext(stack.services, { kind: 'operator' }, company.id), { raw: origins });
  return company;
}

describe('frame-ancestors of the signing page', () => {
  it("stays 'none', with X-Frame-Options DENY, for a company that allows no origin", async () => {
    const company = await createTestCompany(stack);
    const { links } = await sendTestEnvelope(stack, company);
    const token = links[0]!.token;
    for (const path of [`/sign/${token}`, `/sign/${token}?${embedded(APP)}`, `/sign/${token}/document.pdf`, `/sign/${token}/nothing-here`]) {
      const answer = await request(path);
      expect(answer.headers.get('content-security-policy'), path).toBe(SIGNING_CSP);
      expect(answer.headers.get('x-frame-options'), path).toBe('DENY');
    }
    expect(embedOf((await request(`/sign/${token}?${embedded(APP)}`)).html)).toBeNull();
  });

  it('lists exactly the allowed origins on every answer of the link, without X-Frame-Options, and keeps the rest', async () => {
    const company = await embeddingCompany([APP, OTHER_APP]);
    const { links } = await sendTestEnvelope(stack, company);
    const token = links[0]!.token;
    const paths = [`/sign/${token}`, `/sign/${token}/document.pdf`, `/sign/${token}/nothing-here`];
    for (const path of paths) {
      const answer = await request(path);
      expect(answer.headers.get('content-security-policy'), path).toBe(policyFor([APP, OTHER_APP]));
      expect(answer.headers.get('x-frame-options'), path).toBeNull();
      expect(answer.headers.get('cache-control'), path).toBe('no-store');
      expect(answer.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    // A post the page's own check refuses is framed the same way (the refusal shows in the frame).
    const refused = await request(`/sign/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      body: 'consent=yes',
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-security-policy')).toBe(policyFor([APP, OTHER_APP]));
  });

  it("is 'none' for another company's links, and for a forged link naming this company's recipient", async () => {
    await embeddingCompany([APP]);
    const other = await createTestCompany(stack);
    const { links: othersLinks } = await sendTestEnvelope(stack, other);
    expect((await request(`/sign/${othersLinks[0]!.token}`)).headers.get('content-security-policy')).toBe(SIGNING_CSP);

    const company = await embeddingCompany([APP]);
    const { links } = await sendTestEnvelope(stack, company);
    const forged = `${links[0]!.token.split('.')[0]}.${'A'.repeat(43)}`;
    const answer = await request(`/sign/${forged}?${embedded(APP)}`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-security-policy')).toBe(SIGNING_CSP);
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(embedOf(answer.html)).toBeNull();
  });

  it('leaves out an origin stored before the checks of today that the header cannot carry, and frames by the others', async () => {
    const company = await createTestCompany(stack);
    // Rows as an earlier version stored them: an IPv6 literal, a 64-character part, a 283-character host.
    const unsayable = ['https://[::1]', 'https://[::ffff:7f00:1]', `https://${'a'.repeat(64)}.example.com`, `https://${'host.'.repeat(56)}com`];
    await stack.services.database.db
      .insert(embeddingSettings)
      .values({ companyId: company.id, allowedOrigins: [...unsayable, APP], updatedAt: stack.clock.now() });
    const { links } = await sendTestEnvelope(stack, company);
    const token = links[0]!.token;
    for (const path of [`/sign/${token}`, `/sign/${token}/document.pdf`]) {
      const answer = await request(path);
      expect(answer.headers.get('content-security-policy'), path).toBe(policyFor([APP]));
      expect(answer.headers.get('x-frame-options'), path).toBeNull();
    }
    // Nor is the page's message sent to one of them.
    expect(embedOf((await request(`/sign/${token}?${embedded('https://[::1]')}`)).html)).toBeNull();

    // With only such origins the page is framed by none.
    await stack.services.database.db.update(embeddingSettings).set({ allowedOrigins: unsayable }).where(eq(embeddingSettings.companyId, company.id));
    const none = await request(`/sign/${token}`);
    expect(none.headers.get('content-security-policy')).toBe(SIGNING_CSP);
    expect(none.headers.get('x-frame-options')).toBe('DENY');
  });

  it('follows a change of the list at once', async () => {
    const company = await embeddingCompany([APP]);
    const { links } = await sendTestEnvelope(stack, company);
    expect((await request(`/sign/${links[0]!.token}`)).headers.get('content-security-policy')).toBe(policyFor([APP]));
    await putEmbedding(companyContext(stack.services, { kind: 'operator' }, company.id), { raw: [] });
    expect((await request(`/sign/${links[0]!.token}`)).headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('what the page tells its parent', () => {
  it('names the allowed origin its link gives, the envelope and the recipient, never the link', async () => {
    const company = await embeddingCompany([APP, OTHER_APP]);
    const { envelopeId, links } = await sendTestEnvelope(stack, company);
    const { token, recipientId } = links[0]!;
    const answer = await request(`/sign/${token}?lang=de&${embedded(APP)}`);
    expect(answer.status).toBe(200);
    expect(embedOf(answer.html)).toEqual({ origin: APP, envelopeId, recipientId, events: ['ready', 'viewed'] });
    const meta = /<meta name="esign-embed"[^>]*>/.exec(answer.html)![0];
    expect(meta).not.toContain(token.split('.')[1]);
    // The forms and the language links keep the parent's origin, as they keep the language.
    const kept = `lang=de&amp;${embedded(APP)}`;
    expect(answer.html).toContain(`action="/sign/${token}?${kept}"`);
    expect(answer.html).toContain(`action="/sign/${token}/decline?${kept}"`);
    expect(answer.html).toContain(`href="/sign/${token}?lang=fr&amp;${embedded(APP)}"`);
  });

  it('tells nothing without embed_origin, or with one the company does not allow', async () => {
    const company = await embeddingCompany([APP]);
    const { links } = await sendTestEnvelope(stack, company);
    const token = links[0]!.token;
    for (const query of [
      '',
      `?${embedded(OTHER_APP)}`,
      `?${embedded('https://APP.example.com')}`,
      `?${embedded(`${APP}/path`)}`,
      '?embed_origin=*',
      `?${embedded('null')}`,
    ]) {
      const answer = await request(`/sign/${token}${query}`);
      expect(answer.status, query).toBe(200);
      expect(embedOf(answer.html), query).toBeNull();
    }
  });

  it('takes a post from inside the frame, keeps embed_origin on the redirect, and then tells signed; the last signer completed', async () => {
    const company = await embeddingCompany([APP]);
    const { envelopeId, links } = await sendTestEnvelope(stack, company);
    const [client, witness] = links as [(typeof links)[0], (typeof links)[0]];

    const posted = await signInFrame(client.token, embedded(APP));
    expect(posted.status, posted.html.slice(0, 300)).toBe(303);
    expect(posted.headers.get('location')).toBe(`/sign/${client.token}?${embedded(APP)}`);
    const after = await request(posted.headers.get('location')!);
    expect(embedOf(after.html)).toEqual({ origin: APP, envelopeId, recipientId: client.recipientId, events: ['ready', 'signed'] });
    expect(after.html).toContain('<script type="module" src="/static/sign.js"></script>');

    const last = await signInFrame(witness.token, embedded(APP));
    expect(last.status).toBe(303);
    expect(embedOf((await request(last.headers.get('location')!)).html)?.events).toEqual(['ready', 'signed', 'completed']);
    expect(embedOf((await request(`/sign/${client.token}?${embedded(APP)}`)).html)?.events).toEqual(['ready', 'signed', 'completed']);
  });

  it('tells declined to the frame of the signer who declined', async () => {
    const company = await embeddingCompany([APP]);
    const { links } = await sendTestEnvelope(stack, company);
    const token = links[0]!.token;
    const shown = await request(`/sign/${token}?${embedded(APP)}`);
    const declined = await request(`/sign/${token}/decline?${embedded(APP)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ form_token: formTokenOf(shown.html), reason: 'Not today' }).toString(),
    });
    expect(declined.status).toBe(303);
    expect(declined.headers.get('location')).toBe(`/sign/${token}?${embedded(APP)}`);
    expect(embedOf((await request(declined.headers.get('location')!)).html)?.events).toEqual(['ready', 'declined']);
    expect(embedOf((await request(`/sign/${links[1]!.token}?${embedded(APP)}`)).html)?.events).toEqual(['ready']);
  });

  it('still refuses a post of another site from inside a frame, and one without the form token', async () => {
    const company = await embeddingCompany([APP]);
    const { links } = await sendTestEnvelope(stack, company);
    const token = links[0]!.token;
    const shown = await request(`/sign/${token}?${embedded(APP)}`);
    const body = new URLSearchParams({ form_token: formTokenOf(shown.html), consent: 'yes' }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(
      (await request(`/sign/${token}?${embedded(APP)}`, { method: 'POST', headers: { ...headers, origin: APP, 'sec-fetch-site': 'cross-site' }, body })).status,
    ).toBe(403);
    expect(
      (
        await request(`/sign/${token}?${embedded(APP)}`, {
          method: 'POST',
          headers: { ...headers, origin: 'null', 'sec-fetch-site': 'same-origin' },
          body: 'consent=yes',
        })
      ).status,
    ).toBe(403);
  });
});
