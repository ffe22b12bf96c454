/**
 * The signing ceremony's transitions, through the domain: view, sign, decline, complete, and the
 * finished PDF, with the races that a page left open or a double click bring.
 *
 * One file although long: the ceremony's transitions and their races share the envelopes they
 * build.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, envelopes, outboxMessages, recipients, webhookEvents } from '../../src/data/schema.js';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { declineAsRecipient } from '../../src/domain/signing/decline-as-recipient.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import { signingDocument } from '../../src/domain/signing/signing-document.js';
import { MAX_DRAWN_SIGNATURE_CHARS, type SigningState, SigningRefused } from '../../src/domain/signing/signing-state.js';
import { call } from '../support/http.js';
import { installed } from '../support/outside-tools.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';
import { bySigner, testSigner } from '../support/signer-verbs.js';
import { storedBytes } from '../support/stored-documents.js';

const pdfsigInstalled = installed('pdfsig');
let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 1000 });
});
afterAll(() => stack.close());

const who = { ip: '198.51.100.7', userAgent: 'Mozilla/5.0 (test)' };
const DAY = 24 * 3600 * 1000;

/** Sends a template and answers the envelope with each recipient's link token, by role. */
async function sendEnvelope(template: Partial<TemplateDefinition> = {}) {
  const created = await createTestTemplate(stack, company.id, template);
  const roles = (
    template.roles ?? [
      { name: 'Client', locked: false },
      { name: 'Witness', locked: false },
    ]
  ).filter((role) => !role.locked);
  const tag = unique();
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: {
      template_id: created.id,
      recipients: roles.map((role) => ({ role: role.name, name: `${role.name} Person`, email: `${role.name.toLowerCase()}-${tag}@example.test` })),
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const links = Object.fromEntries(
    (answer.body.signing_urls as { recipient_id: string; signing_url: string | null; name: string }[]).map((entry) => [
      entry.name.replace(' Person', ''),
      entry.signing_url ? entry.signing_url.split('/sign/')[1]! : null,
    ]),
  ) as Record<string, string>;
  return { envelopeId: answer.body.envelope_id as string, links, tag };
}

const parallel: Partial<TemplateDefinition> = { signing_order: 'parallel' };

/** The values a complete form posts for the fields of a sign state. */
function completeForm(state: SigningState, overrides: Record<string, string> = {}) {
  if (state.kind !== 'sign') throw new Error(`expected a sign state, got ${state.kind}`);
  const values = Object.fromEntries(state.fields.map((field) => [field.id, field.type === 'checkbox' ? 'true' : `${state.recipient.name}`]));
  return { consent: true, values: { ...values, ...overrides } };
}

async function signAs(token: string, overrides: Record<string, string> = {}) {
  const state = await bySigner(stack.services, who, openSigningLink, { token });
  return bySigner(stack.services, who, signAsRecipient, { token, submission: completeForm(state, overrides) });
}

async function trail(envelopeId: string) {
  const { db } = stack.services.database;
  const [[envelope], people, audit, events] = await Promise.all([
    db.select().from(envelopes).where(eq(envelopes.id, envelopeId)),
    db.select().from(recipients).where(eq(recipients.envelopeId, envelopeId)).orderBy(asc(recipients.order)),
    db.select().from(auditEvents).where(eq(auditEvents.envelopeId, envelopeId)).orderBy(asc(auditEvents.createdAt)),
    db.select().from(webhookEvents).where(eq(webhookEvents.envelopeId, envelopeId)),
  ]);
  return { envelope: envelope!, people, audit: audit.map((entry) => entry.kind), events: events.map((event) => event.kind).sort(), rawEvents: events };
}

const mails = (filter: (tags: Record<string, string>) => boolean) => stack.services.mailbox.list().filter((mail) => mail.tags && filter(mail.tags));

describe('opening a link', () => {
  it('records the first view once: status, audit row with IP and user agent, envelope.viewed', async () => {
    const { envelopeId, links } = await sendEnvelope();
    const first = await bySigner(stack.services, who, openSigningLink, { token: links.Client! });
    expect(first.kind).toBe('sign');
    await bySigner(stack.services, who, openSigningLink, { token: links.Client! });
    const { people, audit, events } = await trail(envelopeId);
    expect(people[0]!.status).toBe('viewed');
    expect(audit.filter((kind) => kind === 'recipient.viewed')).toHaveLength(1);
    expect(events.filter((kind) => kind === 'envelope.viewed')).toHaveLength(1);
    const [viewed] = await stack.services.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, envelopeId), eq(auditEvents.kind, 'recipient.viewed')));
    expect(viewed!.data).toMatchObject({ ip: who.ip, user_agent: who.userAgent });
  });

  it('shows the second signer of a sequential envelope that it is not their turn, and records no view', async () => {
    const { envelopeId, links } = await sendEnvelope();
    expect((await bySigner(stack.services, who, openSigningLink, { token: links.Witness! })).kind).toBe('not_your_turn');
    expect((await trail(envelopeId)).people[1]!.status).toBe('sent');
  });

  it('answers invalid for tampered, truncated, foreign and malformed tokens, the same for each', async () => {
    const { links } = await sendEnvelope();
    const other = await sendEnvelope();
    const [id, mac] = links.Client!.split('.');
    const foreign = `${id}.${other.links.Client!.split('.')[1]}`;
    const tampered = `${id}.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [tampered, links.Client!.slice(0, -3), foreign, 'nonsense', '', `${id}`, `rcp_${'x'.repeat(22)}.${mac}`, `${id}\u0000.${mac}`]) {
      expect(await bySigner(stack.services, who, openSigningLink, { token })).toEqual({ kind: 'invalid' });
      expect(await bySigner(stack.services, testSigner, signingDocument, { token })).toBeNull();
    }
  });

  it('gives the document as sent while the envelope is out', async () => {
    const { links } = await sendEnvelope();
    const document = await bySigner(stack.services, testSigner, signingDocument, { token: links.Client! });
    expect(document?.finished).toBe(false);
    expect(new TextDecoder().decode((await storedBytes(stack.services.documents, document!.key)).slice(0, 5))).toBe('%PDF-');
  });
});

describe('signing in sequential order, to the finished PDF', () => {
  it('signs each in turn, e-mails the next, completes once, and makes the finished PDF with its events and e-mails', async () => {
    const { envelopeId, links, tag } = await sendEnvelope();
    const clientSigned = await signAs(links.Client!);
    expect(clientSigned.kind).toBe('signed');
    // The witness's turn: their signing e-mail goes out now.
    await vi.waitFor(() => expect(mails((t) => t.kind === 'signing_request' && t.envelope_id === envelopeId)).toHaveLength(2));
    expect(mails((t) => t.envelope_id === envelopeId).map((mail) => mail.to.email)).toContain(`witness-${tag}@example.test`);

    const completed = await signAs(links.Witness!);
    expect(completed.kind).toBe('completed');
    await vi.waitFor(async () => expect((await trail(envelopeId)).envelope.signedDocumentSha256).toMatch(/^[0-9a-f]{64}$/), { timeout: 15_000 });

    const { envelope, audit, events, rawEvents } = await trail(envelopeId);
    expect(envelope.status).toBe('completed');
    expect(events).toEqual([
      'envelope.completed',
      'envelope.document_ready',
      'envelope.sent',
      'envelope.signed',
      'envelope.signed',
      'envelope.viewed',
      'envelope.viewed',
    ]);
    expect(audit).toEqual(
      expect.arrayContaining([
        'envelope.sent',
        'recipient.emailed',
        'recipient.viewed',
        'recipient.consented',
        'recipient.signed',
        'envelope.completed',
        'envelope.document_ready',
      ]),
    );
    // The last signature and the completion it brings are written in one change, at one time: the
    // trail reads them in the order they were written, never the completion first.
    const written = await call(stack, 'GET', `/admin/v1/envelopes/${envelopeId}/audit`, { token: ADMIN_TOKEN });
    const kinds: string[] = written.body.events.map((entry: { kind: string }) => entry.kind);
    expect(kinds.lastIndexOf('recipient.signed')).toBeLessThan(kinds.indexOf('envelope.completed'));
    expect(kinds.lastIndexOf('recipient.consented')).toBeLessThan(kinds.lastIndexOf('recipient.signed'));
    const ready = rawEvents.find((event) => event.kind === 'envelope.document_ready')!;
    expect(ready.payload).toMatchObject({
      envelope: { envelope_id: envelopeId, status: 'completed' },
      document: { sha256: envelope.signedDocumentSha256, size: envelope.signedDocumentSize },
    });
    expect(JSON.stringify(rawEvents)).not.toContain('/sign/');

    // The sender hears of the completion; every recipient, the copy included, gets the ready e-mail with their link.
    await vi.waitFor(() => expect(mails((t) => t.kind === 'document_ready' && t.envelope_id === envelopeId)).toHaveLength(3));
    expect(mails((t) => t.kind === 'completed' && t.envelope_id === envelopeId)).toHaveLength(1);
    const clientReady = mails((t) => t.kind === 'document_ready' && t.envelope_id === envelopeId).find(
      (mail) => mail.to.email === `client-${tag}@example.test`,
    )!;
    expect(clientReady.text).toContain(`/sign/${links.Client}`);

    // The link now downloads the finished PDF, whose hash is the one stored and announced.
    const finished = await bySigner(stack.services, testSigner, signingDocument, { token: links.Client! });
    expect(finished?.finished).toBe(true);
    const digest = Buffer.from(
      await crypto.subtle.digest('SHA-256', (await storedBytes(stack.services.documents, finished!.key)) as Uint8Array<ArrayBuffer>),
    ).toString('hex');
    expect(digest).toBe(envelope.signedDocumentSha256);
    // The stored file is the sealed one: poppler finds the seal valid and covering all of it.
    const dir = mkdtempSync(join(tmpdir(), 'ceremony-'));
    try {
      if (pdfsigInstalled) {
        writeFileSync(join(dir, 'finished.pdf'), await storedBytes(stack.services.documents, finished!.key));
        const report = execFileSync('pdfsig', ['-nocert', join(dir, 'finished.pdf')], { encoding: 'utf8' });
        expect(report).toContain('Signature Validation: Signature is Valid.');
        expect(report).toContain('Total document signed');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    const admin = await stack.app.request(`/admin/v1/envelopes/${envelopeId}/document`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(admin.status).toBe(200);
    expect(admin.headers.get('content-type')).toBe('application/pdf');
    expect(admin.headers.get('x-document-sha256')).toBe(envelope.signedDocumentSha256);
    const auditAnswer = await call(stack, 'GET', `/admin/v1/envelopes/${envelopeId}/audit`, { token: ADMIN_TOKEN });
    expect(auditAnswer.status).toBe(200);
    expect(auditAnswer.body.events.map((entry: { kind: string }) => entry.kind)).toContain('recipient.signed');
    expect(auditAnswer.body.events.find((entry: { kind: string }) => entry.kind === 'recipient.signed').data).toMatchObject({ ip: who.ip });
  });

  it('answers 409 for the document before completion, 404 for an unknown envelope', async () => {
    const { envelopeId } = await sendEnvelope();
    expect((await call(stack, 'GET', `/admin/v1/envelopes/${envelopeId}/document`, { token: ADMIN_TOKEN })).status).toBe(409);
    expect((await call(stack, 'GET', `/admin/v1/envelopes/env_${'u'.repeat(22)}/document`, { token: ADMIN_TOKEN })).status).toBe(404);
    expect((await call(stack, 'GET', `/admin/v1/envelopes/env_${'u'.repeat(22)}/audit`, { token: ADMIN_TOKEN })).status).toBe(404);
  });
});

describe('races', () => {
  it('signs once on a double submit', async () => {
    const { envelopeId, links } = await sendEnvelope();
    const state = await bySigner(stack.services, who, openSigningLink, { token: links.Client! });
    const form = completeForm(state);
    const submit = () => bySigner(stack.services, who, signAsRecipient, { token: links.Client!, submission: form });
    const results = await Promise.all([submit(), submit()]);
    expect(results.map((result) => result.kind)).toEqual(['signed', 'signed']);
    const { audit, events } = await trail(envelopeId);
    expect(audit.filter((kind) => kind === 'recipient.signed')).toHaveLength(1);
    expect(events.filter((kind) => kind === 'envelope.signed')).toHaveLength(1);
  });

  it('completes once when two signers finish at once', async () => {
    const { envelopeId, links } = await sendEnvelope(parallel);
    const [a, b] = await Promise.all([signAs(links.Client!), signAs(links.Witness!)]);
    // Whoever reads after the other's commit sees the completion; at least the last one does.
    expect([a.kind, b.kind]).toContain('completed');
    expect([a.kind, b.kind].every((kind) => kind === 'completed' || kind === 'signed')).toBe(true);
    const { envelope, events } = await trail(envelopeId);
    expect(envelope.status).toBe('completed');
    expect(events.filter((kind) => kind === 'envelope.completed')).toHaveLength(1);
    const finish = await stack.services.database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.id, `${envelopeId}.finish`));
    expect(finish).toHaveLength(1);
  });

  it('keeps an envelope declined when one signer declines while another signs', async () => {
    const { envelopeId, links } = await sendEnvelope(parallel);
    const witness = await bySigner(stack.services, who, openSigningLink, { token: links.Witness! });
    await Promise.all([
      bySigner(stack.services, who, declineAsRecipient, { token: links.Client!, reason: 'Wrong company name' }),
      bySigner(stack.services, who, signAsRecipient, { token: links.Witness!, submission: completeForm(witness) }),
    ]);
    const { envelope, events } = await trail(envelopeId);
    expect(envelope.status).toBe('declined');
    expect(events).toContain('envelope.declined');
    expect(events).not.toContain('envelope.completed');
    // Every link stops working: both now show the decline.
    expect((await bySigner(stack.services, who, openSigningLink, { token: links.Witness! })).kind).toBe('declined');
    expect(await bySigner(stack.services, who, openSigningLink, { token: links.Client! })).toMatchObject({ kind: 'declined', byThisRecipient: true });
    await vi.waitFor(() => expect(mails((t) => t.kind === 'declined' && t.envelope_id === envelopeId)).toHaveLength(1));
  });

  it('signs nothing when the envelope was voided while the page was open', async () => {
    const { envelopeId, links } = await sendEnvelope();
    const state = await bySigner(stack.services, who, openSigningLink, { token: links.Client! });
    expect((await call(stack, 'POST', `/admin/v1/envelopes/${envelopeId}/void`, { token: ADMIN_TOKEN, body: {} })).status).toBe(200);
    expect((await bySigner(stack.services, who, signAsRecipient, { token: links.Client!, submission: completeForm(state) })).kind).toBe('voided');
    expect((await bySigner(stack.services, who, declineAsRecipient, { token: links.Client!, reason: 'late' })).kind).toBe('voided');
    const { people, audit } = await trail(envelopeId);
    expect(people[0]!.status).toBe('viewed');
    expect(audit).not.toContain('recipient.signed');
    expect(await bySigner(stack.services, testSigner, signingDocument, { token: links.Client! })).toBeNull();
  });

  it('signs nothing once the envelope has expired while the page was open', async () => {
    const { envelopeId, links } = await sendEnvelope({ expiry_days: 1 });
    const state = await bySigner(stack.services, who, openSigningLink, { token: links.Client! });
    stack.clock.advance(DAY + 1000);
    try {
      expect((await bySigner(stack.services, who, signAsRecipient, { token: links.Client!, submission: completeForm(state) })).kind).toBe('expired');
    } finally {
      stack.clock.advance(-(DAY + 1000));
    }
    expect((await trail(envelopeId)).audit).not.toContain('recipient.signed');
  });

  it('refuses to sign after a decline, and to decline after signing', async () => {
    const { links } = await sendEnvelope(parallel);
    await signAs(links.Witness!);
    expect((await bySigner(stack.services, who, declineAsRecipient, { token: links.Witness!, reason: 'changed my mind' })).kind).toBe('signed');
    await bySigner(stack.services, who, declineAsRecipient, { token: links.Client!, reason: 'no' });
    const state = await bySigner(stack.services, who, openSigningLink, { token: links.Client! });
    expect(state.kind).toBe('declined');
  });
});

describe('bad input', () => {
  async function refusal(run: () => Promise<unknown>) {
    const error = await run().then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(SigningRefused);
    return (error as SigningRefused).problems;
  }

  it('refuses a form without consent or a required field, naming each problem, and records nothing', async () => {
    const { envelopeId, links } = await sendEnvelope();
    const state = await bySigner(stack.services, who, openSigningLink, { token: links.Client! });
    if (state.kind !== 'sign') throw new Error(state.kind);
    const signature = state.fields.find((field) => field.type === 'signature')!;
    const problems = await refusal(() => bySigner(stack.services, who, signAsRecipient, { token: links.Client!, submission: { consent: false, values: {} } }));
    expect(problems.map((problem) => problem.field)).toEqual([null, signature.id]);
    expect((await trail(envelopeId)).audit).not.toContain('recipient.signed');
  });

  it('refuses an oversized or non-PNG drawn signature, and NUL bytes; keeps HTML as text', async () => {
    const { envelopeId, links } = await sendEnvelope({
      fields: [
        { role: 'Client', type: 'signature', page: 2, x: 72, y: 640, width: 200, height: 40, required: true },
        { role: 'Client', type: 'text', label: 'Company', page: 1, x: 72, y: 200, width: 200, height: 20, required: false },
        { role: 'Witness', type: 'signature', page: 2, x: 72, y: 700, width: 200, height: 40, required: true },
      ],
    });
    const state = await bySigner(stack.services, who, openSigningLink, { token: links.Client! });
    if (state.kind !== 'sign') throw new Error(state.kind);
    const [signature, company] = [state.fields.find((f) => f.type === 'signature')!, state.fields.find((f) => f.type === 'text')!];
    const huge = `data:image/png;base64,${'iVBORw0KGgo'.padEnd(MAX_DRAWN_SIGNATURE_CHARS, 'A')}`;
    for (const bad of [huge, 'data:image/png;base64,R0lGODlhAQABAAAAACw=', 'data:image/svg+xml;base64,PHN2Zz4=', 'Cleo\u0000', 'x'.repeat(201)]) {
      const problems = await refusal(() =>
        bySigner(stack.services, who, signAsRecipient, { token: links.Client!, submission: completeForm(state, { [signature.id]: bad }) }),
      );
      expect(problems.map((problem) => problem.field)).toEqual([signature.id]);
    }
    const script = '<script>alert(1)</script> & "Co"';
    expect(
      (await bySigner(stack.services, who, signAsRecipient, { token: links.Client!, submission: completeForm(state, { [company.id]: script }) })).kind,
    ).toBe('signed');
    const { db } = stack.services.database;
    const { envelopeFields } = await import('../../src/data/schema.js');
    const [stored] = await db.select().from(envelopeFields).where(eq(envelopeFields.id, company.id));
    expect(stored!.value).toBe(script);
    expect((await trail(envelopeId)).audit).toContain('recipient.signed');
  });

  it('refuses a decline without a reason, or with one over 500 characters', async () => {
    const { links } = await sendEnvelope();
    for (const reason of ['', '   ', 'x'.repeat(501), 'bad\u0000']) {
      await refusal(() => bySigner(stack.services, who, declineAsRecipient, { token: links.Client!, reason }));
    }
    expect((await bySigner(stack.services, who, declineAsRecipient, { token: links.Client!, reason: 'x'.repeat(500) })).kind).toBe('declined');
  });
});
