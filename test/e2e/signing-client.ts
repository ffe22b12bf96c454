/** A signer's browser without JavaScript, against the `npm run dev` server of the e2e run. */
import { expect, inject } from 'vitest';

export const base = () => inject('e2eBaseUrl');

export async function page(path: string, init: RequestInit = {}) {
  const response = await fetch(`${base()}${path}`, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Posts a signer's form as their browser would: its token, the consent, every field it shows. */
export async function signThroughPage(token: string, typed: string) {
  const shown = await page(`/sign/${token}`);
  expect(shown.status).toBe(200);
  expect(shown.headers.get('cache-control')).toContain('no-store');
  expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
  const form = new URLSearchParams({ form_token: /name="form_token" value="([^"]+)"/.exec(shown.text)![1]!, consent: 'yes' });
  for (const [, name] of shown.text.matchAll(/name="(field\.[^"]+)"/g)) form.set(name!, typed);
  const posted = await page(`/sign/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base() },
    body: form,
  });
  expect(posted.status, posted.text.slice(0, 500)).toBe(303);
  return page(`/sign/${token}`);
}

