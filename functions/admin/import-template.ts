import { z } from '@hono/zod-openapi';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import { importTemplate } from '../../src/domain/templates/import-template.js';
import { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { DomainError, type Issue, validationFailed } from '../../src/errors.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { text } from '../../src/http/schemas.js';
import { parseOrFail } from '../../src/domain/shared/parse-or-fail.js';
import { isStorableText } from '../../src/lib/storable-text.js';
import { TemplateDetail } from '../templates/template-schemas.js';
import { adminSecurity, companyIdParam } from './admin-schemas.js';

/** Far more JSON than the largest template (500 fields, 50 roles, a 5,000-character message) takes. */
export const MAX_TEMPLATE_JSON = 1_000_000;

/** The template as a form field (`-F 'template=<template.json'`) or as a file (`-F 'template=@template.json'`). */
const TemplatePart = z.union([text(MAX_TEMPLATE_JSON), z.instanceof(File)]).openapi({
  type: 'string',
  description: 'The template as JSON, sent as a field or as a file: settings, roles and fields (the seed format).',
});

const ImportForm = z.object({
  template: TemplatePart,
  // The file name is stored with the document.
  document: z
    .instanceof(File)
    .refine((file) => isStorableText(file.name), { message: 'The file name must not contain NUL or an unpaired surrogate.' })
    .openapi({ type: 'string', format: 'binary', description: 'The PDF.' }),
});

export const route = endpointRoute({
  operationId: 'adminImportTemplate',
  tags: ['Admin'],
  summary: 'Import a template: a PDF plus its roles and fields',
  description: 'Fields are placed in PDF points from the top-left corner of their page and must fit on it.',
  security: adminSecurity,
  request: { params: companyIdParam, body: { required: true, content: { 'multipart/form-data': { schema: ImportForm } } } },
  responses: {
    201: jsonContent(TemplateDetail, 'The imported template.', false),
    ...errorResponses('unauthorized', 'validation_failed', 'invalid_document', 'company_not_found', 'conflict', 'payload_too_large'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId } = c.req.valid('param');
  const { template, document } = c.req.valid('form');
  const templateJson = await templateText(template);
  let json: unknown;
  try {
    json = JSON.parse(templateJson);
  } catch {
    throw validationFailed([{ path: 'template', message: 'Not valid JSON.' }]);
  }
  const definition = parseOrFail(TemplateDefinition, json, 'template');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  const imported = await importTemplate(ctx, { definition, document: { fileName: document.name || 'document.pdf', bytes: document.stream() } }).catch(
    (err: unknown) => {
      throw underTemplatePart(err);
    },
  );
  return c.json(imported, 201);
};

/**
 * The JSON of the template part. A file part is held to what a field is: its size, and text the
 * database can store (read as UTF-8; bytes that are not UTF-8 show as U+FFFD and fail the JSON).
 */
async function templateText(part: string | File): Promise<string> {
  if (typeof part === 'string') return part;
  if (part.size > MAX_TEMPLATE_JSON) throw validationFailed([{ path: 'template', message: `At most ${MAX_TEMPLATE_JSON} bytes of JSON.` }]);
  return parseOrFail(text(MAX_TEMPLATE_JSON), await part.text(), 'template');
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
