import { z } from '@hono/zod-openapi';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import { discardTemplateDocument, importTemplate, type StoredTemplateDocument, storeTemplateDocument } from '../../src/domain/templates/import-template.js';
import type { CompanyContext } from '../../src/domain/verb-context.js';
import { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { DomainError, type Issue, validationFailed } from '../../src/errors.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { text } from '../../src/http/schemas.js';
import { readStreamedForm, StreamedFile, TextFile } from '../../src/http/streamed-form.js';
import { parseOrFail } from '../../src/domain/shared/parse-or-fail.js';
import { isStorableText } from '../../src/lib/storable-text.js';
import type { StoredDocument } from '../../src/ports/document-store.js';
import { TemplateDetail } from '../templates/template-schemas.js';
import { adminSecurity, companyIdParam } from './admin-schemas.js';

/** Far more JSON than the largest template (500 fields, 50 roles, a 5,000-character message) takes. */
export const MAX_TEMPLATE_JSON = 1_000_000;

/**
 * The bytes of the template part kept in memory: as many as MAX_TEMPLATE_JSON characters can take
 * in UTF-8 (3 a character), so that a field cut past them holds more characters than the rule allows.
 */
const TEMPLATE_PART_BYTES = 3 * MAX_TEMPLATE_JSON;

/** The name a document sent without one is stored under. */
const UNNAMED_DOCUMENT = 'document.pdf';

/**
 * The form as it is judged once read (src/http/streamed-form.ts). The template comes as a form
 * field (`-F 'template=<template.json'`) or as a file (`-F 'template=@template.json'`); the
 * document's file name is stored with it.
 */
const ImportForm = z.object({
  template: z.union([text(MAX_TEMPLATE_JSON), z.instanceof(TextFile)]),
  document: z
    .instanceof(StreamedFile)
    .refine((file) => isStorableText(file.fileName), { message: 'The file name must not contain NUL or an unpaired surrogate.' }),
});

/**
 * The form as the OpenAPI document shows it. A plain schema, not zod: for a zod one, zod-openapi
 * would read the whole body into memory before the handler runs, and the PDF is streamed instead.
 */
const ImportFormSchema = {
  type: 'object' as const,
  properties: {
    template: {
      type: 'string' as const,
      description: 'The template as JSON, sent as a field or as a file: settings, roles and fields (the seed format).',
    },
    document: { type: 'string' as const, format: 'binary', description: 'The PDF.' },
  },
  required: ['template', 'document'],
};

export const route = endpointRoute({
  operationId: 'adminImportTemplate',
  tags: ['Admin'],
  summary: 'Import a template: a PDF plus its roles and fields',
  description: 'Fields are placed in PDF points from the top-left corner of their page and must fit on it.',
  security: adminSecurity,
  request: { params: companyIdParam, body: { required: true, content: { 'multipart/form-data': { schema: ImportFormSchema } } } },
  responses: {
    201: jsonContent(TemplateDetail, 'The imported template.', false),
    ...errorResponses('unauthorized', 'validation_failed', 'invalid_document', 'company_not_found', 'conflict', 'payload_too_large'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  const { definition, document } = await acceptedForm(c.req.raw, ctx);
  const imported = await importTemplate(ctx, { definition, document }).catch((err: unknown) => {
    throw underTemplatePart(err);
  });
  return c.json(imported, 201);
};

/**
 * The form, read as it arrives: its PDF goes to the document store as its bytes do, whatever its
 * place in the form. The form is judged once read whole, in the order a form read at once was (its
 * parts, the template, the company, the PDF's size), and a refusal takes back the PDF it stored.
 */
async function acceptedForm(request: Request, ctx: CompanyContext): Promise<{ definition: TemplateDefinition; document: StoredTemplateDocument }> {
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
    const { template, document } = parseOrFail(ImportForm, form);
    const definition = templateDefinition(template);
    await requireCompany(ctx);
    // The one document part has a storable name, so its write was begun.
    return { definition, document: { fileName: document.fileName || UNNAMED_DOCUMENT, stored: await upload! } };
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
function underTemplatePart(err: unknown): unknown {
  if (!(err instanceof DomainError) || err.code !== 'validation_failed') return err;
  const issues = (err.details.issues ?? []) as Issue[];
  return new DomainError(err.code, err.message, { ...err.details, issues: issues.map((issue) => ({ ...issue, path: `template.${issue.path}` })) });
}
