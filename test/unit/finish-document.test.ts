/**
 * The finished, signed PDF: values drawn at their fields, the certificate appended as an
 * incremental update after them and the original, metadata, determinism, and input that must never break drawing. What the
 * pages show is read back with poppler (pdftotext, pdfinfo), an independent PDF reader.
 *
 * One file although long: one function's output, checked part by part on documents it shares.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { type CertificateRecipient, type FinishedField, finishDocument } from '../../src/pdf/finish-document.js';
import type { FinishInputWithBytes } from '../support/finish-input.js';
import { finishFile, revisionEnds } from '../support/finished-file.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { readPageSizes } from '../../src/pdf/inspect-document.js';
import { drawableText } from '../../src/pdf/drawable-text.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { encodePng } from '../support/png.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A real RGBA PNG, built by hand: signature, IHDR, one zlib IDAT of unfiltered rows, IEND. */
function png(width: number, height: number, declared = { width, height }): Uint8Array {
  const rows = Buffer.alloc(height * (1 + width * 4));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // A dark diagonal stroke on transparent ground, like ink on a signature pad.
      if (Math.abs(x - (y * width) / height) < 2) rows.set([10, 20, 90, 255], y * (1 + width * 4) + 1 + x * 4);
    }
  }
  return new Uint8Array(encodePng(rows, width, height, declared));
}
const dataUrl = (bytes: Uint8Array) => `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;

const at = (iso: string) => new Date(iso);
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const RECIPIENTS: CertificateRecipient[] = [
  {
    name: 'Ann Signer',
    email: 'ann@example.test',
    role: 'Buyer',
    kind: 'signer',
    events: [
      { what: 'Sent', at: at('2026-11-02T09:00:00.000Z'), ip: null, userAgent: null },
      { what: 'Viewed', at: at('2026-11-03T10:15:00.000Z'), ip: '203.0.113.7', userAgent: UA },
      { what: 'Consented (esign-consent-2026-11)', at: at('2026-11-03T10:16:00.000Z'), ip: '203.0.113.7', userAgent: UA },
      { what: 'Signed', at: at('2026-11-03T10:17:30.000Z'), ip: '203.0.113.7', userAgent: UA },
    ],
  },
  {
    name: 'Bob Copy',
    email: 'bob@example.test',
    role: 'Counsel',
    kind: 'cc',
    events: [
      { what: 'Sent', at: at('2026-11-03T10:17:31.000Z'), ip: null, userAgent: null },
      { what: 'Viewed', at: at('2026-11-04T08:00:00.000Z'), ip: '2001:db8::42', userAgent: 'curl/8.5.0' },
    ],
  },
];

async function input(overrides: Partial<FinishInputWithBytes> = {}): Promise<FinishInputWithBytes> {
  const original = overrides.original ?? (await generateDocument('Mutual NDA', 2, nodeFontSource()));
  const fields: FinishedField[] = [
    { type: 'text', page: 1, x: 72, y: 200, width: 420, height: 22, value: 'Hostile: <script>alert(1)</script> \u{1F600} nul\u0000here' },
    { type: 'name', page: 1, x: 72, y: 240, width: 200, height: 20, value: 'Ann Signer' },
    { type: 'email', page: 1, x: 300, y: 240, width: 200, height: 20, value: 'ann@example.test' },
    { type: 'checkbox', page: 1, x: 72, y: 280, width: 14, height: 14, value: 'true' },
    { type: 'checkbox', page: 1, x: 100, y: 280, width: 14, height: 14, value: 'false' },
    { type: 'text', page: 1, x: 72, y: 320, width: 200, height: 20, value: null },
    { type: 'signature', page: 2, x: 72, y: 300, width: 220, height: 40, value: 'Ann Signer' },
    { type: 'signature', page: 2, x: 320, y: 300, width: 200, height: 60, value: dataUrl(png(60, 20)) },
    { type: 'initials', page: 2, x: 72, y: 380, width: 60, height: 30, value: 'AS' },
    { type: 'date_signed', page: 2, x: 72, y: 430, width: 120, height: 20, value: '2026-11-03' },
  ];
  const base: FinishInputWithBytes = {
    original,
    envelopeId: 'env_01JBCDEFGHJKMNPQRSTVWXYZ12',
    title: 'Mutual NDA',
    senderEmail: 'sender@example.test',
    senderName: 'Acme Ltd',
    fields,
    recipients: RECIPIENTS,
    consentVersion: 'esign-consent-2026-11',
    consentText: 'I agree to use electronic records and signatures.\n\nI may ask for a paper copy at any time.',
    originalSha256: sha256(original),
    completedAt: at('2026-11-04T08:00:00.000Z'),
    fonts: nodeFontSource(),
  };
  return { ...base, ...overrides };
}

const poppler = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    execFileSync('pdfinfo', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!poppler) console.warn('finish-document.test: poppler-utils (pdftotext, pdfinfo) is not installed; the tests that read pages back are SKIPPED.');

const dir = mkdtempSync(join(tmpdir(), 'finish-document-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function file(bytes: Uint8Array): string {
  const path = join(dir, `${files++}.pdf`);
  writeFileSync(path, bytes);
  return path;
}
const text = (bytes: Uint8Array, first: number, last?: number) =>
  execFileSync('pdftotext', ['-f', String(first), '-l', String(last ?? first), file(bytes), '-'], { encoding: 'utf8' });
function info(bytes: Uint8Array): Record<string, string> {
  const out = execFileSync('pdfinfo', ['-isodates', file(bytes)], { encoding: 'utf8' });
  return Object.fromEntries(
    out
      .split('\n')
      .filter((l) => l.includes(':'))
      .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
  );
}

describe.skipIf(!poppler)('finishDocument, read back with poppler', () => {
  it('draws the values on their pages and appends a certificate with the recipients, their events, the consent and both hashes', async () => {
    const given = await input();
    const finished = await finishFile(given);
    const pages = Number(info(finished.bytes).Pages);
    expect(pages).toBeGreaterThan(2);

    const page1 = text(finished.bytes, 1);
    // Markup is drawn as the characters it is made of; the emoji (no font has it) shows the
    // replacement glyph but copies as itself, and the NUL becomes U+FFFD.
    expect(page1).toContain('Hostile: <script>alert(1)</script> \u{1F600} nul\ufffdhere');
    expect(page1).toContain('ann@example.test');
    const page2 = text(finished.bytes, 2);
    expect(page2).toContain('Ann Signer');
    expect(page2).toContain('AS');
    expect(page2).toContain('2026-11-03');

    const certificate = text(finished.bytes, 3, pages);
    for (const expected of [
      'Certificate of completion',
      given.envelopeId,
      'Mutual NDA',
      'Sent by',
      'Acme Ltd',
      'sender@example.test',
      '2026-11-04T08:00:00Z',
      'Ann Signer',
      'ann@example.test',
      'Buyer',
      'Bob Copy',
      'bob@example.test',
      'Counsel',
      'cc (receives a copy)',
      '203.0.113.7',
      '2001:db8::42',
      'curl/8.5.0',
      '2026-11-03T10:17:30Z',
      'Consented (esign-consent-2026-11)',
      'esign-consent-2026-11',
      'I may ask for a paper copy at any time.',
      given.originalSha256,
      finished.signedContentSha256,
      `Page 1 of ${pages - 2}`,
    ]) {
      expect(certificate).toContain(expected);
    }
    expect(certificate).not.toContain('Sealed by');
  });

  it('keeps the signed content as a prefix of the file: its first N bytes, as the certificate says, hash to signedContentSha256', async () => {
    const finished = await finishFile(await input());
    const certificate = text(finished.bytes, 3, Number(info(finished.bytes).Pages)).replace(/\s+/g, ' ');
    const length = Number(/the first (\d+) bytes of this file/.exec(certificate)?.[1]);
    expect(length).toBeGreaterThan(0);
    const prefix = finished.bytes.subarray(0, length);
    expect(sha256(prefix)).toBe(finished.signedContentSha256);
    // The prefix is a complete PDF of its own: the two signed pages, with the values, without the certificate.
    expect(info(prefix).Pages).toBe('2');
    expect(text(prefix, 2)).toContain('Ann Signer');
    expect(finished.sha256).toBe(sha256(finished.bytes));
    expect(finished.signedContentSha256).not.toBe(finished.sha256);
  });

  it('sets the metadata: title, subject, author, creator, producer, keywords with the envelope id, dates at completion', async () => {
    const given = await input();
    const meta = info((await finishFile(given)).bytes);
    expect(meta).toMatchObject({
      Title: 'Mutual NDA',
      Subject: 'Signed: Mutual NDA',
      Author: 'sender@example.test',
      Creator: 'E-Signing API',
      Producer: 'E-Signing API',
      CreationDate: '2026-11-04T08:00:00Z',
      ModDate: '2026-11-04T08:00:00Z',
    });
    expect(meta.Keywords).toContain(given.envelopeId);
  });

  it('prints the sealing lines when given', async () => {
    const finished = await finishFile(await input({ sealedBy: ['Sealed by E-Signing API document seal', 'Certificate serial 0A:1B:2C'] }));
    const certificate = text(finished.bytes, 3, Number(info(finished.bytes).Pages));
    expect(certificate).toContain('Sealed by');
    expect(certificate).toContain('Certificate serial 0A:1B:2C');
  });

  it('wraps the certificate of a 50-page document with many recipients and events onto several numbered pages', async () => {
    const original = await generateDocument('Master services agreement', 50, nodeFontSource());
    const recipients: CertificateRecipient[] = Array.from({ length: 14 }, (_, i) => ({
      name: `Recipient Number${i}`,
      email: `recipient${i}@example.test`,
      role: i % 3 ? 'Approver' : 'Witness',
      kind: i % 4 ? 'signer' : 'cc',
      events: Array.from({ length: 6 }, (_, e) => ({
        what:
          e === 5 && i === 13
            ? `Declined: ${'the terms are not what we agreed '.repeat(12)}`
            : ['Sent', 'Viewed', 'Consented (esign-consent-2026-11)', 'Signed', 'Viewed', 'Viewed'][e]!,
        at: new Date(Date.UTC(2026, 10, 1 + e, 9, i)),
        ip: e === 0 ? null : `198.51.100.${i}`,
        userAgent: e === 0 ? null : `${UA} ${'Extension/1.0 '.repeat(e * 20)}`,
      })),
    }));
    const finished = await finishFile(await input({ original, originalSha256: sha256(original), recipients, fields: [] }));
    const pages = Number(info(finished.bytes).Pages);
    const certificatePages = pages - 50;
    expect(certificatePages).toBeGreaterThanOrEqual(3);
    const certificate = text(finished.bytes, 51, pages);
    for (const r of recipients) {
      expect(certificate).toContain(r.name);
      expect(certificate).toContain(r.email);
    }
    for (let n = 1; n <= certificatePages; n++) expect(text(finished.bytes, 50 + n)).toContain(`Page ${n} of ${certificatePages}`);
    expect(certificate).toContain('Certificate of completion (continued)');
    // A user agent is cut after three lines, with an ellipsis.
    expect(certificate).toContain('\u2026');
    expect(await readPageSizes(finished.bytes)).toHaveLength(pages);
  });

  it('draws "[signature image unreadable]" for a drawn signature that is not a PNG it can decode', async () => {
    const truncated = png(40, 10).subarray(0, 60);
    const huge = png(4, 4, { width: 100_000, height: 100_000 });
    const corrupted = png(40, 10);
    corrupted[50] = corrupted[50]! ^ 0xff; // inside IDAT: its CRC no longer matches
    const values = [
      'data:image/png;base64,!!!not base64!!!',
      `data:image/png;base64,${btoa('GIF89a, not a PNG at all')}`,
      dataUrl(truncated),
      dataUrl(huge),
      dataUrl(corrupted),
      'data:image/png;base64,',
    ];
    const fields: FinishedField[] = values.map((value, i) => ({ type: 'signature', page: 1, x: 72, y: 100 + i * 60, width: 250, height: 40, value }));
    const finished = await finishFile(await input({ fields }));
    const page1 = text(finished.bytes, 1);
    expect(page1.split('[signature image unreadable]')).toHaveLength(values.length + 1);
  });

  it('flattens the form of an original that has one: the value stays on the page, the fields are gone', async () => {
    const made = await PDFDocument.create();
    const page = made.addPage([612, 792]);
    const field = made.getForm().createTextField('company');
    field.setText('Form Value Inc');
    field.addToPage(page, { x: 72, y: 600, width: 200, height: 24 });
    const original = await made.save();
    const finished = await finishFile(await input({ original, originalSha256: sha256(original), fields: [] }));
    expect(text(finished.bytes, 1)).toContain('Form Value Inc');
    const reread = await PDFDocument.load(finished.bytes);
    expect(reread.catalog.has(PDFName.of('AcroForm'))).toBe(false);
    expect(reread.getPage(0).node.Annots()?.size() ?? 0).toBe(0);
  });
});

describe('finishDocument', () => {
  it('returns the same bytes, and so the same hashes, for the same input', async () => {
    const [first, second] = [await finishFile(await input()), await finishFile(await input())];
    expect(first.sha256).toBe(second.sha256);
    expect(first.signedContentSha256).toBe(second.signedContentSha256);
    expect(Buffer.from(first.bytes).equals(Buffer.from(second.bytes))).toBe(true);
    const later = await finishFile(await input({ completedAt: at('2026-11-05T00:00:00.000Z') }));
    expect(later.sha256).not.toBe(first.sha256);
    expect(first.sha256).toBe(sha256(first.bytes));
  });

  it('appends the certificate without rewriting anything of the signed content but the page tree', async () => {
    // An original ending in a classic cross-reference table, which the updates extend with tables of their own.
    const generated = await generateDocument('Mutual NDA', 2, nodeFontSource());
    const original = await (await PDFDocument.load(generated)).save({ useObjectStreams: false });
    const finished = await finishFile(await input({ original, originalSha256: sha256(original) }));
    // The original's revision, then the values', then the certificate's: the signed content ends with the second.
    const end = revisionEnds(finished.bytes)[1]!;
    expect(sha256(finished.bytes.subarray(0, end))).toBe(finished.signedContentSha256);
    const [before, after] = [await PDFDocument.load(finished.bytes.subarray(0, end)), await PDFDocument.load(finished.bytes)];
    for (const [ref, object] of before.context.enumerateIndirectObjects()) {
      if (object.toString().includes('/Type /Pages')) continue;
      expect(after.context.lookup(ref)?.toString(), `object ${ref}`).toBe(object.toString());
    }
    expect(after.getPageCount()).toBeGreaterThan(before.getPageCount());

    // The update's cross-reference section: every entry points at its object, and its trailer at the base's section.
    const latin1 = Buffer.from(finished.bytes).toString('latin1');
    const update = latin1.slice(end);
    const [, table, trailer] = /\nxref\n([\s\S]*?)trailer\n([\s\S]*?)\nstartxref\n(\d+)\n%%EOF$/.exec(update) ?? [];
    expect(table).toBeDefined();
    let entries = 0;
    for (const [, first, count, rows] of table!.matchAll(/(\d+) (\d+)\n((?:\d{10} \d{5} n \n)+)/g)) {
      expect(rows!.length / 20).toBe(Number(count));
      rows!.match(/[\s\S]{20}/g)!.forEach((row, i) => {
        const offset = Number(row.slice(0, 10));
        expect(latin1.startsWith(`${Number(first) + i} ${Number(row.slice(11, 16))} obj\n`, offset)).toBe(true);
        entries++;
      });
    }
    expect(entries).toBeGreaterThan(3);
    const baseXref = Number(/startxref\n(\d+)\n%%EOF$/.exec(latin1.slice(0, end))![1]);
    expect(trailer).toContain(`/Prev ${baseXref}`);
    expect(latin1.startsWith('xref\n', baseXref)).toBe(true);
    expect(latin1.startsWith('xref\n', Number(/startxref\n(\d+)\n%%EOF$/.exec(latin1)![1]))).toBe(true);
  });

  it('never throws on what signers enter: markup, controls, right-to-left, emoji, lone surrogates, huge text, tiny boxes', async () => {
    const nasty = [
      '<img src=x onerror=alert(1)>',
      '\u0000\u0001\u0007\u001b[31m\u007f',
      '\u202Eevil\u202C שלום مرحبا',
      '\u{1F4A9}\u{1F469}\u200D\u{1F469}\u200D\u{1F467}',
      '\uD800 lone \uDFFF',
      'x'.repeat(100_000),
      'line\nbreaks\tand\rreturns',
      '',
      '   ',
    ];
    const fields: FinishedField[] = nasty.flatMap((value, i) => [
      { type: 'text', page: 1, x: 10, y: 10 + i * 30, width: 300, height: 20, value },
      { type: 'signature', page: 2, x: 10, y: 10 + i * 30, width: 300, height: 25, value },
      { type: 'checkbox', page: 2, x: 400, y: 10 + i * 30, width: 10, height: 10, value },
      { type: 'text', page: 1, x: 400, y: 10 + i * 30, width: 1, height: 1, value },
    ]);
    const recipients = [
      {
        ...RECIPIENTS[0]!,
        name: nasty.join(' '),
        email: nasty[2]!,
        events: [{ what: nasty[4]!, at: new Date(Number.NaN), ip: nasty[1]!, userAgent: nasty[5]! }],
      },
    ];
    const finished = await finishFile(await input({ fields, recipients, title: nasty[3]!, consentText: nasty.join('\n') }));
    expect(await readPageSizes(finished.bytes)).not.toBeNull();
  });

  it('refuses a field placed on a page the document does not have', async () => {
    const fields: FinishedField[] = [{ type: 'text', page: 3, x: 10, y: 10, width: 100, height: 20, value: 'x' }];
    await expect(finishDocument(await input({ fields }))).rejects.toThrow(RangeError);
  });
});

describe('drawableText', () => {
  it('keeps every script, composes accents, turns breaks into spaces and other controls and lone surrogates into U+FFFD', () => {
    expect(drawableText('Zoë “quoted” – 5 € … © Łukasz Дмитрий 李雷 محمد')).toBe('Zoë “quoted” – 5 € … © Łukasz Дмитрий 李雷 محمد');
    expect(drawableText('Zoe\u0308')).toBe('Zoë');
    expect(drawableText('a\nb\tc\r\nd')).toBe('a b c  d');
    expect(drawableText('\u0000\u001b\u{1F600}\uD800x\uDFFF\u202Eשל')).toBe('\ufffd\ufffd\u{1F600}\ufffdx\ufffd\u202Eשל');
  });
});
