import type { Db, Statement } from '../../data/database.js';
import { templateFields, templateRoles, templateVersions } from '../../data/schema.js';
import { settingsOf } from './field-kinds.js';
import { placementOf } from './field-placement.js';
import type { TemplateDefinition } from './template-definition.js';

/** A template's settings as a definition states them, in the columns of `templates` and `template_versions` alike. */
export function settingsOfDefinition(definition: Omit<TemplateDefinition, 'id'>) {
  return {
    name: definition.name,
    emailSubject: definition.email_subject ?? null,
    emailMessage: definition.email_message ?? null,
    expiryDays: definition.expiry_days ?? null,
    reminders: definition.reminders ?? null,
    signingOrder: definition.signing_order,
    shareSigningLinks: definition.share_signing_links,
    language: definition.language ?? null,
  };
}

/** The settings of one version, as saved: its row is never changed after (see templateVersions). */
export function versionSettingsRow(
  q: Db,
  to: { companyId: string; templateId: string; version: number; savedAt: Date; savedBy: string | null },
  definition: Omit<TemplateDefinition, 'id'>,
): Statement {
  return q.insert(templateVersions).values({ ...to, ...settingsOfDefinition(definition) });
}

/** The roles of one version of a template, and its fields each under its role: new rows, new ids. */
export function versionRoleAndFieldRows(
  q: Db,
  to: { companyId: string; templateId: string; version: number },
  definition: Pick<TemplateDefinition, 'roles' | 'fields'>,
): Statement[] {
  const { companyId, templateId, version } = to;
  const roleIds = new Map(definition.roles.map((role) => [role.name, crypto.randomUUID()]));
  const roles = q.insert(templateRoles).values(
    definition.roles.map((role) => ({
      id: roleIds.get(role.name)!,
      companyId,
      templateId,
      version,
      name: role.name,
      type: role.type,
      order: role.order,
      locked: role.locked,
      recipientName: role.recipient?.name ?? null,
      recipientEmail: role.recipient?.email ?? null,
      verification: role.verification ?? 'none',
    })),
  );
  if (definition.fields.length === 0) return [roles];
  const fields = q.insert(templateFields).values(
    definition.fields.map((field) => ({
      companyId,
      templateId,
      version,
      roleId: roleIds.get(field.role)!,
      ...placementOf(field),
      settings: settingsOf(field),
    })),
  );
  return [roles, fields];
}
