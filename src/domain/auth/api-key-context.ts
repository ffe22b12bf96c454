import type { CompanyContext } from '../verb-context.js';
import type { Principal } from './principal.js';

/** The context of a verb called with an API key once checked: its company, the key and its owner as they are now. */
export type ApiKeyContext = CompanyContext<{ kind: 'api_key'; principal: Principal }>;
