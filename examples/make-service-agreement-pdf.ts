/**
 * Makes examples/service-agreement.pdf, the document of examples/service-agreement.json: two
 * US Letter pages of text with a caption above each field's place, so that the template's fields
 * land on blank, labelled spaces. Run it again after moving a field: `npx tsx examples/make-service-agreement-pdf.ts`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

type Box = { x: number; y: number; width: number; height: number };
type Field = Box & { role: string; type: string; label?: string | null; page: number; options?: (string | (Box & { value: string }))[] };

const here = new URL('./', import.meta.url);
const PAGE: [number, number] = [612, 792];

const captions: Record<string, string> = {
  signature: 'Signature',
  initials: 'Initials',
  date_signed: 'Date signed',
  text: 'Text',
  checkbox: '',
  name: 'Name',
  email: 'E-mail',
};

const terms = [
  'Service Agreement',
  '',
  '1. The Provider supplies the services described in the order form, with reasonable skill and care.',
  '2. The Customer pays each invoice within 30 days of its date.',
  '3. Either party may end this agreement with 30 days written notice.',
  '4. Each party keeps the other party\u2019s confidential information confidential.',
];

async function main() {
  const template = JSON.parse(await readFile(new URL('service-agreement.json', here), 'utf8')) as { fields: Field[] };
  const pdf = await PDFDocument.create();
  pdf.setTitle('Service Agreement');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const pages = [pdf.addPage(PAGE), pdf.addPage(PAGE)];
  const [first, second] = pages as [(typeof pages)[0], (typeof pages)[0]];

  for (const [index, line] of terms.entries()) {
    first.drawText(line, { x: 72, y: PAGE[1] - 90 - index * 18, size: index === 0 ? 20 : 11, font: index === 0 ? bold : regular });
  }
  second.drawText('Signatures', { x: 72, y: PAGE[1] - 120, size: 16, font: bold });
  second.drawText('Customer', { x: 72, y: PAGE[1] - 150, size: 11, font: bold });
  second.drawText('Provider', { x: 320, y: PAGE[1] - 150, size: 11, font: bold });

  // Template coordinates are PDF points from the page's top-left corner; pdf-lib draws from the bottom-left.
  for (const field of template.fields) {
    const page = pages[field.page - 1]!;
    const bottom = PAGE[1] - field.y - field.height;
    const caption = field.label ?? captions[field.type] ?? field.type;
    if (field.type === 'radio') {
      // Each option its own box, with its value beside it: the mark goes in the chosen one.
      for (const option of field.options ?? []) {
        if (typeof option === 'string') continue;
        const optionBottom = PAGE[1] - option.y - option.height;
        page.drawRectangle({ x: option.x, y: optionBottom, width: option.width, height: option.height, borderColor: rgb(0.3, 0.3, 0.3), borderWidth: 1 });
        page.drawText(option.value, { x: option.x + option.width + 8, y: optionBottom + 4, size: 10, font: regular });
      }
      page.drawText(caption, { x: field.x, y: bottom - 11, size: 8, font: regular, color: rgb(0.4, 0.4, 0.4) });
      continue;
    }
    if (field.type === 'checkbox') {
      page.drawRectangle({ x: field.x, y: bottom, width: field.width, height: field.height, borderColor: rgb(0.3, 0.3, 0.3), borderWidth: 1 });
      page.drawText(caption, { x: field.x + field.width + 8, y: bottom + 4, size: 10, font: regular });
      continue;
    }
    page.drawLine({ start: { x: field.x, y: bottom }, end: { x: field.x + field.width, y: bottom }, thickness: 0.75, color: rgb(0.3, 0.3, 0.3) });
    page.drawText(caption, { x: field.x, y: bottom - 11, size: 8, font: regular, color: rgb(0.4, 0.4, 0.4) });
  }
  for (const [index, page] of pages.entries()) page.drawText(`Page ${index + 1} of ${pages.length}`, { x: 270, y: 36, size: 9, font: regular });

  // Fixed dates keep the file, and its SHA-256, the same on every run.
  pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  await writeFile(new URL('service-agreement.pdf', here), await pdf.save());
}

await main();
