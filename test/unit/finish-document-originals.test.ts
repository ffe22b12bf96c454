/**
 * The finished PDF over each form an original comes in: saved with object streams (its last
 * cross-reference section a stream), with a classic table, with an incremental update of its own,
 * with a form to flatten. Each time the original is the file's first bytes, unchanged, and
 * outside readers that share no code with ours accept the whole: qpdf's check, poppler's seal
 * verification, rendering and text. An encrypted original is refused.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFArray, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishDocument } from '../../src/pdf/finish-document.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { createSelfSignedSeal, loadSealIdentity, type SealIdentity } from '../../src/pdf/seal-identity.js';
import { COMPLETED, finishInput } from '../support/finish-input.js';
import { finishFile, revisionEnds } from '../support/finished-file.js';
import { installed } from '../support/outside-tools.js';

const run = promisify(execFile);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
const dir = mkdtempSync(join(tmpdir(), 'originals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tools = installed('qpdf', 'pdfsig', 'pdftotext', 'pdftoppm', 'pdfinfo');

const withObjectStreams = () => generateDocument('Lease', 2, nodeFontSource());
const withTable = async () => (await PDFDocument.load(await withObjectStreams())).save({ useObjectStreams: false });

/** A classic original with one more revision written by hand, as another tool would: a new Info dictionary. */
async function withOwnUpdate(): Promise<Uint8Array> {
  const base = await withTable();
  const text = latin1(base);
  const trailer = text.slice(text.lastIndexOf('trailer'));
  const prev = /startxref\s+(\d+)/.exec(trailer)![1];
  const size = Number(/\/Size (\d+)/.exec(trailer)![1]);
  const root = /\/Root (\d+ \d+ R)/.exec(trailer)![1];
  const object = `${size} 0 obj\n<< /Title (Revised before sending) /Producer (A hand-made update) >>\nendobj\n`;
  const objectAt = base.length + 1;
  const xrefAt = objectAt + object.length;
  const update =
    `\n${object}xref\n${size} 1\n${String(objectAt).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size + 1} /Root ${root} /Info ${size} 0 R /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array([...base, ...Buffer.from(update, 'latin1')]);
}

/** An original with an interactive form, which the finished copy flattens. */
async function withForm(): Promise<Uint8Array> {
  const made = await PDFDocument.load(await withObjectStreams());
  const field = made.getForm().createTextField('company');
  field.setText('Form Value Inc');
  field.addToPage(made.getPage(1), { x: 72, y: 600, width: 200, height: 24 });
  return made.save();
}

const originals: [string, () => Promise<Uint8Array>, { revisions: number; streams: boolean }][] = [
  ['saved with object streams (an xref stream)', withObjectStreams, { revisions: 1, streams: true }],
  ['saved with a classic xref table', withTable, { revisions: 1, streams: false }],
  ['with an incremental update of its own', withOwnUpdate, { revisions: 2, streams: false }],
  ['with a form to flatten', withForm, { revisions: 1, streams: true }],
];

let seal: SealIdentity;
beforeAll(async () => {
  seal = await loadSealIdentity(await createSelfSignedSeal('E-Signing API originals seal', COMPLETED));
}, 60_000);

async function finished(original: Uint8Array) {
  return finishFile(
    await finishInput('Lease', 2, {
      original,
      originalSha256: sha256(original),
      seal,
      fields: [
        { type: 'text', page: 1, x: 72, y: 200, width: 300, height: 22, value: 'Zebra Quartz' },
        { type: 'signature', page: 2, x: 72, y: 300, width: 220, height: 50, value: 'Ann Signer' },
      ],
    }),
  );
}

describe.each(originals)('the finished PDF of an original %s', (name, make, form) => {
  it('begins with the original byte for byte, then the values, the certificate and the seal as revisions of their own', async () => {
    const original = await make();
    const file = await finished(original);
    expect(Buffer.from(file.bytes.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
    expect(file.size).toBe(file.bytes.length);
    expect(file.sha256).toBe(sha256(file.bytes));
    const ends = revisionEnds(file.bytes);
    expect(ends).toHaveLength(form.revisions + 3);
    expect(sha256(file.bytes.subarray(0, ends[form.revisions]))).toBe(file.signedContentSha256);
    // Each update's cross-reference section is of the kind the original ends with.
    const appended = latin1(file.appended);
    expect(appended.includes('/Type /XRef')).toBe(form.streams);
    expect(/\nxref\n/.test(appended)).toBe(!form.streams);
    if (name.includes('form')) {
      // The form was flattened: the only field left is the seal's.
      const reread = await PDFDocument.load(file.bytes);
      const fields = reread.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray);
      expect(fields.asArray().map((ref) => reread.context.lookup(ref, PDFDict).get(PDFName.of('FT'))?.toString())).toEqual(['/Sig']);
    }
  });

  it.skipIf(!tools)(
    'passes qpdf --check, verifies with pdfsig, renders every page and shows the values, the certificate and how to check the original',
    async () => {
      const original = await make();
      const file = await finished(original);
      const path = join(dir, `${name.replace(/\W+/g, '-')}.pdf`);
      writeFileSync(path, file.bytes);

      const check = await run('qpdf', ['--check', path]);
      expect(check.stdout).toContain('No syntax or stream encoding errors found');
      expect(check.stderr).not.toMatch(/WARNING/i);

      const sig = await run('pdfsig', ['-nocert', path]).catch((err: { stdout: string }) => err);
      expect(sig.stdout).toContain('Signature Validation: Signature is Valid.');
      expect(sig.stdout).toContain('Total document signed');

      const pages = Number(/Pages:\s+(\d+)/.exec((await run('pdfinfo', [path])).stdout)![1]);
      expect(pages).toBeGreaterThan(2);
      const rendered = await run('pdftoppm', ['-r', '12', '-png', path, join(dir, `${name.replace(/\W+/g, '-')}-page`)]);
      expect(rendered.stderr).toBe('');
      expect(readdirSync(dir).filter((f) => f.startsWith(`${name.replace(/\W+/g, '-')}-page`))).toHaveLength(pages);

      const text = (await run('pdftotext', ['-layout', path, '-'])).stdout;
      expect(text).toContain('Zebra Quartz');
      expect(text).toContain('Ann Signer');
      expect(text).toContain('Certificate of completion');
      if (name.includes('form')) expect(text).toContain('Form Value Inc');
      const certificate = text.replace(/\s+/g, ' ');
      expect(certificate).toContain(`its first ${original.length} bytes are the original`);
      expect(certificate).toContain(sha256(original));
      expect(certificate).toContain(`head -c ${original.length} file.pdf | sha256sum`);
    },
  );

  it.skipIf(!tools)('draws a value on page 1 where it was drawn before the original was kept whole', async () => {
    const path = join(dir, `${name.replace(/\W+/g, '-')}-bbox.pdf`);
    writeFileSync(path, (await finished(await make())).bytes);
    const { stdout } = await run('pdftotext', ['-bbox', '-f', '1', '-l', '1', path, '-']);
    // Measured on the finished copy that rewrote the whole original: the same field, the same place.
    expect(stdout).toContain('<word xMin="74.000000" yMin="202.828000" xMax="106.460000" yMax="219.172000">Zebra</word>');
  });
});

describe.skipIf(!installed('qpdf'))('an encrypted original', () => {
  it('is refused, as before', async () => {
    const plain = join(dir, 'plain.pdf');
    const locked = join(dir, 'locked.pdf');
    writeFileSync(plain, await withTable());
    await run('qpdf', ['--encrypt', '', 'owner-secret', '256', '--', plain, locked]);
    const original = new Uint8Array(readFileSync(locked));
    await expect(finishDocument(await finishInput('Lease', 2, { original, originalSha256: sha256(original) }))).rejects.toThrow(/encrypt/i);
  });
});

describe('an original that is not the one named', () => {
  it('is refused: the certificate would print a hash of other bytes', async () => {
    const original = await withTable();
    await expect(finishDocument(await finishInput('Lease', 2, { original, originalSha256: '0'.repeat(64) }))).rejects.toThrow(/SHA-256/);
  });
});

// The production path hands the work a way to read the original, so that only the finish holds
// its bytes, and only while pdf-lib parses them: what it makes is the same as from bytes in hand.
describe('an original given as how to read it', () => {
  it('is read once, and finishes to the same bytes as the original in hand', async () => {
    const given = await finishInput('Lease', 2, { original: await withTable() });
    given.originalSha256 = sha256(given.original);
    let reads = 0;
    const fromBytes = await finishDocument(given);
    const fromReader = await finishDocument({
      ...given,
      original: async () => {
        reads++;
        return given.original;
      },
    });
    expect(reads).toBe(1);
    expect(fromReader).toEqual(fromBytes);
  });

  it('is refused when what it reads is not the original named', async () => {
    const given = await finishInput('Lease', 2);
    await expect(finishDocument({ ...given, original: async () => withTable() })).rejects.toThrow(/SHA-256/);
  });
});
