/** The users pages of the application, their paths relative to `/app` (functions/routes.ts mounts them). */
import type { AppPageRoute } from '../../src/company-app/company-app.js';
import { changeRoleAndSeat, confirmDeactivate, deactivateUser, reactivateUser } from './user-change.js';
import { showUser } from './user-show.js';
import { showUsers } from './users-list.js';
import { invite, showInvite } from './users-invite.js';

export const userRoutes: AppPageRoute[] = [
  ['/users', 'GET', showUsers],
  ['/users', 'POST', invite],
  ['/users/new', 'GET', showInvite],
  ['/users/:id', 'GET', showUser],
  ['/users/:id', 'POST', changeRoleAndSeat],
  ['/users/:id/deactivate', 'GET', confirmDeactivate],
  ['/users/:id/deactivate', 'POST', deactivateUser],
  ['/users/:id/reactivate', 'POST', reactivateUser],
];
