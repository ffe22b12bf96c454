/**
 * The README and the guides under docs/ as a reader follows them: every relative link reaches a
 * file of the repository, and every `#anchor` a heading of its page, named as GitHub names
 * headings. The README stays short enough to read first; the rest is in the guides.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const README_MAX_LINES = 300;

/** The page's lines outside fenced code blocks, with their line numbers. */
function prose(markdown: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, index) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (fence) {
      if (open && open[0] === fence[0] && open.length >= fence.length && text.trim() === open) fence = undefined;
    } else if (open) fence = open;
    else lines.push({ text, line: index + 1 });
  });
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped but `-` and `_`, spaces to `-`. */
function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page offers, a repeated heading numbered as GitHub numbers it (`-1`, `-2`…). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The page's links and images whose target is not an address of another site. */
function relativeLinks(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  for (const { text, line } of prose(markdown)) {
    const withoutCode = text.replace(/(`+)[^`]*?\1/g, '');
    for (const match of withoutCode.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ target, line });
    }
  }
  return links;
}

describe('the README and the guides', () => {
  it('names GitHub anchors as GitHub does', () => {
    expect(headingSlug('Retrying a send safely: `Idempotency-Key`')).toBe('retrying-a-send-safely-idempotency-key');
    expect(headingSlug("The page in the signer's language")).toBe('the-page-in-the-signers-language');
    expect(headingSlug('Node.js versions')).toBe('nodejs-versions');
    expect(headingSlug('The stack, and how long it waits for each service')).toBe('the-stack-and-how-long-it-waits-for-each-service');
  });

  it('keeps the README within 300 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').replace(/\n$/, '').split('\n');
    expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  for (const page of pages) {
    it(`${page}: every relative link reaches a file, and every anchor a heading of it`, () => {
      const broken: string[] = [];
      for (const { target, line } of relativeLinks(readFileSync(join(root, page), 'utf8'))) {
        const [path = '', anchor] = target.split('#', 2);
        const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
        const where = `${page}:${line} → ${target}`;
        if (!existsSync(file)) {
          broken.push(`${where}: no file ${relative(root, file)}`);
          continue;
        }
        if (anchor === undefined || anchor === '') continue;
        if (!file.endsWith('.md')) broken.push(`${where}: an anchor into a file that is not Markdown`);
        else if (!anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor)))
          broken.push(`${where}: no heading "${anchor}" in ${relative(root, file)}`);
      }
      expect(broken).toEqual([]);
    });
  }
});
