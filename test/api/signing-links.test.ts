/**
 * GET /v1/envelopes/{id}/signing-links (docs/api-reference.md, sections 2.2, 4.2): the entries the send returned, at any
 * time after it; refused when the envelope does not share links; dead links for an envelope that
 * can no longer be signed; each link bound to one recipient of one envelope.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopes, recipients, type EnvelopeStatus } from '../../src/data/schema.js';
import { verifySigningToken } from '../../src/domain/envelopes/signing-links.js';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { type Answer, call } from '../support/http.js';
import { addKeyHolder, createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { expectError } from '../support/expect-error.js';
import { unique } from '../support/unique.js';

const DAY = 24 * 3600 * 1000;

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

type Entry = { recipient_id: string; name: string; email: string; recipient_type: string; signing_url: string | null };

const linksOf = (token: string, envelopeId: string) => call(stack, 'GET', `/v1/envelopes/${encodeURIComponent(envelopeId)}/signing-links`, { token });

/** Sends the factory's NDA (Client, Witness, locked cc Counsel) and returns the 201 answer. */
async function sendNda(company: TestCompany, template?: Partial<TemplateDefinition>, token = company.owner.token) {
  const created = await createTestTemplate(stack, company.id, template);
  const tag = unique();
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token,
    body: {
      template_id: created.id,
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: `client-${tag}@example.test` },
        { role: 'Witness', name: 'Walt Witness', email: `witness-${tag}@example.test` },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { envelope_id: string; signing_urls: Entry[] | null };
}

/** An error answer, which never shows a signing link. */
function expectLinkError(answer: Answer, status: number, code: string) {
  expectError(answer, status, code);
  expect(JSON.stringify(answer.body)).not.toContain('/sign/');
}

const setStatus = (envelopeId: string, status: EnvelopeStatus) =>
  stack.services.database.db.update(envelopes).set({ status }).where(eq(envelopes.id, envelopeId));

/** The token part of a link: `{recipient_id}.{mac}`. */
const tokenOf = (url: string) => url.slice(`${BASE_URL}/sign/`.length);

/** Which envelope a recipient belongs to, as the signing page would look it up. */
async function envelopeOfRecipient(recipientId: string) {
  const [row] = await stack.services.database.db.select({ envelopeId: recipients.envelopeId }).from(recipients).where(eq(recipients.id, recipientId));
  return row?.envelopeId ?? null;
}

describe('GET /v1/envelopes/{id}/signing-links', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(stack);
  });

  it('answers 200 with the very entries of the send, in signing order', async () => {
    const sent = await sendNda(company);
    const answer = await linksOf(company.owner.token, sent.envelope_id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('RateLimit-Limit')).toBe('1000');
    expect(answer.body).toStrictEqual({ signing_urls: sent.signing_urls });
    expect(answer.body.signing_urls.map((entry: Entry) => [entry.name, entry.recipient_type, entry.signing_url === null])).toEqual([
      ['Cleo Client', 'need-to-sign', false],
      ['Walt Witness', 'need-to-sign', false],
      ['Carl Counsel', 'receives-copy', true],
    ]);
    // Derived, not stored: asking again gives the same links.
    expect((await linksOf(company.owner.token, sent.envelope_id)).body).toStrictEqual(answer.body);
  });

  it('serves any key of the company with the scope, not only the one that sent', async () => {
    const sent = await sendNda(company);
    const member = await addKeyHolder(stack, company.id, { role: 'member', scopes: ['envelopes:send'] });
    const answer = await linksOf(member.token, sent.envelope_id);
    expect(answer.status).toBe(200);
    expect(answer.body.signing_urls).toStrictEqual(sent.signing_urls);
  });

  it('refuses an envelope that does not share links with 403 signing_links_disabled', async () => {
    const sent = await sendNda(company, { share_signing_links: false });
    expect(sent.signing_urls).toBeNull();
    expectLinkError(await linksOf(company.owner.token, sent.envelope_id), 403, 'signing_links_disabled');
  });

  it('answers an unknown id, a malformed one and another company’s envelope with 404 envelope_not_found', async () => {
    const other = await createTestCompany(stack);
    const foreign = await sendNda(other);
    const foreignHidden = await sendNda(other, { share_signing_links: false });
    for (const id of [`env_${'x'.repeat(22)}`, 'nope', "env_1' or '1'='1", 'x'.repeat(300), foreign.envelope_id, foreignHidden.envelope_id]) {
      const answer = await linksOf(company.owner.token, id);
      expectLinkError(answer, 404, 'envelope_not_found');
    }
    // The owner still gets them.
    expect((await linksOf(other.owner.token, foreign.envelope_id)).status).toBe(200);
  });

  it.each<[EnvelopeStatus]>([['voided'], ['expired'], ['completed'], ['declined']])(
    'gives the entries of a %s envelope with every signing_url null',
    async (status) => {
      const sent = await sendNda(company);
      await setStatus(sent.envelope_id, status);
      const answer = await linksOf(company.owner.token, sent.envelope_id);
      expect(answer.status).toBe(200);
      expect(answer.body.signing_urls).toStrictEqual(sent.signing_urls!.map((entry) => ({ ...entry, signing_url: null })));
    },
  );

  it('gives null links once the expiry has passed, even before the expiry job ran', async () => {
    const sent = await sendNda(company, { expiry_days: 1 });
    stack.clock.advance(DAY + 1000);
    try {
      const token = (await addKeyHolder(stack, company.id)).token;
      const answer = await linksOf(token, sent.envelope_id);
      expect(answer.status).toBe(200);
      expect(answer.body.signing_urls.every((entry: Entry) => entry.signing_url === null)).toBe(true);
      expect(answer.body.signing_urls.map((entry: Entry) => entry.recipient_id)).toEqual(sent.signing_urls!.map((entry) => entry.recipient_id));
    } finally {
      stack.clock.advance(-(DAY + 1000));
    }
  });
});

