/**
 * One document's way through a running server, step by step, as its users take it: the operator
 * imports the template (admin API), an integrator sends it to two signers, each signer's browser
 * views the document as pdf.js does and signs through the form, the queue finishes the envelope,
 * the integrator's receiver takes `envelope.document_ready` with the PDF inline, and follows its
 * download link. Each step's start and end are kept for the memory read meanwhile.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const STEPS = ['import', 'send', 'view', 'sign 1', 'filled copy', 'sign 2', 'finish', 'webhook', 'download'] as const;
export type StepName = (typeof STEPS)[number];
export type StepResult = { step: StepName; from: number; to: number; ok: boolean; reason?: string; detail?: string };

/** A failed answer: its status and the start of its body, which says why (a 5xx, an exceeded memory…). */
class StepFailed extends Error {}

/** A webhook delivery as the receiver saw it: when its headers came, when its body ended, the body. */
type Delivery = { path: string; headersAt: number; endedAt?: number; body?: Buffer };

/** The integrator's webhook endpoint: takes every delivery at once (200), keeps it. */
export async function webhookReceiver(): Promise<{ url: string; deliveries: Delivery[]; close: () => Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const delivery: Delivery = { path: req.url ?? '', headersAt: performance.now() };
    deliveries.push(delivery);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      delivery.body = Buffer.concat(chunks);
      delivery.endedAt = performance.now();
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deliveries,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const until = async <T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new StepFailed(`no ${what} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

export type FlowOptions = {
  base: string;
  adminToken: string;
  document: Uint8Array;
  /** Names this run's company, subscription path and people. */
  label: string;
  receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  /** Called before each step that starts on its own: a full collection in every isolate. */
  settle: () => Promise<unknown>;
  finishTimeoutMs: number;
};

/** Runs the steps in order; the first that fails ends the run, the rest reported as not reached. */
export async function documentFlow(o: FlowOptions): Promise<{ steps: StepResult[]; finished?: Uint8Array }> {
  const call = async (path: string, init: RequestInit & { expect: number[] }) => {
    const answer = await fetch(`${o.base}${path}`, { redirect: 'manual', ...init, signal: AbortSignal.timeout(o.finishTimeoutMs) });
    const body = new Uint8Array(await answer.arrayBuffer());
    if (!init.expect.includes(answer.status)) {
      throw new StepFailed(
        `${init.method ?? 'GET'} ${path.replace(/\/sign\/[^/]+/, '/sign/…')} answered ${answer.status}: ${Buffer.from(body.slice(0, 200)).toString()}`,
      );
    }
    return { status: answer.status, headers: answer.headers, body, json: <T = { id: string }>() => JSON.parse(Buffer.from(body).toString()) as T };
  };
  const admin = { authorization: `Bearer ${o.adminToken}` };
  const json = { 'content-type': 'application/json' };

  // Not measured: a company of its own, its owner, a key, and the subscription.
  const company = (
    await call('/admin/v1/companies', {
      method: 'POST',
      headers: { ...admin, ...json },
      body: JSON.stringify({ name: o.label, api_signature_requests_per_period: 1000 }),
      expect: [201],
    })
  ).json();
  const owner = `owner.${o.label}@bench.test`;
  await call(`/admin/v1/companies/${company.id}/users/${owner}`, {
    method: 'PUT',
    headers: { ...admin, ...json },
    body: JSON.stringify({ name: 'Bench Owner', role: 'owner', esign_seat: true }),
    expect: [200, 201],
  });
  const scopes = ['envelopes:send', 'templates:read', 'webhooks:read', 'webhooks:write'];
  const key = (
    await call(`/admin/v1/companies/${company.id}/api-keys`, {
      method: 'POST',
      headers: { ...admin, ...json },
      body: JSON.stringify({ owner, scopes }),
      expect: [201],
    })
  ).json<{ key: string }>();
  const { access_token } = (await call('/v1/auth/token', { method: 'POST', headers: json, body: JSON.stringify({ api_key: key.key }), expect: [200] })).json<{
    access_token: string;
  }>();
  const bearer = { authorization: `Bearer ${access_token}`, ...json };
  const hookPath = `/hooks/${o.label}`;
  await call('/v1/webhooks', {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({ url: `${o.receiver.url}${hookPath}`, events: ['envelope.document_ready'] }),
    expect: [201],
  });

  const steps: StepResult[] = [];
  const state: { templateId?: string; tokens?: string[]; ready?: Delivery; link?: string; finished?: Uint8Array } = {};
  const sign = async (token: string, typed: string) => {
    const page = Buffer.from((await call(`/sign/${token}`, { expect: [200] })).body).toString();
    const form = new URLSearchParams({ form_token: /name="form_token" value="([^"]+)"/.exec(page)?.[1] ?? '', consent: 'yes' });
    for (const [, name] of page.matchAll(/name="(field\.[^"]+)"/g)) form.set(name!, typed);
    await call(`/sign/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: o.base },
      body: form,
      expect: [303],
    });
  };
  const work: Record<StepName, () => Promise<string | undefined>> = {
    import: async () => {
      const form = new FormData();
      form.set('template', JSON.stringify(twoSignerTemplate(o.label)));
      form.set('document', new Blob([o.document as BlobPart], { type: 'application/pdf' }), `${o.label}.pdf`);
      state.templateId = (await call(`/admin/v1/companies/${company.id}/templates`, { method: 'POST', headers: admin, body: form, expect: [201] })).json().id;
      return undefined;
    },
    send: async () => {
      const recipients = ['Client', 'Witness'].map((role) => ({ role, name: `${role} Bench`, email: `${role.toLowerCase()}.${o.label}@bench.test` }));
      const sent = (
        await call('/v1/envelopes/from-template', {
          method: 'POST',
          headers: bearer,
          body: JSON.stringify({ template_id: state.templateId, recipients }),
          expect: [201],
        })
      ).json<{ signing_urls: { signing_url: string | null }[] }>();
      state.tokens = sent.signing_urls.flatMap((s) => (s.signing_url ? [s.signing_url.split('/sign/')[1]!] : []));
      return undefined;
    },
    view: async () => {
      // pdf.js: the whole file first; where ranges are offered, the end (the cross-reference) and the start in chunks.
      // The page's own link to its document, as the browser follows it.
      const page = Buffer.from((await call(`/sign/${state.tokens![0]}`, { expect: [200] })).body).toString();
      const path = (/href="(\/sign\/[^"]+\/document[^"]*)"/.exec(page)?.[1] ?? `/sign/${state.tokens![0]}/document.pdf`).replace(/&amp;/g, '&');
      const whole = await call(path, { expect: [200] });
      if (whole.headers.get('accept-ranges') !== 'bytes') return `whole ${whole.body.length} B; no Accept-Ranges`;
      const size = whole.body.length;
      const chunk = 65536;
      const tail = await call(path, { headers: { range: `bytes=${Math.max(0, size - chunk)}-${size - 1}` }, expect: [206] });
      const head = await call(path, { headers: { range: `bytes=0-${chunk - 1}` }, expect: [206] });
      return `whole ${size} B; ranges answered ${tail.body.length} B and ${head.body.length} B`;
    },
    'sign 1': () => sign(state.tokens![0]!, 'Client Bench').then(() => undefined),
    // The second signer's "Download the PDF": the original with the first signer's values drawn by the PDF work, whole.
    'filled copy': async () => {
      const page = Buffer.from((await call(`/sign/${state.tokens![1]}`, { expect: [200] })).body).toString();
      const path = /href="(\/sign\/[^"]+\/document\.pdf\?filled=1[^"]*)"/.exec(page)?.[1]?.replace(/&amp;/g, '&');
      if (!path) throw new Error("the second signer's page links no filled copy");
      const copy = await call(path, { expect: [200] });
      const added = copy.body.length - o.document.length;
      if (added <= 0) throw new Error(`the filled copy is ${copy.body.length} B, no longer than the original`);
      return `whole ${copy.body.length} B: the original and a ${added} B update`;
    },
    'sign 2': () => sign(state.tokens![1]!, 'Witness Bench').then(() => undefined),
    // The job's end is not seen from outside: the finish lasts until the delivery of document_ready begins.
    finish: async () => {
      state.ready = await until('envelope.document_ready delivery', o.finishTimeoutMs, () => o.receiver.deliveries.find((d) => d.path === hookPath));
      return undefined;
    },
    webhook: async () => {
      const ready = await until('end of the delivery', o.finishTimeoutMs, () => (state.ready!.body ? state.ready : undefined));
      const document = (JSON.parse(ready.body!.toString()) as { data: { document: { content_base64: string; sha256: string; download_url: string } } }).data
        .document;
      const pdf = Buffer.from(document.content_base64, 'base64');
      if (createHash('sha256').update(pdf).digest('hex') !== document.sha256) throw new StepFailed('the inline PDF does not match its sha256');
      state.link = document.download_url;
      return `delivery of ${ready.body!.length} B`;
    },
    download: async () => {
      const answer = await fetch(state.link!, { signal: AbortSignal.timeout(o.finishTimeoutMs) });
      if (answer.status !== 200) throw new StepFailed(`the download link answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
      state.finished = new Uint8Array(await answer.arrayBuffer());
      return `${state.finished.length} B`;
    },
  };
  for (const step of STEPS) {
    if (steps.some((s) => !s.ok)) {
      steps.push({ step, from: Number.NaN, to: Number.NaN, ok: false, reason: 'not reached' });
      continue;
    }
    // The finish and the delivery follow the last signature on their own: no collection in between.
    process.stderr.write(`  ${step}…\n`);
    if (step !== 'finish' && step !== 'webhook') await o.settle();
    const from = step === 'webhook' ? (state.ready?.headersAt ?? performance.now()) : performance.now();
    try {
      const detail = await work[step]();
      const to = step === 'finish' ? state.ready!.headersAt : step === 'webhook' ? state.ready!.endedAt! : performance.now();
      steps.push({ step, from, to, ok: true, ...(detail ? { detail } : {}) });
    } catch (err) {
      const reason = err instanceof StepFailed ? err.message : `${(err as Error).name}: ${(err as Error).message}`;
      steps.push({ step, from, to: performance.now(), ok: false, reason });
    }
  }
  return { steps, ...(state.finished ? { finished: state.finished } : {}) };
}

/** The demo NDA's shape: two signers, each with a signature and a name on the first page. */
function twoSignerTemplate(label: string) {
  const roles = ['Client', 'Witness'];
  return {
    name: `Bench document ${label}`,
    signing_order: 'parallel',
    // The send answers with the signing links, which the signers' browsers here open.
    share_signing_links: true,
    roles: roles.map((name, i) => ({ name, type: 'signer', order: i + 1 })),
    fields: roles.flatMap((role, i) => [
      { role, type: 'signature', page: 1, x: 72, y: 600 + i * 60, width: 200, height: 40, required: true },
      { role, type: 'text', page: 1, x: 300, y: 610 + i * 60, width: 200, height: 20, required: false },
    ]),
  };
}
