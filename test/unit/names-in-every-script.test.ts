/**
 * Names and titles in the world's most used scripts, in the finished, sealed PDF: poppler reads
 * them back as given (right-to-left ones in reading order), its fonts are embedded subsets with a
 * ToUnicode map, text stays inside its field, and the seal still verifies.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinishedField } from '../../src/pdf/finish-document.js';
import { finishFile as finishDocument } from '../support/finished-file.js';
import { createSelfSignedSeal, loadSealIdentity, type SealIdentity } from '../../src/pdf/seal-identity.js';
import { COMPLETED, finishInput } from '../support/finish-input.js';
import { installed } from '../support/outside-tools.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'names-in-every-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function file(bytes: Uint8Array): string {
  const path = join(dir, `${files++}.pdf`);
  writeFileSync(path, bytes);
  return path;
}
const tool = async (name: string, args: string[]) => (await run(name, args, { maxBuffer: 16 * 1024 * 1024 })).stdout;
// pdftotext marks right-to-left stretches with embedding controls; the text between them is what a reader copies.
const withoutBidiMarks = (text: string) => text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
const text = async (path: string, first: number, last = first) =>
  withoutBidiMarks(await tool('pdftotext', ['-f', String(first), '-l', String(last), path, '-']));
const pages = async (path: string) => Number(/^Pages:\s+(\d+)/m.exec(await tool('pdfinfo', [path]))![1]);
/** pdffonts' rows: name, and whether the font is embedded, a subset, and has a ToUnicode map. */
async function fonts(path: string) {
  return (await tool('pdffonts', [path]))
    .split('\n')
    .slice(2)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [emb, sub, uni] = line.trim().split(/\s+/).slice(-5, -2);
      return { name: line.split(/\s+/)[0]!, embedded: emb === 'yes', subset: sub === 'yes', unicode: uni === 'yes' };
    });
}

const SCRIPTS = [
  { language: 'Polish', name: 'Łukasz Żółć', title: 'Umowa najmu — Łódź', font: 'NotoSans-Regular' },
  { language: 'Czech', name: 'Jiří Dvořák', title: 'Smlouva o dílo č. 5', font: 'NotoSans-Regular' },
  { language: 'Russian', name: 'Дмитрий Иванов', title: 'Договор аренды', font: 'NotoSans-Regular' },
  { language: 'Greek', name: 'Γιώργος Παπαδόπουλος', title: 'Σύμβαση μίσθωσης', font: 'NotoSans-Regular' },
  { language: 'Chinese', name: '李雷', title: '租赁合同', font: 'NotoSansSC-Regular' },
  { language: 'Japanese', name: '山田 さくら', title: '賃貸借契約書', font: 'NotoSansJP-Regular' },
  { language: 'Korean', name: '김민준', title: '임대차 계약서', font: 'NotoSansKR-Regular' },
  { language: 'Arabic', name: 'محمد عبد الله', title: 'عقد إيجار', font: 'NotoSansArabic-Regular' },
  { language: 'Hebrew', name: 'דוד לוי', title: 'חוזה שכירות', font: 'NotoSansHebrew-Regular' },
  { language: 'Hindi', name: 'अनुष्का क्षत्रिय', title: 'किराया अनुबंध', font: 'NotoSansDevanagari-Regular' },
  { language: 'Thai', name: 'สมชาย ใจดี', title: 'สัญญาเช่า', font: 'NotoSansThai-Regular' },
  { language: 'Bengali', name: 'অনুষ্কা রায়', title: 'ভাড়া চুক্তি', font: 'NotoSansBengali-Regular' },
  // fontkit's mark positioning throws on this font: the name is shaped again without it, never lost.
  { language: 'Punjabi (Gurmukhi)', name: 'ਗੁਰਮੁਖੀ ਸਿੰਘ', title: 'ਕਿਰਾਏ ਦਾ ਇਕਰਾਰਨਾਮਾ', font: 'NotoSansGurmukhi-Regular' },
];

let seal: SealIdentity;
beforeAll(async () => {
  seal = await loadSealIdentity(await createSelfSignedSeal('E-Signing API test seal', COMPLETED));
}, 60_000);

