/** The PDF Worker's configuration check (the seal and its authority), run where that Worker runs. */
import { describe, expect, it } from 'vitest';
import { readPdfWorkerConfig } from '../../src/entries/pdf-worker-config.js';
import { TEST_SEAL_CERT_PEM, TEST_SEAL_KEY_PEM } from '../support/seal-fixture.js';

const complete = { SEAL_KEY_PEM: TEST_SEAL_KEY_PEM, SEAL_CERT_PEM: TEST_SEAL_CERT_PEM };

function problemWith(environment: Record<string, unknown>): string {
  try {
    readPdfWorkerConfig(environment);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

/** Names the variable, and leaks neither the value given nor any of the key's text (base64 DER starts MII). */
function expectRefusal(environment: Record<string, unknown>, name: string) {
  const message = problemWith(environment);
  expect(message, `${name} should be refused`).toMatch(/^The PDF Worker's configuration is incomplete: /);
  expect(message).toContain(name);
  expect(message).not.toMatch(/S3CR3T|MII/);
  for (const value of Object.values(environment)) if (typeof value === 'string' && value.length >= 3) expect(message).not.toContain(value);
}

describe('readPdfWorkerConfig', () => {
  it('accepts the seal, with or without a time-stamping authority', () => {
    expect(readPdfWorkerConfig(complete)).toEqual({ ...complete, TSA_URL: undefined });
    expect(readPdfWorkerConfig({ ...complete, TSA_URL: 'https://user:pw@tsa.example.test/tsr' }).TSA_URL).toBe('https://user:pw@tsa.example.test/tsr');
  });

  it.each(['SEAL_KEY_PEM', 'SEAL_CERT_PEM'] as const)('refuses an env without %s, or with it empty, naming it', (name) => {
    const { [name]: _, ...rest } = complete;
    expectRefusal(rest, name);
    expectRefusal({ ...complete, [name]: '' }, name);
  });

  it.each([
    ['SEAL_KEY_PEM', 'S3CR3T garbage, not PEM'],
    ['SEAL_KEY_PEM', '-----BEGIN PRIVATE KEY-----\nS3CR3T*not*base64\n-----END PRIVATE KEY-----\n'],
    ['SEAL_KEY_PEM', '-----BEGIN RSA PRIVATE KEY-----\nMIIS3CR3T0==\n-----END RSA PRIVATE KEY-----\n'],
    ['SEAL_KEY_PEM', TEST_SEAL_CERT_PEM],
    ['SEAL_CERT_PEM', 'S3CR3T garbage, not PEM'],
    ['SEAL_CERT_PEM', TEST_SEAL_KEY_PEM],
    ['TSA_URL', 'tsa.example.test/S3CR3T'],
    ['TSA_URL', 'ftp://user:S3CR3T@tsa.example.test/'],
  ])('refuses a malformed %s (%s), naming it', (name, value) => {
    expectRefusal({ ...complete, [name]: value }, name);
  });
});
