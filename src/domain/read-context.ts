/**
 * The part of a verb's context that a read uses: the services and the verb's now, and the company
 * whose rows it reads. A read needs no actor and commits no side effect, so every verb's context is
 * one; and a read made while the caller's key is still being checked, before anyone is known,
 * can be given one that the verified token's company alone vouches for.
 */
import type { CompanyContext, VerbContext } from './verb-context.js';

/** A verb that acts for no one it knows: it reads, or checks a credential it is given (an API key, a signed link). */
export type ReadContext = Pick<VerbContext, 'services' | 'now'>;

/** A read within one company. */
export type CompanyReadContext = Pick<CompanyContext, 'services' | 'now' | 'companyId'>;

/** Which page of a list a read is asked for, and its size. */
export type PageRequest = { page: number; perPage: number };
