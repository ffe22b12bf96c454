/**
 * Verification codes by text message on workerd with the production adapters: the numbering plans
 * bundled into the Worker refuse a number none has, the limit per number holds for codes asked
 * for at once over the Neon driver's batches, and what reaches Twilio's stand-in is the company's
 * name and the code, without the sender's title.
 */
import { describe, expect, inject, it } from 'vitest';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { unique } from '../support/unique.js';
import { api } from './client.js';
import { base, page } from './signing-client.js';

const ACME = '7b0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60';

/** A one-signer template of Acme's whose signer gets a code by text message. */
async function textedTemplate(): Promise<string> {
  const form = new FormData();
  form.set(
    'template',
    JSON.stringify({
      name: `Texted ${unique()}`,
      signing_order: 'parallel',
      share_signing_links: true,
      roles: [{ name: 'Signer', type: 'signer', order: 1, verification: 'sms_code' }],
      fields: [{ role: 'Signer', type: 'signature', page: 1, x: 72, y: 72, width: 150, height: 40 }],
    }),
  );
  form.set('document', new Blob([(await generateDocument('Texted', 1, nodeFontSource())) as BlobPart], { type: 'application/pdf' }), 'texted.pdf');
  const answer = await fetch(`${base()}/admin/v1/companies/${ACME}/templates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inject('e2eAdminToken')}` },
    body: form,
  });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}

/** "Send me the code" on the link's page, as a browser without script posts it. */
async function askForCode(token: string) {
  const shown = await page(`/sign/${token}`);
  const formToken = /name="form_token" value="([^"]+)"/.exec(shown.text)![1]!;
  return page(`/sign/${token}/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base() },
    body: new URLSearchParams({ form_token: formToken, lang: 'en' }),
  });
}

describe('verification codes by text message, on workerd', () => {
  it('refuses a number no plan has, and texts one number five codes of six asked for at once: the company’s name and the code only', async () => {
    const templateId = await textedTemplate();
    const send = (number: string) =>
      api('POST', '/v1/envelopes/from-template', {
        token: inject('acmeSenderToken'),
        body: {
          template_id: templateId,
          title: 'Urgent: confirm at https://evil.example/login',
          recipients: [{ role: 'Signer', name: 'Sam Signer', email: `sam-${unique()}@example.test`, contact_number: number }],
        },
      });
    const refused = await send('+999999999999999');
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('validation_failed');
    expect(refused.body.error.details.issues).toEqual([expect.objectContaining({ path: 'recipients[0].contact_number' })]);

    const number = `+447400${String(Date.now() % 1_000_000).padStart(6, '0')}`;
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) {
      const sent = await send(number);
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      tokens.push((sent.body.signing_urls as { signing_url: string }[])[0]!.signing_url.split('/sign/')[1]!);
    }
    const answers = await Promise.all(tokens.map(askForCode));
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 303, 303, 303, 303, 429]);

    const box = (await (await fetch(`${base()}/dev/sms.json`)).json()) as { data: { to: string; body: string }[] };
    const texts = box.data.filter((sms) => sms.to === number);
    expect(texts).toHaveLength(5);
    for (const text of texts) {
      expect(text.body).toMatch(/^\d{6} is your code from .+\. Do not share it\.$/);
      expect(text.body).not.toContain('evil');
      expect(text.body.length).toBeLessThanOrEqual(160);
    }
  });
});
