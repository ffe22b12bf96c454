/**
 * A signed-out person who follows a link into the application (the Completed e-mail's link to an
 * envelope) signs in and lands on that page, not the home page; a person in two companies after
 * choosing one. The page is remembered in this browser only as a path of the application: a forged
 * cookie naming another site or the API is never followed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putUser } from '../../src/domain/users/put-user.js';
import { appClient, freshEmail, signIn } from '../support/app-client.js';
import { asOperator, createTestCompany, type TestCompany } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
});
afterAll(() => stack.close());

const userIn = async (companyId: string, email = freshEmail('back')) => {
  await putUser(asOperator(stack, companyId), { email, input: { name: 'Pat Person', role: 'admin', active: true, esign_seat: true } });
  return email;
};

describe('coming back after signing in', () => {
  it('lands on the page asked for while signed out, once', async () => {
    const email = await userIn(company.id);
    const client = appClient(stack);
    const asked = await client.get('/app/envelopes');
    expect(asked.status).toBe(303);
    expect(asked.headers.get('location')).toBe('/app');
    const spent = await signIn(stack, client, email);
    expect(spent.status).toBe(303);
    expect(spent.headers.get('location')).toBe('/app/envelopes');
    expect((await client.get('/app/envelopes')).status).toBe(200);
    // Spent: signing in again goes home.
    expect((await signIn(stack, client, email)).headers.get('location')).toBe('/app');
  });

  it('lands there after choosing the company, for a person in two', async () => {
    const email = await userIn(company.id);
    const second = await createTestCompany(stack);
    await userIn(second.id, email);
    const client = appClient(stack);
    await client.get('/app/webhooks');
    const spent = await signIn(stack, client, email);
    // No company chosen yet: the page sends the person on to choose, and keeps where they were going.
    const first = await client.get(spent.headers.get('location')!);
    expect(first.status).toBe(303);
    const choice = await client.get('/app');
    expect(choice.body).toContain('Choose a company');
    const userId = /name="user_id" value="([0-9a-f-]{36})"/.exec(choice.body)![1]!;
    const chosen = await client.post('/app/company', { user_id: userId });
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get('location')).toBe('/app/webhooks');
  });

  it('follows only a path of the application', async () => {
    const name = '__Host-esign_return';
    for (const forged of [
      'https://elsewhere.test/app',
      '//elsewhere.test/app',
      '/v1/envelopes',
      '/app/../v1/envelopes',
      '/app/envelopes?x=1',
      '/appx',
      // One past the longest path kept (200 characters).
      `/app/${'a'.repeat(196)}`,
    ]) {
      const email = await userIn(company.id);
      const client = appClient(stack);
      await client.get('/app');
      client.jar.set(name, forged);
      expect((await signIn(stack, client, email)).headers.get('location'), forged).toBe('/app');
    }
    // At the bound: followed.
    const longest = `/app/${'a'.repeat(195)}`;
    expect(longest).toHaveLength(200);
    const client = appClient(stack);
    await client.get('/app');
    client.jar.set(name, longest);
    expect((await signIn(stack, client, await userIn(company.id))).headers.get('location')).toBe(longest);
  });

  it('does not remember a post, nor the home page', async () => {
    const email = await userIn(company.id);
    const client = appClient(stack);
    expect((await client.post('/app/keys', {})).status).not.toBe(200);
    await client.get('/app');
    expect(client.jar.has('__Host-esign_return')).toBe(false);
    expect((await signIn(stack, client, email)).headers.get('location')).toBe('/app');
  });
});
