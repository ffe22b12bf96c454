import { listApiKeys } from '../../src/domain/companies/list-company-records.js';
import { ApiKeySummary } from './admin-schemas.js';
import { companyListHandler, companyListRoute } from './company-list.js';

export const route = companyListRoute('adminListApiKeys', 'List the API keys of a company (prefixes only, never a key)', ApiKeySummary);
export const handler = companyListHandler(listApiKeys);
