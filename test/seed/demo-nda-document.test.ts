/**
 * The demo seed's NDA is a real agreement a signer can read (seed/mutual-nda.pdf, made by
 * scripts/make-demo-nda-pdf.ts): two pages, its clauses, and under each of the template's fields
 * a caption saying what goes there and whose it is, where seed/demo.json places the field. Read
 * with poppler's pdftotext, a reader that shares no code with ours.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../embedded/server-process.js';
import { installed } from '../support/outside-tools.js';

type Field = { role: string; type: string; label?: string; page: number; x: number; y: number; width: number; height: number };
type Word = { page: number; x: number; y: number; text: string };

const seed = JSON.parse(readFileSync(join(projectRoot, 'seed/demo.json'), 'utf8')) as {
  companies: { templates: { name: string; document: { path?: string }; fields: Field[] }[] }[];
};
const nda = seed.companies[0]!.templates.find((template) => template.name === 'Mutual NDA')!;

/** Every word of the PDF with its page and its top-left corner, in points from the page's top-left (as fields are placed). */
function words(file: string): Word[] {
  const layout = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
  return layout.split('<page ').flatMap((page, index) =>
    [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<\/word>/g)].map((match) => ({
      page: index,
      x: Number(match[1]),
      y: Number(match[2]),
      text: match[3]!,
    })),
  );
}

describe.skipIf(!installed('pdftotext'))('the demo NDA document', () => {
  const file = join(projectRoot, 'seed', nda.document.path ?? '');
  const all = nda.document.path ? words(file) : [];

  it('is a file beside the seed: two pages of a mutual non-disclosure agreement, its clauses before the signature block', () => {
    expect(nda.document.path).toBe('mutual-nda.pdf');
    expect(Math.max(...all.map((word) => word.page))).toBe(2);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    for (const clause of [
      'Mutual Non-Disclosure Agreement',
      'Confidential Information',
      'Exclusions',
      'Obligations',
      'Return and destruction',
      'Term',
      'Signatures',
    ])
      expect(text).toContain(clause);
    const signatures = all.find((word) => word.text === 'Signatures')!;
    expect(signatures.page).toBe(2);
    expect(all.filter((word) => word.page === 2 && word.y > signatures.y && /^\d+\.$/.test(word.text))).toEqual([]);
  });

  it('has a caption under each field, at its left edge: what goes there and whose it is', () => {
    const captions = nda.fields.map((field) => {
      const foot = field.y + field.height;
      // The caption's first word starts at the field's left edge, just below its foot (within 2 points, at most 14 below).
      const under = all.filter((word) => word.page === field.page && Math.abs(word.x - field.x) <= 2 && word.y >= foot && word.y <= foot + 14);
      return { field: `${field.role} ${field.type}`, caption: under.map((word) => word.text).join(' ') };
    });
    expect(captions).toEqual([
      { field: 'Client signature', caption: 'Signature' },
      { field: 'Client date_signed', caption: 'Date' },
      { field: 'Client text', caption: 'Company' },
      { field: 'Witness signature', caption: 'Signature' },
    ]);
    // Nothing else is drawn inside a field's box, where the signer's value goes.
    for (const field of nda.fields) {
      const inside = all.filter(
        (word) => word.page === field.page && word.x >= field.x && word.x < field.x + field.width && word.y >= field.y && word.y < field.y + field.height,
      );
      expect(inside, `${field.role} ${field.type}`).toEqual([]);
    }
  });
});
