/**
 * A drawn signature through the signing page, on the real domain: a PNG that would hang the PDF
 * work is refused with the page's error and nothing is stored; the size bound holds exactly; what
 * is kept is the service's own PNG, and the finished PDF shows it as an image.
 */
import { and, eq } from 'drizzle-orm';
import { deflateSync } from 'node:zlib';
import { decode } from 'fast-png';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, envelopeFields, envelopes, outboxMessages, recipients } from '../../src/data/schema.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import { MAX_DRAWN_SIGNATURE_CHARS } from '../../src/domain/signing/signing-state.js';
import { createTestCompany, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { imagesOnPage } from '../support/pdf-images.js';
import { canvasRows, encodePng, HOSTILE_PNG, ihdr, pngChunk, pngFile } from '../support/png.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { bySigner } from '../support/signer-verbs.js';
import { storedBytes } from '../support/stored-documents.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 100 });
});
afterAll(() => stack.close());

const sentEnvelope = () => sendTestEnvelope(stack, company);

async function page(token: string) {
  const response = await stack.app.request(`/sign/${token}`);
  return response.text();
}

/** The page's own form, consent given, with `drawn` in the signature field. */
async function signWith(token: string, drawn: string) {
  const shown = await page(token);
  const fields: Record<string, string> = { consent: 'yes', form_token: /name="form_token" value="([^"]+)"/.exec(shown)![1]! };
  for (const [, name] of shown.matchAll(/name="(field\.[^"]+)"/g)) fields[name!] = drawn;
  const response = await stack.app.request(`/sign/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, text: await response.text() };
}

/** What a signature leaves: the signer's status, the stored value, their audit rows and the envelope's outbox. */
async function traces(envelopeId: string, recipientId: string) {
  const { db } = stack.services.database;
  const [[person], fields, audit, outbox] = await Promise.all([
    db.select().from(recipients).where(eq(recipients.id, recipientId)),
    db
      .select()
      .from(envelopeFields)
      .where(and(eq(envelopeFields.envelopeId, envelopeId), eq(envelopeFields.recipientId, recipientId))),
    db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, envelopeId), eq(auditEvents.actorId, recipientId))),
    db.select().from(outboxMessages).where(eq(outboxMessages.companyId, company.id)),
  ]);
  return { status: person!.status, values: fields.map((field) => field.value), audit: audit.map((row) => row.kind).sort(), outbox: outbox.length };
}

/**
 * A canvas PNG made exactly `bytes` long by a private ancillary chunk, as a data URL without
 * padding (which base64 allows): that is how a data URL of any length, the bound included, is made.
 */
function drawnOfBytes(bytes: number): string {
  const header = ihdr({ width: 300, height: 100 });
  const data = pngChunk('IDAT', deflateSync(canvasRows(300, 100)));
  const filler = bytes - pngFile(header, data).length - 12;
  const png = pngFile(header, pngChunk('prVt', Buffer.alloc(filler, 0x5a)), data);
  expect(png.length).toBe(bytes);
  return `data:image/png;base64,${png.toString('base64').replace(/=+$/, '')}`;
}

describe('a drawn signature posted to the signing page', () => {
  it('refuses a PNG whose data is not zlib with the page and 422, and stores nothing', async () => {
    const { envelopeId, links } = await sentEnvelope();
    const client = links[0]!;
    await page(client.token);
    const before = await traces(envelopeId, client.recipientId);
    const answer = await signWith(client.token, HOSTILE_PNG);
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('is not an image we can keep; draw it again.');
    expect(await traces(envelopeId, client.recipientId)).toEqual(before);
    expect(before).toMatchObject({ status: 'viewed', values: [null] });
  });

  it('refuses a PNG cut short after its header the same way', async () => {
    const { envelopeId, links } = await sentEnvelope();
    const client = links[0]!;
    await page(client.token);
    const before = await traces(envelopeId, client.recipientId);
    const cut = encodePng(canvasRows(300, 100), 300, 100).subarray(0, 33);
    const answer = await signWith(client.token, `data:image/png;base64,${cut.toString('base64')}`);
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('is not an image we can keep; draw it again.');
    expect(await traces(envelopeId, client.recipientId)).toEqual(before);
  });

  it(`takes a drawing of exactly ${MAX_DRAWN_SIGNATURE_CHARS} characters, keeping the service's own PNG of it, and refuses one more`, async () => {
    const { envelopeId, links } = await sentEnvelope();
    const [client, witness] = links;
    const atBound = drawnOfBytes(((MAX_DRAWN_SIGNATURE_CHARS - 'data:image/png;base64,'.length) * 3) >> 2);
    expect(atBound).toHaveLength(MAX_DRAWN_SIGNATURE_CHARS);
    const past = drawnOfBytes((((MAX_DRAWN_SIGNATURE_CHARS - 'data:image/png;base64,'.length) * 3) >> 2) + 1);
    expect(past).toHaveLength(MAX_DRAWN_SIGNATURE_CHARS + 1);

    await page(witness!.token);
    const before = await traces(envelopeId, witness!.recipientId);
    const refused = await signWith(witness!.token, past);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('The drawing is too large.');
    // The domain holds the same bound on its own, whatever the form let through.
    const fieldId = /name="field\.([^"]+)"/.exec(await page(witness!.token))![1]!;
    const who = { ip: '198.51.100.7', userAgent: null };
    await expect(
      bySigner(stack.services, who, signAsRecipient, { token: witness!.token, submission: { consent: true, values: { [fieldId]: past } } }),
    ).rejects.toMatchObject({
      problems: [{ field: fieldId, code: 'drawn_too_large' }],
    });
    expect(await traces(envelopeId, witness!.recipientId)).toEqual(before);

    expect((await signWith(client!.token, atBound)).status).toBe(303);
    const { status, values } = await traces(envelopeId, client!.recipientId);
    expect(status).toBe('signed');
    const stored = values[0]!;
    // The pixels, without the filler chunk the pad's file carried.
    expect(stored).toMatch(/^data:image\/png;base64,/);
    expect(stored.length).toBeLessThan(2_000);
    const image = decode(Buffer.from(stored.split(',')[1]!, 'base64'));
    expect({ width: image.width, height: image.height, channels: image.channels }).toEqual({ width: 300, height: 100, channels: 4 });
  });

  it('shows a normal drawn signature as an image in the finished PDF', async () => {
    const { envelopeId, links } = await sentEnvelope();
    const drawn = `data:image/png;base64,${encodePng(canvasRows(600, 200), 600, 200).toString('base64')}`;
    for (const link of links) expect((await signWith(link.token, drawn)).status).toBe(303);
    const { db } = stack.services.database;
    const finished = await vi.waitFor(
      async () => {
        const [envelope] = await db.select().from(envelopes).where(eq(envelopes.id, envelopeId));
        if (!envelope?.signedDocumentKey) throw new Error('no finished PDF yet');
        return storedBytes(stack.services.documents, envelope.signedDocumentKey);
      },
      { timeout: 15_000 },
    );
    // Both signers drew the same picture: the file holds it once, on the page of the signature boxes.
    expect(await imagesOnPage(finished, 2)).toEqual([{ width: 600, height: 200 }]);
  });
});
