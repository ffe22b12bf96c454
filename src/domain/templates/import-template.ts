import { templateDocuments, templateFields, templateRoles, templates, auditEvents } from '../../data/schema.js';
import { isUniqueViolation } from '../../data/errors.js';
import { DomainError, type Issue, validationFailed } from '../../errors.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { CompanyContext } from '../verb-context.js';
import { placementOf } from './field-placement.js';
import { getTemplate, type TemplateDetail } from './get-template.js';
import type { TemplateDefinition } from './template-definition.js';

export type TemplateDocument = { fileName: string; bytes: Uint8Array };

/** Who the audit trail names as the importer: an operator, or the service itself (a seed). */
export type TemplateImporter = { type: 'admin' | 'system'; id?: string };

/**
 * Stores a template with its PDF, roles and field layout in one transaction, after checking that
 * the PDF opens and that every field sits inside a page of it.
 */
export async function importTemplate(
  ctx: CompanyContext,
  { definition, document, actor = { type: 'admin' } }: { definition: TemplateDefinition; document: TemplateDocument; actor?: TemplateImporter },
): Promise<TemplateDetail> {
  const { services, companyId, now } = ctx;
  const pages = await services.pdf.pageSizes(document.bytes);
  if (!pages || pages.length === 0) {
    throw new DomainError('invalid_document', 'The document is not a PDF that can be read.', { file_name: document.fileName });
  }
  const outside = fieldsOutsidePages(definition, pages);
  if (outside.length > 0) throw validationFailed(outside, 'Some fields do not sit inside a page of the document.');

  const templateId = definition.id ?? crypto.randomUUID();
  const roleIds = new Map(definition.roles.map((role) => [role.name, crypto.randomUUID()]));
  const sha256 = await sha256Hex(document.bytes);

  await services.database
    .atomic((q) => [
      q.insert(templates).values({
        id: templateId,
        companyId,
        name: definition.name,
        emailSubject: definition.email_subject ?? null,
        emailMessage: definition.email_message ?? null,
        expiryDays: definition.expiry_days ?? null,
        reminders: definition.reminders ?? null,
        signingOrder: definition.signing_order,
        shareSigningLinks: definition.share_signing_links,
        language: definition.language ?? null,
        createdAt: now,
        updatedAt: now,
      }),
      q.insert(templateDocuments).values({ companyId, templateId, fileName: document.fileName, content: document.bytes, sha256, pages }),
      q.insert(templateRoles).values(
        definition.roles.map((role) => ({
          id: roleIds.get(role.name)!,
          companyId,
          templateId,
          name: role.name,
          type: role.type,
          order: role.order,
          locked: role.locked,
          recipientName: role.recipient?.name ?? null,
          recipientEmail: role.recipient?.email ?? null,
          verification: role.verification ?? 'none',
        })),
      ),
      ...(definition.fields.length > 0
        ? [
            q.insert(templateFields).values(
              definition.fields.map((field) => ({
                companyId,
                templateId,
                roleId: roleIds.get(field.role)!,
                ...placementOf(field),
              })),
            ),
          ]
        : []),
      q.insert(auditEvents).values({
        companyId,
        kind: 'template.imported',
        actorType: actor.type,
        actorId: actor.id ?? null,
        data: { template_id: templateId, name: definition.name, document_sha256: sha256 },
        createdAt: now,
      }),
    ])
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw new DomainError('conflict', 'A template with this id already exists.', { template_id: templateId });
      throw err;
    });
  return getTemplate(ctx, { templateId });
}

/** Fields are placed in PDF points from the page's top-left corner and must fit on their page. */
function fieldsOutsidePages(definition: TemplateDefinition, pages: { width: number; height: number }[]): Issue[] {
  const issues: Issue[] = [];
  definition.fields.forEach((field, index) => {
    const page = pages[field.page - 1];
    if (!page) {
      issues.push({ path: `fields[${index}].page`, message: `The document has ${pages.length} page(s).` });
    } else if (field.x + field.width > page.width || field.y + field.height > page.height) {
      issues.push({
        path: `fields[${index}]`,
        message: `The field runs off page ${field.page}, which is ${page.width}×${page.height} points.`,
      });
    }
  });
  return issues;
}
