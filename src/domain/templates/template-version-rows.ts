import type { Db, Statement } from '../../data/database.js';
import { templateFields, templateRoles } from '../../data/schema.js';
import { settingsOf } from './field-kinds.js';
import { placementOf } from './field-placement.js';
import type { TemplateDefinition } from './template-definition.js';

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
