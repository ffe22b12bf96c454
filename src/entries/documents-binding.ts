/**
 * The `DOCUMENTS` binding: the R2 bucket both Workers keep documents in ([[r2_buckets]] in
 * wrangler.toml and wrangler.pdf.toml). Without it a Worker could answer requests that need a
 * document only with an error, so it does not start.
 */
import type { R2Bucket } from '@cloudflare/workers-types/index.js';

export const DOCUMENTS_BINDING = 'DOCUMENTS';

/** What is wrong with the binding, or nothing; `npm run deploy:check` reports it with the rest. */
export function documentsBindingProblems(env: Record<string, unknown>): string[] {
  const bucket = env[DOCUMENTS_BINDING] as Partial<R2Bucket> | undefined;
  if (bucket && typeof bucket.createMultipartUpload === 'function' && typeof bucket.get === 'function') return [];
  return [`${DOCUMENTS_BINDING} must be an R2 bucket binding ([[r2_buckets]] binding = "${DOCUMENTS_BINDING}", bucket_name = "esign-documents")`];
}

export function documentsBucket(env: Record<string, unknown>, worker: string): R2Bucket {
  const problems = documentsBindingProblems(env);
  if (problems.length > 0) throw new Error(`${worker}'s configuration is incomplete: ${problems.join('; ')}.`);
  return env[DOCUMENTS_BINDING] as R2Bucket;
}
