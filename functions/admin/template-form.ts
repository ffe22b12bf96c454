/**
 * The multipart form of the admin API's template import and new version: the template as JSON
 * (`template`, a field or a file) and its PDF (`document`), streamed to the document store as its
 * bytes arrive. The import needs the PDF; a new version may leave it out to keep the current one.
 */
import { z } from '@hono/zod-openapi';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import { discardTemplateDocument, type StoredTemplateDocument, storeTemplateDocument } from '../../src/domain/templates/import-template.js';
import { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import type { CompanyContext } from '../../src/domain/verb-context.js';
import { parseOrFail } from '../../src/domain/shared/parse-or-fail.js';
import { DomainError, type Issue, validationFailed } from '../../src/errors.js';
import { text } from '../../src/http/schemas.js';
import { readStreamedForm, StreamedFile, TextFile } from '../../src/http/streamed-form.js';
import { isStorableText } from '../../src/lib/storable-text.js';
import type { StoredDocument } from '../../src/ports/document-store.js';

/** Far more JSON than the largest template (500 fields, 50 roles, a 5,000-character message) takes. */
export const MAX_TEMPLATE_JSON = 1_000_000;

/**
 * The bytes of the template part kept in memory: as many as MAX_TEMPLATE_JSON characters can take
 * in UTF-8 (3 a character), so that a field cut past them holds more characters than the rule allows.
 */
const TEMPLATE_PART_BYTES = 3 * MAX_TEMPLATE_JSON;

/** The name a document sent without one is stored under. */
const UNNAMED_DOCUMENT = 'document.pdf';

const DocumentPart = z
  .instanceof(StreamedFile)
  .refine((file) => isStorableText(file.fileName), { message: 'The file name must not contain NUL or an unpaired surrogate.' });
const TemplatePart = z.union([text(MAX_TEMPLATE_JSON), z.instanceof(TextFile)]);

/** The form as it is judged once read (src/http/streamed-form.ts); the document's file name is stored with it. */
const forms = {
  required: z.object({ template: TemplatePart, document: DocumentPart }),
  optional: z.object({ template: TemplatePart, document: DocumentPart.optional() }),
};

/**
 * The form as the OpenAPI document shows it. A plain schema, not zod: for a zod one, zod-openapi
 * would read the whole body into memory before the handler runs, and the PDF is streamed instead.
 */
export function templateFormSchema(document: 'required' | 'optional', documentDescription: string) {
  return {
    type: 'object' as const,
    properties: {
      template: {
        type: 'string' as const,
        description: 'The template as JSON, sent as a field or as a file: settings, roles and fields (the seed format).',
      },
      document: { type: 'string' as const, format: 'binary', description: documentDescription },
    },
    required: document === 'required' ? ['template', 'document'] : ['template'],
  };
}

/**
 * The form, read as it arrives: its PDF goes to the document store as its bytes do, whatever its
 * place in the form. The form is judged once read whole, in the order a form read at once was (its
 * parts, the template, the company, the PDF's size), and a refusal takes back the PDF it stored.
 */
export async function readTemplateForm<D extends 'required' | 'optional'>(
  request: Request,
  ctx: CompanyContext,
  document: D,
): Promise<{ definition: TemplateDefinition; document: D extends 'required' ? StoredTemplateDocument : StoredTemplateDocument | null }> {
  let upload: Promise<StoredDocument> | undefined;
  try {
    const form = await readStreamedForm(request, {
      text: { template: TEMPLATE_PART_BYTES },
      file: 'document',
      onFile: async ({ fileName, bytes }) => {
        // A name the database cannot hold refuses the form: nothing to store.
        if (!isStorableText(fileName)) return;
        upload = storeTemplateDocument(ctx, { fileName: fileName || UNNAMED_DOCUMENT, bytes });
        // Its refusal (413) is told after the form's own, below.
        await upload.catch(() => {});
      },
    });
    const parsed: { template: string | TextFile; document?: StreamedFile } = parseOrFail(forms[document] as typeof forms.optional, form);
    const definition = templateDefinition(parsed.template);
    await requireCompany(ctx);
    // A document part with a storable name had its write begun.
    const stored = parsed.document ? { fileName: parsed.document.fileName || UNNAMED_DOCUMENT, stored: await upload! } : null;
    return { definition, document: stored as D extends 'required' ? StoredTemplateDocument : StoredTemplateDocument | null };
  } catch (err) {
    const stored = await upload?.catch(() => undefined);
    if (stored) await discardTemplateDocument(ctx, stored);
    throw err;
  }
}

/** The template of the form's part. */
function templateDefinition(part: string | TextFile): TemplateDefinition {
  const templateJson = part instanceof TextFile ? templateFileText(part) : part;
  let json: unknown;
  try {
    json = JSON.parse(templateJson);
  } catch {
    throw validationFailed([{ path: 'template', message: 'Not valid JSON.' }]);
  }
  return parseOrFail(TemplateDefinition, json, 'template');
}

/**
 * A template sent as a file is held to what a field is: its size, and text the database can store
 * (read as UTF-8; bytes that are not UTF-8 show as U+FFFD and fail the JSON).
 */
function templateFileText(file: TextFile): string {
  if (file.size > MAX_TEMPLATE_JSON) throw validationFailed([{ path: 'template', message: `At most ${MAX_TEMPLATE_JSON} bytes of JSON.` }]);
  return parseOrFail(text(MAX_TEMPLATE_JSON), file.text, 'template');
}

/**
 * The domain names a misplaced field from the template's root (`fields[0]`); in this form the
 * template is the `template` part, so the path gets that prefix like every other issue here.
 */
export function underTemplatePart(err: unknown): unknown {
  if (!(err instanceof DomainError) || err.code !== 'validation_failed') return err;
  const issues = (err.details.issues ?? []) as Issue[];
  return new DomainError(err.code, err.message, { ...err.details, issues: issues.map((issue) => ({ ...issue, path: `template.${issue.path}` })) });
}