describe('signing links are bound to one recipient of one envelope', () => {
  let company: TestCompany;
  let first: { envelope_id: string; signing_urls: Entry[] | null };
  let second: { envelope_id: string; signing_urls: Entry[] | null };
  const secret = () => stack.services.config.tokenSecret;
  const signerLinks = (sent: typeof first) => sent.signing_urls!.filter((entry) => entry.signing_url).map((entry) => entry.signing_url!);

  beforeAll(async () => {
    company = await createTestCompany(stack);
    first = await sendNda(company);
    second = await sendNda(company);
  });

  it('gives every recipient of every envelope a different link of the form {BASE_URL}/sign/{recipient_id}.{mac}', async () => {
    const links = [...signerLinks(first), ...signerLinks(second)];
    expect(new Set(links).size).toBe(4);
    for (const sent of [first, second]) {
      for (const entry of sent.signing_urls!.filter((e) => e.signing_url)) {
        expect(entry.signing_url).toMatch(new RegExp(`^${BASE_URL.replace(/\./g, '\\.')}/sign/${entry.recipient_id}\\.[A-Za-z0-9_-]+$`));
      }
    }
  });

  it('verifies a link for its own envelope and recipient only', async () => {
    const [link] = signerLinks(first);
    const token = tokenOf(link!);
    const recipientId = token.split('.')[0]!;
    expect(await verifySigningToken(secret(), token, envelopeOfRecipient)).toEqual({ recipientId, envelopeId: first.envelope_id });
    // The same token, claimed for another envelope of the same company.
    expect(await verifySigningToken(secret(), token, async () => second.envelope_id)).toBeNull();
    // Another recipient's id with this MAC, and this recipient's id with another recipient's MAC.
    const [, other] = signerLinks(first);
    const [otherId, otherMac] = tokenOf(other!).split('.');
    expect(await verifySigningToken(secret(), `${otherId}.${token.split('.')[1]}`, envelopeOfRecipient)).toBeNull();
    expect(await verifySigningToken(secret(), `${recipientId}.${otherMac}`, envelopeOfRecipient)).toBeNull();
  });

  it('refuses tampered, truncated and foreign-secret tokens, and unknown recipients', async () => {
    const token = tokenOf(signerLinks(second)[0]!);
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const bad of [flipped, token.slice(0, -2), `${token}x`, token.split('.')[0]!, `${token.split('.')[0]}.`, '', '.']) {
      expect(await verifySigningToken(secret(), bad, envelopeOfRecipient), bad).toBeNull();
    }
    const foreignSecret = new TextEncoder().encode('another-token-secret-0123456789-abcdef');
    expect(await verifySigningToken(foreignSecret, token, envelopeOfRecipient)).toBeNull();
    expect(await verifySigningToken(secret(), `rcp_${'z'.repeat(22)}.${token.split('.')[1]}`, envelopeOfRecipient)).toBeNull();
  });
});
