/**
 * The company application as a browser meets it, over the real stack: a cookie jar, pages fetched,
 * and forms posted from the application's own page (same-origin, with the form token the last
 * page gave). What the mailbox received and the stored rows are read back by the tests.
 */
import { expect } from 'vitest';
import { type Answer, call } from './http.js';
import { BASE_URL, type TestStack } from './stack.js';
import { unique } from './unique.js';

export type Cookie = { name: string; value: string; attributes: string[] };

export function parseSetCookie(line: string): Cookie {
  const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
  const at = pair.indexOf('=');
  return { name: pair.slice(0, at), value: pair.slice(at + 1), attributes };
}

export type AppClient = ReturnType<typeof appClient>;

/** A browser of its own (its own client address, so the per-client limit is its own). */
export function appClient(stack: TestStack, ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`) {
  const jar = new Map<string, string>();
  let lastPage = '';
  const cookies: Cookie[] = [];

  async function request(
    method: string,
    path: string,
    options: { form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Answer<string>> {
    const headers: Record<string, string> = { 'x-test-client-ip': ip, ...options.headers };
    if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    let rawBody: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      rawBody = new URLSearchParams(options.form).toString();
    }
    const answer = await call<string>(stack, method, path, { headers, ...(rawBody !== undefined ? { rawBody } : {}) });
    for (const line of answer.headers.getSetCookie()) {
      const cookie = parseSetCookie(line);
      cookies.push(cookie);
      if (cookie.attributes.some((attribute) => /^max-age=0$/i.test(attribute)) || cookie.value === '') jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    if (typeof answer.body === 'string') lastPage = answer.body;
    return answer;
  }

  return {
    jar,
    /** Every Set-Cookie received, in order. */
    cookies,
    get: (path: string, headers?: Record<string, string>) => request('GET', path, headers ? { headers } : {}),
    /** A post from the page last shown: same-origin, with its form token unless `form_token` is given. */
    post: (
      path: string,
      fields: Record<string, string> = {},
      headers: Record<string, string> = { origin: new URL(BASE_URL).origin, 'sec-fetch-site': 'same-origin' },
    ) => request('POST', path, { form: { form_token: formTokenIn(lastPage), ...fields }, headers }),
  };
}

export function formTokenIn(page: string): string {
  return /name="form_token" value="([^"]+)"/.exec(page)?.[1] ?? '';
}

/** The sign-in links e-mailed to `email`, newest first. */
export function signInLinksTo(stack: TestStack, email: string): string[] {
  return stack.services.mailbox
    .list()
    .filter((mail) => mail.to.email.toLowerCase() === email.toLowerCase() && mail.tags?.kind === 'app_sign_in')
    .map((mail) => {
      const links = [...mail.text.matchAll(/https?:\/\/\S+\/app\/sign-in\/[A-Za-z0-9_-]+/g)].map((match) => match[0]);
      expect(new Set(links).size).toBe(1);
      return links[0]!;
    });
}

/** Waits for what requests left running after their answers (the e-mails) to be done. */
export const settled = async (stack: TestStack) => {
  while (stack.afterAnswers && stack.afterAnswers.size > 0) await Promise.allSettled([...stack.afterAnswers]);
};

/** Signs `email` in through the mailbox's link; the client then holds the session. */
export async function signIn(stack: TestStack, client: AppClient, email: string): Promise<Answer<string>> {
  await client.get('/app');
  await client.post('/app/sign-in', { email });
  await settled(stack);
  const [link] = signInLinksTo(stack, email);
  if (!link) throw new Error(`No sign-in link reached ${email}`);
  await client.get(new URL(link).pathname);
  return client.post(new URL(link).pathname);
}

export const freshEmail = (who = 'person') => `${who}-${unique()}@example.test`;
