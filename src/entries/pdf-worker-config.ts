/**
 * The PDF Worker's environment (its secrets and vars), checked once when it starts, as the API
 * Worker's is (worker-config.ts): a missing or malformed variable stops it, named, never its value.
 */
import { sealPemProblems } from '../pdf/seal-pem.js';
import { Reader } from './worker-config.js';

export type PdfWorkerConfig = {
  /** The seal of finished PDFs: a PKCS#8 private key, and its certificate followed by any issuers (PEM). */
  SEAL_KEY_PEM: string;
  SEAL_CERT_PEM: string;
  /** An RFC 3161 time-stamping authority; with it, seals are PAdES B-T. */
  TSA_URL?: string;
};

export function readPdfWorkerConfig(env: Record<string, unknown>): PdfWorkerConfig {
  const { config, problems } = checkPdfWorkerConfig(env);
  if (problems.length > 0) throw new Error(`The PDF Worker's configuration is incomplete: ${problems.join('; ')}.`);
  return config;
}

/** The configuration, and every problem with it (none when it is complete); `npm run deploy:check` reports them. */
export function checkPdfWorkerConfig(env: Record<string, unknown>): { config: PdfWorkerConfig; problems: string[] } {
  const read = new Reader(env);
  const config: PdfWorkerConfig = {
    SEAL_KEY_PEM: read.text('SEAL_KEY_PEM', 1),
    SEAL_CERT_PEM: read.text('SEAL_CERT_PEM', 1),
    TSA_URL: read.optionalUrl('TSA_URL'),
  };
  // Only the PEM shapes here (synchronous, no ASN.1 code at start-up); whether the key is the
  // certificate's needs WebCrypto, so that is checked when the first document is sealed.
  if (config.SEAL_KEY_PEM && config.SEAL_CERT_PEM) read.problems.push(...sealPemProblems(config.SEAL_KEY_PEM, config.SEAL_CERT_PEM));
  return { config, problems: read.problems };
}
