/**
 * What each role may do in the company application, in one table: every page asks `can(role,
 * permission)` rather than naming roles. Owners and administrators manage keys, users, webhooks
 * and settings; members see envelopes, build templates and act on the envelopes they sent; viewers
 * only read.
 */
import type { UserRole } from '../../data/schema.js';

export const permissions = [
  'envelopes:read',
  /** Void or remind an envelope the user sent. */
  'envelopes:act-own',
  /** Void or remind any envelope of the company. */
  'envelopes:act-any',
  'templates:read',
  /** Make templates in the builder, change and archive them. */
  'templates:manage',
  'keys:manage',
  'users:manage',
  'webhooks:read',
  'webhooks:manage',
  'settings:manage',
  'audit:read',
] as const;

export type Permission = (typeof permissions)[number];

const everything: readonly Permission[] = permissions;

export const rolePermissions: Readonly<Record<UserRole, readonly Permission[]>> = {
  owner: everything,
  admin: everything,
  member: ['envelopes:read', 'envelopes:act-own', 'templates:read', 'templates:manage', 'webhooks:read'],
  viewer: ['envelopes:read', 'templates:read', 'webhooks:read'],
};

export const can = (role: UserRole, permission: Permission): boolean => rolePermissions[role].includes(permission);
