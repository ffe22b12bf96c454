import { DomainError } from '../../errors.js';

/** No envelope of that id, or none in the caller's company: one answer for both, so an id tells nothing of another company. */
export const envelopeNotFound = (id: string) => new DomainError('envelope_not_found', 'No envelope with that id exists in this company.', { envelope_id: id });
