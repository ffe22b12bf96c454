/**
 * The shell examples of the README and the guides as the README test runs them. The convention,
 * stated in docs/development.md ("The README and the guides are tested"):
 * - A ```sh block is run when it calls the service: it holds `curl` or `npm run admin`. Blocks
 *   that do not (installing, `npm run dev`, openssl, pdfsig, the test commands) are shown only.
 * - A block fenced as ```sh not-run is shown only, for what cannot run against a fresh local
 *   server: placeholders to fill in, a deployment, a step that needs a signer's browser.
 * - A comment starting with a status (`# 201 …`, `# 422 unknown_signer_role: …`) documents an
 *   answer of that block; the block's answers must include the documented ones in that order, and
 *   every answer that is not 2xx must be documented.
 */
export type ReadmeBlock = { line: number; heading: string; code: string; runs: boolean; why?: string; statuses: number[] };

const STATUS_COMMENT = /(?:^|\s)#\s*([1-5]\d\d)\b/;

export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  let heading = '';
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!;
    const open = /^(\s*)(```+)\s*(\S*)\s*(.*)$/.exec(text);
    if (!open) {
      if (/^#{1,6}\s/.test(text)) heading = text.replace(/^#+\s*/, '');
      continue;
    }
    const [, indent = '', fence = '```', language, info = ''] = open;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !new RegExp(`^\\s*${fence}\\s*$`).test(lines[end]!)) {
      body.push(lines[end]!.startsWith(indent) ? lines[end]!.slice(indent.length) : lines[end]!.trimStart());
      end++;
    }
    if (language === 'sh') {
      const code = body.join('\n');
      const callsService = /\bcurl\b|npm run admin\b/.test(code);
      const notRun = info.split(/\s+/).includes('not-run');
      blocks.push({
        line: index + 1,
        heading,
        code,
        runs: callsService && !notRun,
        ...(notRun ? { why: 'fenced as not-run' } : callsService ? {} : { why: 'calls no service' }),
        statuses: body.flatMap((line) => {
          const match = STATUS_COMMENT.exec(line);
          return match ? [Number(match[1])] : [];
        }),
      });
    }
    index = end;
  }
  return blocks;
}

/**
 * Whether `answers` hold `documented` in order (others may come between), and every answer that is
 * not 2xx is one of the documented statuses. Undefined when it holds; else what is wrong.
 */
export function statusMismatch(documented: number[], answers: number[]): string | undefined {
  let next = 0;
  for (const status of answers) if (next < documented.length && status === documented[next]) next++;
  if (next < documented.length) return `documented ${documented.join(', ')} but the answers were ${answers.join(', ')} (${documented[next]} missing, in order)`;
  const unexpected = answers.filter((status) => (status < 200 || status > 299) && !documented.includes(status));
  if (unexpected.length > 0) return `undocumented answers ${[...new Set(unexpected)].join(', ')} among ${answers.join(', ')}`;
  return undefined;
}
