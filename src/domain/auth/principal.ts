import type { UserRole } from '../../data/schema.js';
import type { Scope } from './scopes.js';

/** Who is calling: an API key of a company, and the user who owns it, as they are right now. */
export type Principal = {
  companyId: string;
  apiKeyId: string;
  scopes: readonly Scope[];
  owner: { id: string; email: string; role: UserRole; active: boolean; esignSeat: boolean };
};
