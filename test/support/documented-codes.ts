/**
 * The error codes as the README states them to integrators: every row `| status | \`code\` | … |`
 * of its tables. A statement written apart from src/errors.ts, so that tests can hold the code
 * (and the OpenAPI document generated from it) to what the documentation promises.
 */
import { readFileSync } from 'node:fs';

const README = new URL('../../README.md', import.meta.url);

export function documentedCodes(): Map<string, number> {
  const codes = new Map<string, number>();
  for (const [, status, code] of readFileSync(README, 'utf8').matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)) {
    const known = codes.get(code!);
    if (known !== undefined && known !== Number(status)) throw new Error(`The README gives ${code} two statuses: ${known} and ${status}`);
    codes.set(code!, Number(status));
  }
  return codes;
}
