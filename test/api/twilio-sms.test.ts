/**
 * The production text-message adapter against a local server that answers as Twilio's Messages
 * API does: the request's shape and auth, a Messaging Service as the sender, Twilio's refusals
 * told without the number or the code, and the timeout. Also the Worker's Twilio settings.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwilioSms, TwilioSmsError } from '../../src/adapters/production/twilio-sms.js';
import { checkWorkerConfig } from '../../src/entries/worker-config.js';

const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'twilio-auth-S3CR3T';

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
let server: Server;
let api: string;
const seen: Seen[] = [];
/** How the server answers the next request; by default Twilio's 201 with the message resource. */
let answer: (response: ServerResponse) => void;
const created = (response: ServerResponse) => {
  response.writeHead(201, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ sid: `SM${'a'.repeat(32)}`, status: 'queued' }));
};
/** Requests held without an answer (the timeout case), ended when the file is done. */
const held: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of held) response.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const sms = (from = '+15005550006', timeoutMs?: number) =>
  new TwilioSms({ accountSid: SID, authToken: TOKEN, from, apiUrl: api }, timeoutMs ? { timeoutMs } : {});

describe('TwilioSms', () => {
  it('posts To, From and Body form-encoded to the account’s Messages resource, under basic auth', async () => {
    answer = created;
    seen.length = 0;
    await sms().send({ to: '+447700900789', body: '123456 is your code to open "Lease & Co" from Acme.', tags: { recipient_id: 'rcp_x' } });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({
      To: '+447700900789',
      From: '+15005550006',
      Body: '123456 is your code to open "Lease & Co" from Acme.',
    });
  });

  it('sends from a Messaging Service when TWILIO_FROM names one', async () => {
    answer = created;
    seen.length = 0;
    const service = `MG${'f'.repeat(32)}`;
    await sms(service).send({ to: '+14155550100', body: 'x' });
    const form = Object.fromEntries(new URLSearchParams(seen[0]!.body));
    expect(form).toEqual({ To: '+14155550100', Body: 'x', MessagingServiceSid: service });
  });

  it('throws on a refusal, naming the status and Twilio’s error code, never the number, the body or the token', async () => {
    answer = (response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 21211, message: "The 'To' number +447700900789 is not a valid phone number.", status: 400 }));
    };
    const failure = await sms()
      .send({ to: '+447700900789', body: '654321 is your code' })
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(TwilioSmsError);
    expect((failure as TwilioSmsError).status).toBe(400);
    // An answer, a refusal: surely not sent.
    expect((failure as TwilioSmsError).unconfirmed).toBe(false);
    expect((failure as Error).message).toBe('Twilio answered 400 (error 21211).');
    for (const secret of ['+447700900789', '654321', TOKEN]) expect(String((failure as Error).stack)).not.toContain(secret);
  });

  it('gives up after its timeout when Twilio does not answer', async () => {
    answer = (response) => held.push(response);
    const failure = await sms('+15005550006', 200)
      .send({ to: '+447700900789', body: '111111' })
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(TwilioSmsError);
    expect((failure as Error).message).toBe('Twilio did not answer within 200 ms.');
    // No answer: the message may have gone out.
    expect((failure as TwilioSmsError).unconfirmed).toBe(true);
  });

  it('throws when Twilio cannot be reached', async () => {
    const unreachable = new TwilioSms({ accountSid: SID, authToken: TOKEN, from: '+15005550006', apiUrl: 'http://127.0.0.1:1' });
    await expect(unreachable.send({ to: '+447700900789', body: '1' })).rejects.toThrow(/^Twilio could not be reached/);
  });
});

describe('the Worker’s Twilio settings', () => {
  const complete = {
    DATABASE_URL: 'postgresql://esign:pw@db.example.test/esign',
    ALLOW_IN_PROCESS_LIMITS: 'true',
    QSTASH_TOKEN: 'q',
    QSTASH_CURRENT_SIGNING_KEY: 'c',
    QSTASH_NEXT_SIGNING_KEY: 'n',
    TOKEN_SECRET: 'token-0123456789abcdefghijklmnopqrstuv',
    BASE_URL: 'https://esign.example.test',
    EMAIL_API_KEY: 'e',
    EMAIL_FROM: 'sign@esign.example.test',
    WEBHOOK_SECRET_KEYS: 'test1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=',
  };
  const twilio = { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+15005550006' };

  it('are optional, and taken all three together', () => {
    expect(checkWorkerConfig(complete).problems).toEqual([]);
    const { config, problems } = checkWorkerConfig({ ...complete, ...twilio });
    expect(problems).toEqual([]);
    expect(config).toMatchObject(twilio);
  });

  it('refuses a partial or malformed set, naming the variable and never the token', () => {
    const { TWILIO_FROM: _, ...partial } = twilio;
    expect(checkWorkerConfig({ ...complete, ...partial }).problems).toEqual(['TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM go together']);
    expect(checkWorkerConfig({ ...complete, ...twilio, TWILIO_ACCOUNT_SID: 'AC123' }).problems).toEqual([
      'TWILIO_ACCOUNT_SID must be AC followed by 32 hexadecimal digits',
    ]);
    const badFrom = checkWorkerConfig({ ...complete, ...twilio, TWILIO_FROM: '07700 900789' }).problems;
    expect(badFrom).toHaveLength(1);
    expect(badFrom[0]).toMatch(/^TWILIO_FROM must be/);
    expect(JSON.stringify(badFrom)).not.toContain(TOKEN);
  });
});

describe('the Twilio stand-in of npm run dev', () => {
  it('takes what the adapter sends into its box, shown at /dev/sms, and refuses other credentials and numbers as Twilio does', async () => {
    const { createSmsApiStandin } = await import('../../local/standins/sms-api.js');
    const { serveStandin } = await import('../../local/standins/standin.js');
    const standin = createSmsApiStandin({ accountSid: SID, authToken: TOKEN });
    const served = await serveStandin(standin);
    try {
      await new TwilioSms({ accountSid: SID, authToken: TOKEN, from: '+15005550006', apiUrl: served.url }).send({
        to: '+447700900789',
        body: '246810 is your code',
      });
      expect(standin.box.list().map((sms) => [sms.to, sms.body])).toEqual([['+447700900789', '246810 is your code']]);
      expect(await (await fetch(`${served.url}/dev/sms`)).text()).toContain('246810 is your code');
      const wrongToken = new TwilioSms({ accountSid: SID, authToken: 'other', from: '+15005550006', apiUrl: served.url });
      await expect(wrongToken.send({ to: '+447700900789', body: 'x' })).rejects.toThrow('Twilio answered 401 (error 20003).');
      const right = new TwilioSms({ accountSid: SID, authToken: TOKEN, from: '+15005550006', apiUrl: served.url });
      await expect(right.send({ to: '07700900789', body: 'x' })).rejects.toThrow('Twilio answered 400 (error 21211).');
    } finally {
      await served.close();
    }
  });
});
