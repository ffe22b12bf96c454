/**
 * The error codes as the guides state them to integrators: every row `| status | \`code\` | … |`
 * of the error tables in docs/api-guide.md ("Errors") and docs/admin.md (the admin API's own). A
 * statement written apart from src/http/error-status.ts, so that tests can hold the code (and the OpenAPI
 * document generated from it) to what the documentation promises.
 */
import { readFileSync } from 'node:fs';

const GUIDES = [new URL('../../docs/api-guide.md', import.meta.url), new URL('../../docs/admin.md', import.meta.url)];

export function documentedCodes(): Map<string, number> {
  const codes = new Map<string, number>();
  for (const guide of GUIDES) {
    for (const [, status, code] of readFileSync(guide, 'utf8').matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)) {
      const known = codes.get(code!);
      if (known !== undefined && known !== Number(status)) throw new Error(`The guides give ${code} two statuses: ${known} and ${status}`);
      codes.set(code!, Number(status));
    }
  }
  return codes;
}
