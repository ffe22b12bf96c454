/** The audit log pages of the application, their paths relative to `/app` (functions/routes.ts mounts them). */
import type { AppPageRoute } from '../../src/company-app/company-app.js';
import { showAuditLog } from './audit-list.js';

export const auditRoutes: AppPageRoute[] = [['/audit', 'GET', showAuditLog]];
