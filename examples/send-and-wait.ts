/**
 * The TypeScript client end to end against a running server (`npm start`): subscribes a receiver
 * on this machine, sends the demo NDA, signs it as both recipients through their signing links,
 * waits for `envelope.document_ready` (each delivery verified), and saves the finished PDF.
 *
 *   npx tsx examples/send-and-wait.ts [out.pdf]
 *
 * BASE_URL and API_KEY default to the embedded server's address and demo key. Every wait is
 * bounded: the script ends by itself, with exit code 1 if something did not happen in time.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ESignClient, type WebhookEvent, verifyWebhook } from '../clients/typescript/src/index.js';

const baseUrl = (process.env.BASE_URL ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
const apiKey = process.env.API_KEY ?? 'esk_test_acme_full_5Qm3x9Lr2Vt8Wp4Nz7Hc';
const outFile = process.argv[2] ?? 'signed-nda.pdf';
const NDA_TEMPLATE = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';
const WAIT_MS = Number(process.env.WAIT_SECONDS ?? 90) * 1000;

const client = new ESignClient({ baseUrl, apiKey });

/** The receiver: verified events in order; a delivery whose signature fails is refused with 400. */
let secret = '';
const events: WebhookEvent[] = [];
let onEvent = () => {};
const receiver = createServer(async (request, response) => {
  const body = await readBody(request);
  try {
    events.push(verifyWebhook(body, request.headers as Record<string, string>, secret));
    response.writeHead(204).end();
    onEvent();
  } catch {
    console.error('Refused a delivery whose signature did not verify.');
    response.writeHead(400).end();
  }
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/esign`;

let subscriptionId: string | undefined;
try {
  const subscription = await client.createWebhook({
    url: receiverUrl,
    events: ['envelope.signed', 'envelope.completed', 'envelope.document_ready'],
    description: 'send-and-wait example',
  });
  subscriptionId = subscription.id;
  secret = subscription.secret;
  console.log(`Subscribed ${receiverUrl}`);

  const envelope = await client.sendEnvelope(
    {
      template_id: NDA_TEMPLATE,
      recipients: [
        { role: 'Client', name: 'Ada Client', email: 'ada.client@example.com' },
        { role: 'Witness', name: 'Will Witness', email: 'will.witness@example.com' },
      ],
    },
    { idempotencyKey: `send-and-wait-${Date.now()}` },
  );
  console.log(`Sent envelope ${envelope.envelope_id}`);

  const links = envelope.signing_urls ?? (await client.getSigningLinks(envelope.envelope_id)).signing_urls;
  for (const link of links) {
    if (!link.signing_url) continue;
    await signThroughPage(link.signing_url, link.name);
    console.log(`Signed as ${link.name}`);
  }

  const ready = await waitForEvent((event) => event.type === 'envelope.document_ready' && event.data.envelope.envelope_id === envelope.envelope_id);
  console.log(`Received ${events.length} verified deliveries, the last ${ready.type}`);

  const document = ready.type === 'envelope.document_ready' ? ready.data.document : undefined;
  if (!document?.download_url && !document?.content_base64) throw new Error('The document_ready event carried neither the PDF nor its link.');
  const pdf = document.download_url ? await client.downloadDocument(document.download_url) : Buffer.from(document.content_base64!, 'base64');
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  if (sha256 !== document.sha256) throw new Error('The PDF does not match the SHA-256 the event announced.');
  await writeFile(outFile, pdf);
  console.log(`Wrote ${outFile} (${pdf.length} bytes), SHA-256 ${sha256}`);
} finally {
  if (subscriptionId) await client.deleteWebhook(subscriptionId).catch(() => {});
  receiver.close();
  receiver.closeAllConnections();
}

/** Posts the signing form as a signer's browser would: its token, the consent, every field filled. */
async function signThroughPage(signingUrl: string, typed: string) {
  const page = await fetch(signingUrl);
  const html = await page.text();
  const formToken = /name="form_token" value="([^"]+)"/.exec(html)?.[1];
  if (page.status !== 200 || !formToken) throw new Error(`The signing page answered ${page.status} without a form.`);
  const form = new URLSearchParams({ form_token: formToken, consent: 'yes' });
  for (const [, name] of html.matchAll(/name="(field\.[^"]+)"/g)) form.set(name!, typed);
  const posted = await fetch(signingUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(signingUrl).origin },
    body: form,
  });
  if (posted.status !== 303) throw new Error(`Signing answered ${posted.status}, not the redirect that follows a signature.`);
}

function waitForEvent(matches: (event: WebhookEvent) => boolean): Promise<WebhookEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No matching webhook delivery within ${WAIT_MS / 1000} s.`)), WAIT_MS);
    onEvent = () => {
      const found = events.find(matches);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    onEvent();
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
