/** `npm run deploy:check` refuses a deploy whose Workers do not both bind the documents' R2 bucket. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBucketBindings, readBucketBindings } from '../../scripts/deploy-check/bucket-bindings.js';

const apiToml = fileURLToPath(new URL('../../wrangler.toml', import.meta.url));
const pdfToml = fileURLToPath(new URL('../../wrangler.pdf.toml', import.meta.url));
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'deploy-check-buckets-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A copy of a committed configuration, with its [[r2_buckets]] table changed by `edit`. */
async function edited(path: string, edit: (toml: string) => string): Promise<string> {
  const toml = await readFile(path, 'utf8');
  const changed = edit(toml);
  expect(changed).not.toBe(toml);
  const copy = join(scratch, `${crypto.randomUUID()}.toml`);
  // Beside the original's folders (main, assets), as wrangler resolves them from the file's own folder.
  await writeFile(copy, changed.replace(/^main = "/m, `main = "${join(path, '..')}/`).replace(/^directory = "\.\//gm, `directory = "${join(path, '..')}/`));
  return copy;
}

const withoutBucket = (toml: string) => toml.replace(/\[\[r2_buckets\]\]\nbinding = "DOCUMENTS"\nbucket_name = "esign-documents"\n/, '');

function check(api: string, pdf: string) {
  return checkBucketBindings([
    { name: 'The API Worker', file: api, buckets: readBucketBindings(api) },
    { name: 'The PDF Worker', file: pdf, buckets: readBucketBindings(pdf) },
  ]);
}

describe('checkBucketBindings', () => {
  it('passes the committed configurations: DOCUMENTS is esign-documents on both Workers', () => {
    expect(readBucketBindings(apiToml)).toEqual([{ binding: 'DOCUMENTS', bucket_name: 'esign-documents' }]);
    expect(readBucketBindings(pdfToml)).toEqual([{ binding: 'DOCUMENTS', bucket_name: 'esign-documents' }]);
    expect(check(apiToml, pdfToml)).toEqual({
      name: 'document bucket',
      ok: true,
      detail: 'DOCUMENTS is R2 bucket esign-documents on both Workers (create it once: npx wrangler r2 bucket create esign-documents)',
    });
  });

  it.each([
    ['the API Worker', 'The API Worker', true],
    ['the PDF Worker', 'The PDF Worker', false],
  ])('refuses a deploy when %s has no DOCUMENTS bucket, saying what to add', async (_which, name, api) => {
    const broken = await edited(api ? apiToml : pdfToml, withoutBucket);
    const result = api ? check(broken, pdfToml) : check(apiToml, broken);
    expect(result.ok).toBe(false);
    expect(result.detail).toBe(
      `${name} has no R2 bucket bound as DOCUMENTS: add to ${broken}\n[[r2_buckets]]\nbinding = "DOCUMENTS"\nbucket_name = "esign-documents"`,
    );
  });

  it('refuses Workers bound to two different buckets', async () => {
    const other = await edited(pdfToml, (toml) => toml.replace('bucket_name = "esign-documents"', 'bucket_name = "esign-pdf-documents"'));
    expect(check(apiToml, other)).toEqual({
      name: 'document bucket',
      ok: false,
      detail: 'the Workers bind DOCUMENTS to different buckets (esign-documents, esign-pdf-documents): they must share one',
    });
  });

  it('refuses a binding of another name, which the Workers would not find', async () => {
    const renamed = await edited(apiToml, (toml) => toml.replace('binding = "DOCUMENTS"', 'binding = "PDFS"'));
    expect(check(renamed, pdfToml)).toMatchObject({ ok: false, detail: expect.stringMatching(/^The API Worker has no R2 bucket bound as DOCUMENTS/) });
  });
});
