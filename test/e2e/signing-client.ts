/** A signer's browser without JavaScript, against the `npm run dev` server of the e2e run. */
import { expect, inject } from 'vitest';
import { signingBrowser } from '../support/signing-browser.js';
import { api } from './client.js';

export const base = () => inject('e2eBaseUrl');
export const { page, signThroughPage } = signingBrowser(base);

/** The seeded NDA (template 2f6d8e1a-…) sent to a client and a witness with `token`, both signing through the page. */
export async function sendAndSignSeededNda(token: string): Promise<{ envelopeId: string }> {
  const tag = crypto.randomUUID().slice(0, 8);
  const sent = await api('POST', '/v1/envelopes/from-template', {
    token,
    body: {
      template_id: '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50',
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: `cleo-${tag}@example.test` },
        { role: 'Witness', name: 'Will Witness', email: `will-${tag}@example.test` },
      ],
    },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const [client, witness] = (sent.body.signing_urls as { signing_url: string | null }[]).flatMap((entry) =>
    entry.signing_url ? [entry.signing_url.split('/sign/')[1]!] : [],
  );
  await signThroughPage(client!, 'Cleo Client');
  await signThroughPage(witness!, 'Will Witness');
  return { envelopeId: sent.body.envelope_id as string };
}
