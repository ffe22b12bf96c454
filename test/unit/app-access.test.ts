/**
 * The company application's table of roles (src/domain/app-access/roles.ts) says what the issue's
 * roles say, and its catalogue's every message parses, so that a page never fails on its words.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { can, permissions } from '../../src/domain/app-access/roles.js';
import { appCatalogues } from '../../src/i18n/app-messages.js';
import { appEn } from '../../src/i18n/app-catalogue/en.js';

describe('the roles of the application', () => {
  it('let owners and administrators do everything', () => {
    for (const permission of permissions) {
      expect(can('owner', permission)).toBe(true);
      expect(can('admin', permission)).toBe(true);
    }
  });

  it('let members read, build templates, and act on the envelopes they sent only', () => {
    expect(permissions.filter((permission) => can('member', permission))).toEqual([
      'envelopes:read',
      'envelopes:act-own',
      'templates:read',
      'templates:manage',
      'webhooks:read',
    ]);
  });

  it('let viewers only read', () => {
    expect(permissions.filter((permission) => can('viewer', permission))).toEqual(['envelopes:read', 'templates:read', 'webhooks:read']);
  });
});

describe("the application's catalogue", () => {
  it('is English, and every message parses', () => {
    expect(Object.keys(appCatalogues)).toEqual(['en']);
    for (const [key, message] of Object.entries(appEn)) expect(() => new IntlMessageFormat(message, 'en'), key).not.toThrow();
  });
});
