import { listUsers } from '../../src/domain/companies/list-company-records.js';
import { UserRecord } from './admin-schemas.js';
import { companyListHandler, companyListRoute } from './company-list.js';

export const route = companyListRoute('adminListUsers', 'List the users of a company', UserRecord);
export const handler = companyListHandler(listUsers);