async function finished(name: string, title: string, extra: FinishedField[] = []) {
  const fields: FinishedField[] = [
    { type: 'signature', page: 1, x: 72, y: 200, width: 260, height: 44, value: name },
    { type: 'initials', page: 1, x: 360, y: 200, width: 80, height: 30, value: [...name].slice(0, 2).join('') },
    { type: 'name', page: 1, x: 72, y: 280, width: 300, height: 20, value: name },
    ...extra,
  ];
  const recipients = [
    {
      name,
      email: 'signer@example.test',
      role: title,
      kind: 'signer' as const,
      events: [{ what: 'Signed', at: COMPLETED, ip: '203.0.113.7', userAgent: null }],
    },
    { name: `${title} ${name}`, email: 'copy@example.test', role: 'Copy', kind: 'cc' as const, events: [] },
  ];
  return finishDocument(await finishInput('Lease', 1, { title, fields, recipients, seal }));
}

describe.skipIf(!installed('pdftotext', 'pdfinfo', 'pdffonts', 'pdfsig'))('names and titles in every script, in the finished PDF', () => {
  it.each(SCRIPTS)('$language: drawn in its own embedded subset font, read back as given, sealed', async ({ name, title, font }) => {
    const done = await finished(name, title);
    const path = file(done.bytes);
    const count = await pages(path);

    // The fields, and the certificate naming the signer exactly as given, in their script.
    expect(await text(path, 1)).toContain(name);
    const certificate = await text(path, 2, count);
    expect(certificate).toContain(name);
    expect(certificate).toContain(`${title} ${name}`);
    expect(certificate).toContain(title);
    expect(certificate).toContain('Certificate of completion');
    expect(certificate).not.toContain('\ufffd');

    const used = await fonts(path);
    const ours = used.filter((f) => f.name.includes('+Noto'));
    expect(ours.map((f) => f.name.split('+')[1])).toContain(font);
    for (const f of ours) expect(f, f.name).toMatchObject({ embedded: true, subset: true, unicode: true });
    // Only the template's own page may use a font it does not embed: everything drawn here is embedded.
    expect(used.filter((f) => !f.embedded).every((f) => /^Helvetica/.test(f.name))).toBe(true);

    const report = await tool('pdfsig', ['-nocert', path]).catch((err: { stdout?: string }) => err.stdout ?? '');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
  });

  it('draws a line that mixes scripts with each run in its own font, in reading order', async () => {
    const name = 'Anna Łukasz محمد 李雷 שלום Дмитрий';
    const done = await finished(name, 'Contract — Договор — 合同');
    const path = file(done.bytes);
    const families = (await fonts(path)).map((f) => f.name.split('+')[1]);
    for (const family of ['NotoSans-Regular', 'NotoSansArabic-Regular', 'NotoSansSC-Regular', 'NotoSansHebrew-Regular']) expect(families).toContain(family);
    const all = await text(path, 1, await pages(path));
    for (const word of name.split(' ')) expect(all).toContain(word);
    expect(all).toContain('Contract — Договор — 合同');
  });

  it('shows what no font has as a replacement glyph, copied as the character itself, and makes the same bytes again', async () => {
    const name = 'Zoë \u{1F600} \u{10FFFD}';
    const [first, second] = [await finished(name, 'Emoji'), await finished(name, 'Emoji')];
    expect(second.sha256).toBe(first.sha256);
    expect(await text(file(first.bytes), 1)).toContain('Zoë \u{1F600}');
  });

  it('keeps text inside its field: a long value in any script shrinks and is cut to the box', async () => {
    const box = { page: 1, x: 72, y: 400, width: 150, height: 18 };
    const long = [
      { ...box, type: 'text' as const, value: 'محمد عبد الله بن عبد الرحمن '.repeat(6) },
      { ...box, type: 'text' as const, y: 440, value: 'अनुष्का क्षत्रिय '.repeat(8) },
      { ...box, type: 'text' as const, y: 480, value: 'Wolfeschlegelsteinhausenbergerdorff '.repeat(4) },
      { ...box, type: 'text' as const, y: 520, value: '李雷韩梅梅'.repeat(10) },
    ];
    const path = file((await finished('Ann', 'Fit', long)).bytes);
    const html = await tool('pdftotext', ['-f', '1', '-l', '1', '-bbox', path, '-']);
    const words = [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">/g)].map(
      (m) => m.slice(1).map(Number) as [number, number, number, number],
    );
    const inLong = words.filter(([, yMin]) => yMin >= 395 && yMin < 545);
    expect(inLong.length).toBeGreaterThan(4);
    for (const [xMin, , xMax] of inLong) {
      expect(xMin).toBeGreaterThanOrEqual(box.x - 0.5);
      expect(xMax).toBeLessThanOrEqual(box.x + box.width + 0.5);
    }
  });
});
