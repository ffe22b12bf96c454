import { listEnvelopes } from '../../src/domain/companies/list-company-records.js';
import { EnvelopeSummary } from './admin-schemas.js';
import { companyListHandler, companyListRoute } from './company-list.js';

export const route = companyListRoute('adminListEnvelopes', 'List the envelopes of a company', EnvelopeSummary);
export const handler = companyListHandler(listEnvelopes);
