/** The API keys pages of the application, their paths relative to `/app` (functions/routes.ts mounts them). */
import type { AppPageRoute } from '../../src/company-app/company-app.js';
import { confirmRevokeKey, confirmRotateKey } from './keys-confirm.js';
import { createKey } from './keys-create.js';
import { showKeys } from './keys-list.js';
import { showNewKey } from './keys-new.js';
import { revokeKey } from './keys-revoke.js';
import { rotateKey } from './keys-rotate.js';

export const keyRoutes: AppPageRoute[] = [
  ['/keys', 'GET', showKeys],
  ['/keys', 'POST', createKey],
  ['/keys/new', 'GET', showNewKey],
  ['/keys/:id/rotate', 'GET', confirmRotateKey],
  ['/keys/:id/rotate', 'POST', rotateKey],
  ['/keys/:id/revoke', 'GET', confirmRevokeKey],
  ['/keys/:id/revoke', 'POST', revokeKey],
];
