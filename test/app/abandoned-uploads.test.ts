/**
 * A PDF uploaded in the builder and never saved is removed by housekeeping once a day has passed,
 * from the document store and from the pending uploads; an upload a template was saved from, one
 * whose bytes a template shares, and one not yet a day old stay. The clock starts far in the past,
 * so that the sweeps here only ever reach this file's uploads.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingUploads } from '../../src/data/schema.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { ABANDONED_AFTER_MS } from '../../src/domain/templates/abandoned-uploads.js';
import { importTemplate, storeTemplateDocument } from '../../src/domain/templates/import-template.js';
import { housekeeping } from '../../src/outbox/housekeeping.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { appClient, formTokenIn, freshEmail, signIn } from '../support/app-client.js';
import { asOperator, createTestCompany, ndaDefinition, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';

const START = new Date('2001-03-01T08:00:00.000Z');
const HOUR = 3600 * 1000;

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  stack.clock.set(START);
  company = await createTestCompany(stack);
});
afterAll(() => stack.close());

/** A PDF of its own: bytes no other test stores. */
const freshPdf = () => generateDocument(`Upload ${unique()}`, 2, nodeFontSource());

/** Stores a PDF as the builder's upload does, at the clock's time. */
const uploaded = async (bytes: Uint8Array) => storeTemplateDocument(asOperator(stack, company.id), { fileName: 'upload.pdf', bytes });

const inStore = async (key: string) => (await stack.services.documents.get(key)) !== null;
const pendingRows = (keys: string[]) => stack.services.database.db.select().from(pendingUploads).where(inArray(pendingUploads.storageKey, keys));

/** Housekeeping, run when the clock says `at`. */
async function sweepAt(at: Date) {
  stack.clock.set(at);
  await housekeeping(stack.services);
}

describe('an upload no template is saved from', () => {
  it('is recorded as pending when the builder’s upload stores it', async () => {
    const email = freshEmail('builder');
    await putUser(asOperator(stack, company.id), { email, input: { name: 'Bea Builder', role: 'member', active: true, esign_seat: true } });
    const client = appClient(stack);
    expect((await signIn(stack, client, email)).status).toBe(303);
    const page = await client.get('/app/templates/new');
    const form = new FormData();
    form.append('form_token', formTokenIn(page.body));
    form.append('document', new Blob([new Uint8Array(await freshPdf())], { type: 'application/pdf' }), 'lease.pdf');
    const cookie = [...client.jar].map(([key, value]) => `${key}=${value}`).join('; ');
    const answer = await call<string>(stack, 'POST', '/app/templates/new', {
      rawBody: form,
      headers: { cookie, origin: new URL(BASE_URL).origin, 'sec-fetch-site': 'same-origin' },
    });
    expect(answer.status).toBe(200);
    const key = /name="document_key" value="([^"]+)"/.exec(answer.body)?.[1];
    expect(key).toBeDefined();
    expect(await pendingRows([key!])).toEqual([expect.objectContaining({ companyId: company.id, claimedAt: null, createdAt: stack.clock.now() })]);

    // A day and a moment later, nobody having saved: gone from the store and from the pending rows.
    await sweepAt(new Date(stack.clock.now().getTime() + ABANDONED_AFTER_MS + 1));
    expect(await inStore(key!)).toBe(false);
    expect(await pendingRows([key!])).toEqual([]);
  });

  it('stays until it is more than a day old: at 23 hours and at exactly 24 it is kept, a millisecond past it is removed', async () => {
    const at = new Date(START.getTime() + 10 * 24 * HOUR);
    stack.clock.set(at);
    const { key } = await uploaded(await freshPdf());
    await sweepAt(new Date(at.getTime() + 23 * HOUR));
    expect(await inStore(key)).toBe(true);
    await sweepAt(new Date(at.getTime() + ABANDONED_AFTER_MS));
    expect(await inStore(key)).toBe(true);
    expect(await pendingRows([key])).toHaveLength(1);
    await sweepAt(new Date(at.getTime() + ABANDONED_AFTER_MS + 1));
    expect(await inStore(key)).toBe(false);
    expect(await pendingRows([key])).toEqual([]);
  });

  it('keeps an upload a template was saved from, and bytes a template or a younger upload shares', async () => {
    const at = new Date(START.getTime() + 20 * 24 * HOUR);
    stack.clock.set(at);
    const ctx = asOperator(stack, company.id);

    // Claimed: a template is saved from it.
    const claimedBytes = await freshPdf();
    const claimed = await uploaded(claimedBytes);
    await importTemplate(ctx, { definition: ndaDefinition(), document: { fileName: 'nda.pdf', stored: claimed } });
    expect(await pendingRows([claimed.key])).toEqual([expect.objectContaining({ claimedAt: at })]);

    // Shared: the same bytes uploaded again and left; the template still names them.
    const shared = await uploaded(claimedBytes);
    expect(shared.key).toBe(claimed.key);

    // Two uploads of other bytes, the first left a day, the second only an hour when the sweep runs.
    const twiceBytes = await freshPdf();
    const older = await uploaded(twiceBytes);
    stack.clock.set(new Date(at.getTime() + 24 * HOUR));
    const younger = await uploaded(twiceBytes);

    await sweepAt(new Date(at.getTime() + 25 * HOUR));
    expect(await inStore(claimed.key)).toBe(true);
    expect(await inStore(older.key)).toBe(true);
    // The rows of the claimed upload and the shared one are done with; the younger upload still waits.
    const left = await pendingRows([claimed.key, older.key]);
    expect(left.map((row) => [row.storageKey, row.createdAt])).toEqual([[younger.key, new Date(at.getTime() + 24 * HOUR)]]);

    // The template's document still reads whole; once the younger upload is a day old too, its bytes go.
    expect((await stack.services.documents.get(claimed.key))?.size).toBe(claimedBytes.byteLength);
    await sweepAt(new Date(at.getTime() + 49 * HOUR));
    expect(await inStore(older.key)).toBe(false);
    expect(await inStore(claimed.key)).toBe(true);
    expect(await stack.services.database.db.select().from(pendingUploads).where(eq(pendingUploads.companyId, company.id))).toEqual([]);
  });
});
