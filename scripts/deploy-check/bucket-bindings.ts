/**
 * Both Workers keep documents in one R2 bucket through their `DOCUMENTS` binding: a Worker deployed
 * without it would fail to start (src/entries/documents-binding.ts), so the deploy is refused before.
 * The configuration is read by wrangler itself, as `wrangler deploy` reads it.
 */
import { unstable_readConfig } from 'wrangler';
import { DOCUMENTS_BINDING } from '../../src/entries/documents-binding.js';
import type { CheckResult } from './checks.js';

export const DOCUMENTS_BUCKET = 'esign-documents';

type Buckets = { binding: string; bucket_name?: string }[];

/** The R2 buckets a wrangler configuration file binds. */
export function readBucketBindings(path: string): Buckets {
  return unstable_readConfig({ config: path }, { hideWarnings: true }).r2_buckets;
}

/** Each Worker (its name, and its configuration's r2_buckets) binds DOCUMENTS, and all to the same bucket. */
export function checkBucketBindings(workers: { name: string; file: string; buckets: Buckets }[]): CheckResult {
  const problems: string[] = [];
  const buckets = new Set<string>();
  for (const worker of workers) {
    const binding = worker.buckets.find((bucket) => bucket.binding === DOCUMENTS_BINDING);
    if (!binding?.bucket_name) {
      problems.push(
        `${worker.name} has no R2 bucket bound as ${DOCUMENTS_BINDING}: add to ${worker.file}\n[[r2_buckets]]\nbinding = "${DOCUMENTS_BINDING}"\nbucket_name = "${DOCUMENTS_BUCKET}"`,
      );
    } else buckets.add(binding.bucket_name);
  }
  if (buckets.size > 1) problems.push(`the Workers bind ${DOCUMENTS_BINDING} to different buckets (${[...buckets].join(', ')}): they must share one`);
  if (problems.length > 0) return { name: 'document bucket', ok: false, detail: problems.join('\n') };
  return {
    name: 'document bucket',
    ok: true,
    detail: `${DOCUMENTS_BINDING} is R2 bucket ${[...buckets][0]} on ${workers.length === 2 ? 'both' : `all ${workers.length}`} Workers (create it once: npx wrangler r2 bucket create ${[...buckets][0]})`,
  };
}
