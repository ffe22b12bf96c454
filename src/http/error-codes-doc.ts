import { errorStatus } from './error-status.js';

/** The whole code→status table as Markdown, for the OpenAPI document's description. */
export function describeErrorCodes(): string {
  const rows = Object.entries(errorStatus).map(([code, status]) => `| \`${code}\` | ${status} |`);
  return [
    'Send documents from a stored template for electronic signature, in one call.',
    '',
    'Every error has the body `{ "error": { "code", "message", "details" } }`. Branch on `error.code`:',
    '',
    '| code | HTTP status |',
    '|---|---|',
    ...rows,
  ].join('\n');
}
