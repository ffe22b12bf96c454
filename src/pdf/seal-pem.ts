/**
 * The sealing identity's PEM text, checked for shape only: synchronous and without the ASN.1 code,
 * so that the Worker can run it in its global scope when it starts (see seal-identity.ts for the
 * rest of the checks). Messages name the variable, never the PEM text: the key is a secret.
 */

/** The PEM text as configured (SEAL_KEY_PEM, SEAL_CERT_PEM) or as kept by the embedded server. */
export type SealSource = { keyPem: string; certPem: string };

export type PemBlock = { label: string; der: Uint8Array<ArrayBuffer> };

export function pemBlocks(text: string): PemBlock[] | undefined {
  const blocks: PemBlock[] = [];
  const pattern = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const body = match[2]!.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 !== 0) return undefined;
    const binary = atob(body);
    const der = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) der[i] = binary.charCodeAt(i);
    // Every PEM body we take is one DER SEQUENCE.
    if (der[0] !== 0x30) return undefined;
    blocks.push({ label: match[1]!, der });
  }
  return blocks;
}

/** What is wrong with the PEM shapes, one line each naming the variable; [] when both look right. */
export function sealPemProblems(keyPem: string, certPem: string, names = { key: 'SEAL_KEY_PEM', cert: 'SEAL_CERT_PEM' }): string[] {
  const problems: string[] = [];
  const keys = pemBlocks(keyPem);
  if (keys?.length !== 1 || keys[0]!.label !== 'PRIVATE KEY') {
    problems.push(`${names.key} must hold exactly one unencrypted PKCS#8 private key (-----BEGIN PRIVATE KEY-----)`);
  }
  const certs = pemBlocks(certPem);
  if (!certs || certs.length === 0 || certs.some((block) => block.label !== 'CERTIFICATE')) {
    problems.push(`${names.cert} must hold the sealing certificate, then any issuing certificates (-----BEGIN CERTIFICATE-----)`);
  }
  return problems;
}
