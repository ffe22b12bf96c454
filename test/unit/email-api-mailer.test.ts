/**
 * The production mailer against the e-mail API stand-in, through its fetch handler (no network):
 * what it sends, that a repeat with the same idempotency key sends one e-mail, that every failure
 * throws (so the queue tries again), and that no error tells the API key or the e-mail.
 */
import { describe, expect, it, vi } from 'vitest';
import { createEmailApiStandin, type EmailApiStandinOptions } from '../../local/standins/email-api.js';
import { EmailApiError, EmailApiMailer, type EmailApiMailerOptions } from '../../src/adapters/production/email-api-mailer.js';
import type { Email } from '../../src/ports/mailer.js';
import { eventually } from '../support/eventually.js';

const apiKey = 're_mailer-test-S3CR3T';
const url = 'http://email.standin.test/emails';
const link = 'https://esign.example.test/sign/s3cr3t-signing-token';

const email = (overrides: Partial<Email> = {}): Email => ({
  to: { name: 'Cleo <Client>', email: 'cleo@example.test' },
  subject: 'Please sign the NDA',
  text: `Review and sign: ${link}`,
  tags: { envelope_id: 'env_1', kind: 'signing_request' },
  idempotencyKey: 'env_1.rcp_1.request',
  ...overrides,
});

type Seen = { url: string; method: string; headers: Record<string, string>; body: unknown };

/** A mailer whose requests go to a stand-in's fetch handler, recorded, and abandoned as the signal says. */
function mailerOverStandin(options: { standin?: EmailApiStandinOptions; mailer?: EmailApiMailerOptions; key?: string } = {}) {
  const standin = createEmailApiStandin(apiKey, options.standin);
  const seen: Seen[] = [];
  const viaStandin = async (target: string, init: RequestInit) => {
    const request = new Request(target, init);
    seen.push({ url: request.url, method: request.method, headers: Object.fromEntries(request.headers), body: await request.clone().json() });
    return new Promise<Response>((resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(init.signal!.reason));
      Promise.resolve(standin.fetch(request)).then(resolve, reject);
    });
  };
  const mailer = new EmailApiMailer({ url, apiKey: options.key ?? apiKey, from: 'Acme Sign <sign@acme.test>' }, { fetch: viaStandin, ...options.mailer });
  return { standin, mailer, seen };
}

/** Runs a send that must fail, and returns its error. */
async function failure(send: Promise<void>): Promise<EmailApiError> {
  const err = await send.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(err).toBeInstanceOf(EmailApiError);
  return err as EmailApiError;
}

const expectNoSecret = (err: Error) => {
  for (const told of [err.message, String(err.stack), JSON.stringify(err)]) {
    expect(told).not.toContain(apiKey);
    expect(told).not.toContain(link);
    expect(told).not.toContain('cleo@example.test');
  }
  expect((err as { cause?: unknown }).cause).toBeUndefined();
};

