/**
 * What test/workerd/global-setup.ts (Node) hands to the config and to the tests in workerd through
 * vitest's provide/inject. No runtime imports: this module is loaded on both sides.
 */

/** The Worker's DATABASE_URL: the Neon driver sends it as a header; the stand-in does not dial it. */
export const WORKERD_DATABASE_URL = 'postgresql://workerd:workerd@neon.standin.test/esign';

export type WorkerdStack = {
  /** The Neon stand-in's `/sql`, for NEON_FETCH_ENDPOINT. */
  sqlEndpoint: string;
  backend: 'postgres' | 'pglite';
  qstash: { url: string; token: string; currentSigningKey: string; nextSigningKey: string };
  /** The local RFC 3161 authority the Worker time-stamps its seals at (TSA_URL). */
  timestampAuthority: { url: string; certificatePem: string };
  /** The PDF Worker as `wrangler deploy` bundles it (wrangler.pdf.toml), bound to the Worker as `PDF`. */
  pdfWorkerScript: string;
  /** What was seeded through the domain functions, for the tests to ask the Worker about. */
  seeded: { companyId: string; apiKey: string; apiKeyId: string; templateId: string; templateName: string };
};

declare module 'vitest' {
  export interface ProvidedContext {
    workerdStack: WorkerdStack;
  }
}
