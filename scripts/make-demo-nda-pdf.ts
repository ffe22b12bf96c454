/**
 * Makes seed/mutual-nda.pdf, the document of the demo seed's "Mutual NDA" template: a two-page
 * mutual non-disclosure agreement, its clauses on page 1 and the top of page 2, the signature
 * block below them, and a line with a caption under each of the template's fields, drawn where
 * seed/demo.json places it. Run it again after moving a field: `npx tsx scripts/make-demo-nda-pdf.ts`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type PDFFont, type PDFPage, PDFDocument, rgb, StandardFonts } from 'pdf-lib';

type Field = { role: string; type: string; label?: string | null; page: number; x: number; y: number; width: number; height: number };
type Seed = { companies: { templates: { name: string; document: { path?: string }; fields: Field[] }[] }[] };

const seedFile = fileURLToPath(new URL('../seed/demo.json', import.meta.url));
const PAGE: [number, number] = [612, 792];
const MARGIN = 72;
const TEXT_WIDTH = PAGE[0] - 2 * MARGIN;
const INK = rgb(0.1, 0.1, 0.1);
const GREY = rgb(0.4, 0.4, 0.4);

/** What the line under a field says when the field has no label of its own. */
const CAPTIONS: Record<string, string> = { signature: 'Signature', initials: 'Initials', date_signed: 'Date', name: 'Name', email: 'E-mail', text: 'Text' };

const PREAMBLE =
  'This Mutual Non-Disclosure Agreement (the "Agreement") is made between Acme Ltd and the company named below (each a "Party"), ' +
  'and takes effect on the date the last Party signs it.';

const CLAUSES = [
  [
    'Purpose',
    'The Parties wish to explore a possible business relationship (the "Purpose") and, for that Purpose, may disclose Confidential Information to each other.',
  ],
  [
    'Confidential Information',
    '"Confidential Information" means any information, in any form, that one Party (the "Discloser") discloses to the other (the "Recipient") and that is marked confidential or that a reasonable person would understand to be confidential, including business plans, prices, customer lists, software, designs and technical data.',
  ],
  [
    'Exclusions',
    'Confidential Information does not include information that (a) is or becomes public through no fault of the Recipient; (b) the Recipient already knew without a duty of confidence; (c) the Recipient lawfully receives from a third party free to disclose it; or (d) the Recipient develops independently, without use of the Discloser\u2019s information.',
  ],
  [
    'Obligations',
    'The Recipient shall use Confidential Information only for the Purpose; shall disclose it only to its employees and professional advisers who need to know it for the Purpose and are bound by duties of confidence at least as strict as these; and shall protect it with at least the care it gives its own confidential information, and never less than reasonable care.',
  ],
  [
    'Disclosure required by law',
    'The Recipient may disclose Confidential Information when a law, regulator or court requires it, provided that, where lawful, it tells the Discloser promptly beforehand and discloses no more than is required.',
  ],
  [
    'Return and destruction',
    'On the Discloser\u2019s written request, the Recipient shall promptly return or destroy the Discloser\u2019s Confidential Information, except copies kept in routine back-ups or by law, which stay subject to this Agreement.',
  ],
  [
    'No licence, no warranty',
    'Confidential Information remains the property of the Discloser. This Agreement grants no licence to it and obliges neither Party to enter into any further agreement. Confidential Information is provided "as is".',
  ],
  [
    'Term',
    'This Agreement lasts two years from its effective date. The Recipient\u2019s duties survive for three years after it ends, and for trade secrets for as long as they remain trade secrets.',
  ],
  [
    'Remedies',
    'Unauthorised use or disclosure may cause harm that damages cannot put right; the Discloser may therefore seek an injunction in addition to any other remedy.',
  ],
  [
    'General',
    'This Agreement is the Parties\u2019 entire agreement on its subject and may be changed only in writing signed by both Parties. It is governed by the laws of England and Wales. It may be signed electronically, and in counterparts.',
  ],
] as const;

function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

/** Draws `text` with its top at `top` (points from the page's top, as template fields are placed). */
function drawAt(page: PDFPage, text: string, x: number, top: number, size: number, font: PDFFont, color = INK) {
  page.drawText(text, { x, y: PAGE[1] - top - size * 0.8, size, font, color });
}

async function main() {
  const seed = JSON.parse(await readFile(seedFile, 'utf8')) as Seed;
  const template = seed.companies.flatMap((company) => company.templates).find((candidate) => candidate.name === 'Mutual NDA');
  if (!template?.document.path) throw new Error('seed/demo.json has no "Mutual NDA" template with a document path.');

  const pdf = await PDFDocument.create();
  pdf.setTitle('Mutual Non-Disclosure Agreement');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const pages = [pdf.addPage(PAGE), pdf.addPage(PAGE)] as const;

  // Page 1: the title, the parties (the Company field sits at 200–220 from the top), the clauses.
  drawAt(pages[0], 'Mutual Non-Disclosure Agreement', MARGIN, 80, 20, bold);
  let top = 120;
  for (const line of wrap(regular, PREAMBLE, 11, TEXT_WIDTH)) {
    drawAt(pages[0], line, MARGIN, top, 11, regular);
    top += 15;
  }
  top = 260;
  let page = 0;
  for (const [index, [heading, body]] of CLAUSES.entries()) {
    const lines = wrap(regular, body, 10.5, TEXT_WIDTH);
    // A clause that would run into the page's foot starts the next page.
    if (top + 18 + lines.length * 14 > 730) {
      page = 1;
      top = 72;
    }
    drawAt(pages[page]!, `${index + 1}. ${heading}`, MARGIN, top, 11, bold);
    top += 17;
    for (const line of lines) {
      drawAt(pages[page]!, line, MARGIN, top, 10.5, regular);
      top += 14;
    }
    top += 10;
  }
  if (page !== 1 || top > 575) throw new Error('The clauses no longer end above the signature block on page 2.');

  drawAt(pages[1], 'Signatures', MARGIN, 585, 14, bold);
  drawAt(pages[1], 'Signed by the Parties, the Client first and then its witness, on the dates shown.', MARGIN, 607, 10, regular, GREY);

  // Each field: a line along its foot, and under it what goes there (the label, else its kind) and whose it is.
  for (const field of template.fields) {
    const target = pages[field.page - 1]!;
    const foot = PAGE[1] - field.y - field.height;
    target.drawLine({ start: { x: field.x, y: foot }, end: { x: field.x + field.width, y: foot }, thickness: 0.75, color: INK });
    const caption = field.label ?? CAPTIONS[field.type] ?? field.type;
    drawAt(target, `${caption} (${field.role})`, field.x, field.y + field.height + 3, 8, regular, GREY);
  }

  for (const [index, target] of pages.entries()) {
    const footer = `Mutual Non-Disclosure Agreement \u2014 page ${index + 1} of ${pages.length}`;
    drawAt(target, footer, (PAGE[0] - regular.widthOfTextAtSize(footer, 8)) / 2, 765, 8, regular, GREY);
  }
  // Fixed dates: the same bytes, and so the same hash, each time it is made.
  pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  const out = fileURLToPath(new URL(template.document.path, new URL('../seed/', import.meta.url)));
  await writeFile(out, await pdf.save());
  console.log(`Wrote ${out}`);
}

await main();
