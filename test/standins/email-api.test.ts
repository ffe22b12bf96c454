import { describe, expect, it } from 'vitest';
import { createEmailApiStandin, type EmailApiStandinOptions } from '../../local/standins/email-api.js';

// The e-mail API stand-in's idempotency, driven with plain requests to its fetch handler.
const apiKey = 'standin-test-key';
const DAY = 24 * 3600 * 1000;

function standinWith(options: EmailApiStandinOptions = {}) {
  const standin = createEmailApiStandin(apiKey, options);
  const post = async (body: unknown, key?: string) => {
    const answer = await standin.fetch(
      new Request('http://email.standin.test/emails', {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
        body: JSON.stringify(body),
      }),
    );
    return { status: answer.status, body: (await answer.json()) as { id?: string; name?: string } };
  };
  return { standin, post };
}

const email = (text = 'Review and sign: https://esign.example.test/sign/abc') => ({
  from: 'Sign <sign@example.test>',
  to: ['Cleo Client <cleo@example.test>'],
  subject: 'Please sign',
  text,
});

describe('e-mail API stand-in', () => {
  it('delivers to the mailbox and answers an id', async () => {
    const { standin, post } = standinWith();
    const answer = await post(email());
    expect(answer).toEqual({ status: 200, body: { id: expect.any(String) } });
    expect(standin.mailbox.list()).toMatchObject([{ to: { name: 'Cleo Client', email: 'cleo@example.test' }, subject: 'Please sign' }]);
  });

  it('refuses a wrong API key and an e-mail without recipients', async () => {
    const { standin, post } = standinWith();
    const wrongKey = await standin.fetch(
      new Request('http://email.standin.test/emails', { method: 'POST', headers: { authorization: 'Bearer nope' }, body: JSON.stringify(email()) }),
    );
    expect(wrongKey.status).toBe(401);
    expect((await post({ subject: 'x' })).status).toBe(422);
    expect(standin.mailbox.list()).toEqual([]);
  });

  it('without a key, every request is an e-mail of its own', async () => {
    const { standin, post } = standinWith();
    await post(email());
    await post(email());
    expect(standin.mailbox.list()).toHaveLength(2);
  });

  it('the same key and body: the first answer again, and no second e-mail', async () => {
    const { standin, post } = standinWith();
    const first = await post(email(), 'env.rcp.request');
    const again = await post(email(), 'env.rcp.request');
    expect(again).toEqual(first);
    expect(standin.mailbox.list()).toHaveLength(1);
    await post(email(), 'env.rcp.reminder.1');
    expect(standin.mailbox.list()).toHaveLength(2);
  });

  it('the same key with another body: 409 invalid_idempotent_request, nothing sent', async () => {
    const { standin, post } = standinWith();
    await post(email('first'), 'k');
    expect(await post(email('second'), 'k')).toMatchObject({ status: 409, body: { name: 'invalid_idempotent_request' } });
    expect(standin.mailbox.list().map((mail) => mail.text)).toEqual(['first']);
  });

  it('the same key while the first request is in flight: 409 concurrent_idempotent_requests', async () => {
    const { standin, post } = standinWith({ latencyMs: 50 });
    // The second request gets a head start of 10 ms less than the stand-in's latency, so that it finds the first in flight.
    const [first, second] = await Promise.all([post(email(), 'k'), new Promise((resolve) => setTimeout(resolve, 10)).then(() => post(email(), 'k'))]);
    expect(first.status).toBe(200);
    expect(second).toMatchObject({ status: 409, body: { name: 'concurrent_idempotent_requests' } });
    expect(standin.mailbox.list()).toHaveLength(1);
    // Once answered, the same request is a replay.
    expect(await post(email(), 'k')).toEqual(first);
  });

  it('a refused request does not keep its key', async () => {
    const { standin, post } = standinWith();
    expect((await post({ ...email(), to: undefined }, 'k')).status).toBe(422);
    expect((await post(email(), 'k')).status).toBe(200);
    expect(standin.mailbox.list()).toHaveLength(1);
  });

  it('refuses a key longer than 256 characters', async () => {
    const { post } = standinWith();
    expect(await post(email(), 'k'.repeat(257))).toMatchObject({ status: 400, body: { name: 'invalid_idempotency_key' } });
  });

  it('keeps a key 24 hours', async () => {
    let now = Date.now();
    const { standin, post } = standinWith({ now: () => now });
    const first = await post(email(), 'k');
    now += DAY - 1;
    expect(await post(email(), 'k')).toEqual(first);
    now += 1;
    const later = await post(email(), 'k');
    expect(later.status).toBe(200);
    expect(later.body.id).not.toBe(first.body.id);
    expect(standin.mailbox.list()).toHaveLength(2);
  });

  it('keeps at most maxKeys keys, forgetting the oldest', async () => {
    const { standin, post } = standinWith({ maxKeys: 2 });
    for (const key of ['a', 'b', 'c']) await post(email(), key);
    await post(email(), 'c');
    expect(standin.mailbox.list()).toHaveLength(3);
    await post(email(), 'a');
    expect(standin.mailbox.list()).toHaveLength(4);
  });
});