describe('EmailApiMailer', () => {
  it('posts the e-mail to EMAIL_API_URL with the key, the idempotency key and Resend’s body', async () => {
    const { standin, mailer, seen } = mailerOverStandin();
    await mailer.send(email({ html: '<p>Sign</p>' }));
    expect(seen).toEqual([
      {
        url,
        method: 'POST',
        headers: expect.objectContaining({ authorization: `Bearer ${apiKey}`, 'idempotency-key': 'env_1.rcp_1.request', 'content-type': 'application/json' }),
        body: {
          from: 'Acme Sign <sign@acme.test>',
          to: ['Cleo Client <cleo@example.test>'],
          subject: 'Please sign the NDA',
          text: `Review and sign: ${link}`,
          html: '<p>Sign</p>',
          tags: [
            { name: 'envelope_id', value: 'env_1' },
            { name: 'kind', value: 'signing_request' },
          ],
        },
      },
    ]);
    expect(standin.mailbox.list()).toMatchObject([
      { to: { name: 'Cleo Client', email: 'cleo@example.test' }, subject: 'Please sign the NDA', html: '<p>Sign</p>' },
    ]);
  });

  it('sends one e-mail however often it is asked with the same key', async () => {
    const { standin, mailer, seen } = mailerOverStandin();
    await mailer.send(email());
    await mailer.send(email()); // the provider's replay of its first answer is success
    expect(seen).toHaveLength(2);
    expect(standin.mailbox.list()).toHaveLength(1);
    await mailer.send(email({ idempotencyKey: 'env_1.rcp_1.reminder.1', subject: 'Reminder: Please sign the NDA' }));
    expect(standin.mailbox.list().map((mail) => mail.subject)).toEqual(['Reminder: Please sign the NDA', 'Please sign the NDA']);
  });

  it('a timeout throws; the retry with the same key finds the e-mail sent and sends no second', async () => {
    const { standin, mailer } = mailerOverStandin({ standin: { latencyMs: 100 }, mailer: { timeoutMs: 20 } });
    const err = await failure(mailer.send(email()));
    expect(err.message).toBe('The e-mail API did not answer within 20 ms.');
    expect(err.unconfirmed).toBe(true);
    expectNoSecret(err);
    // The provider still finishes the e-mail it was given.
    await vi.waitFor(() => expect(standin.mailbox.list()).toHaveLength(1), eventually);
    await mailer.send(email());
    expect(standin.mailbox.list()).toHaveLength(1);
  });

  it('throws on 409 for the same key still in flight, and on the same key with other content', async () => {
    const { standin, mailer } = mailerOverStandin({ standin: { latencyMs: 50 } });
    const first = mailer.send(email());
    // A head start for the first request, well inside the stand-in's latency, so that the second finds it in flight.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const concurrent = await failure(mailer.send(email()));
    expect(concurrent).toMatchObject({ status: 409, message: 'The e-mail API answered 409 (concurrent_idempotent_requests).' });
    await first;
    const changed = await failure(mailer.send(email({ text: `Changed: ${link}` })));
    expect(changed).toMatchObject({ status: 409, message: 'The e-mail API answered 409 (invalid_idempotent_request).' });
    for (const err of [concurrent, changed]) expectNoSecret(err);
    expect(standin.mailbox.list()).toHaveLength(1);
  });

  it('throws on a refused key, without the key or the e-mail in the error', async () => {
    const { standin, mailer } = mailerOverStandin({ key: `${apiKey}-wrong` });
    const err = await failure(mailer.send(email()));
    expect(err).toMatchObject({ status: 401, message: 'The e-mail API answered 401 (invalid_api_key).' });
    // An answer, a refusal: surely not sent.
    expect(err.unconfirmed).toBe(false);
    expectNoSecret(err);
    expect(err.message).not.toContain(`${apiKey}-wrong`);
    expect(standin.mailbox.list()).toEqual([]);
  });

  it('tells only the provider’s error name, never its message, which may quote the e-mail', async () => {
    const echo = (status: number, name: unknown) => async (_target: string, init: RequestInit) =>
      Response.json({ statusCode: status, name, message: `Refused ${String(init.body)} for ${JSON.stringify(init.headers)}` }, { status });
    const send = (status: number, name: unknown) =>
      failure(new EmailApiMailer({ url, apiKey, from: 'a@acme.test' }, { fetch: echo(status, name) }).send(email()));
    const unprocessable = await send(422, 'validation_error');
    expect(unprocessable).toMatchObject({ status: 422, message: 'The e-mail API answered 422 (validation_error).' });
    const strange = await send(500, `${apiKey} ${link}`);
    expect(strange).toMatchObject({ status: 500, message: 'The e-mail API answered 500.' });
    for (const err of [unprocessable, strange]) expectNoSecret(err);
    const notJson = await failure(
      new EmailApiMailer({ url, apiKey, from: 'a@acme.test' }, { fetch: async () => new Response('<html>Bad gateway</html>', { status: 502 }) }).send(email()),
    );
    expect(notJson).toMatchObject({ status: 502, message: 'The e-mail API answered 502.' });
  });

  it('throws when the API cannot be reached, without the client’s error', async () => {
    const unreachable = async (target: string, init: RequestInit) => {
      throw new TypeError(`fetch failed for ${target}: ${String(init.body)} ${apiKey}`);
    };
    const err = await failure(new EmailApiMailer({ url, apiKey, from: 'a@acme.test' }, { fetch: unreachable }).send(email()));
    expect(err.message).toBe('The e-mail API could not be reached (TypeError).');
    expectNoSecret(err);
  });
});
