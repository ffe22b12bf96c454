/**
 * The finishing job of an envelope on the embedded stack, with PDF work that never ends (as
 * pdf-lib's decoder did on a hostile PNG): the work runs in its thread, the API keeps answering
 * while it spins, and the job's call fails at the deadline instead of holding the process.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelopes } from '../../src/data/schema.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import { DeadlineExceeded } from '../../src/lib/deadline.js';
import { type ThreadedPdfMaker, threadedPdfMaker } from '../../src/pdf/threaded-pdf-maker.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';
import { bySigner } from '../support/signer-verbs.js';

const DEADLINE_MS = 500;
let stack: TestStack;
let company: TestCompany;
let templateId: string;
let maker: ThreadedPdfMaker;
const failures: unknown[] = [];
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 10 });
  // Imported with the stack's own PDF work, before the spinning one takes over.
  templateId = (await createTestTemplate(stack, company.id, { signing_order: 'parallel' })).id;
  maker = threadedPdfMaker(stack.services.config, stack.services.documents, {
    deadlineMs: DEADLINE_MS,
    entry: new URL('../support/spinning-pdf-thread.ts', import.meta.url),
  });
  stack.services.pdf = {
    pageSizes: (key) => maker.pageSizes(key),
    typedSignaturesFit: (signatures) => maker.typedSignaturesFit(signatures),
    filledCopy: (request) => maker.filledCopy(request),
    finish: (request) =>
      maker.finish(request).catch((err: unknown) => {
        failures.push(err);
        throw err;
      }),
  };
});
afterAll(async () => {
  await maker.close();
  await stack.close();
});

const who = { ip: '198.51.100.7', userAgent: 'Mozilla/5.0 (test)' };

describe('a finishing job whose PDF work never ends', () => {
  it('fails at the deadline while every route keeps answering, and stores no document', async () => {
    const sent = await call(stack, 'POST', '/v1/envelopes/from-template', {
      token: company.owner.token,
      body: {
        template_id: templateId,
        recipients: [
          { role: 'Client', name: 'Cleo', email: 'cleo@example.test' },
          { role: 'Witness', name: 'Walt', email: 'walt@example.test' },
        ],
      },
    });
    expect(sent.status).toBe(201);
    const tokens = (sent.body.signing_urls as { signing_url: string | null }[]).flatMap((entry) =>
      entry.signing_url ? [entry.signing_url.split('/sign/')[1]!] : [],
    );

    const channel = new BroadcastChannel('spinning-pdf-thread');
    const spinning = new Promise((resolve) => (channel.onmessage = resolve)).finally(() => channel.close());
    for (const token of tokens) {
      const state = await bySigner(stack.services, who, openSigningLink, { token });
      if (state.kind !== 'sign') throw new Error(state.kind);
      const values = Object.fromEntries(state.fields.map((field) => [field.id, state.recipient.name]));
      await bySigner(stack.services, who, signAsRecipient, { token, submission: { consent: true, values } });
    }
    await spinning;

    // The PDF thread spins; the API answers all the same.
    const templates = await call(stack, 'GET', '/v1/templates', { token: company.owner.token });
    expect(templates.status).toBe(200);
    expect(failures).toEqual([]);

    await vi.waitFor(() => expect(failures.length).toBeGreaterThan(0), { timeout: 15_000 });
    expect(failures[0]).toBeInstanceOf(DeadlineExceeded);
    const [envelope] = await stack.services.database.db
      .select()
      .from(envelopes)
      .where(eq(envelopes.id, sent.body.envelope_id as string));
    expect(envelope).toMatchObject({ status: 'completed', signedDocument: null, signedDocumentKey: null });
  });
});
