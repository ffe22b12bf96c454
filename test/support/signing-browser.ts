/** A signer's browser without JavaScript, against a running server (`npm start` or `npm run dev`). */
import { expect } from 'vitest';

type PageAnswer = { status: number; headers: Headers; text: string };

/** `seen` is told of every answer, for suites that look through all of them. */
export function signingBrowser(base: () => string, seen?: (path: string, answer: PageAnswer) => void) {
  async function page(path: string, init: RequestInit = {}): Promise<PageAnswer> {
    const response = await fetch(`${base()}${path}`, { redirect: 'manual', ...init });
    const answer = { status: response.status, headers: response.headers, text: await response.text() };
    seen?.(path, answer);
    return answer;
  }

  /** Posts a signer's form as their browser would: its token, the consent, every field it shows. */
  async function signThroughPage(token: string, typed: string) {
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

  return { page, signThroughPage };
}
