/**
 * The hidden `form_token` of every form of the application (src/lib/form-mac.ts): bound to the
 * session when there is one, else to the signed-out browser's own random cookie, which the page
 * that shows the form sets. A page of another site can read neither, so it cannot make the token.
 */
import type { Context } from 'hono';
import { newSecret } from '../domain/app-access/secrets.js';
import { formMac, verifyFormMac } from '../lib/form-mac.js';
import { type CompanyAppEnv, sessionReadOf } from './app-env.js';
import { browserCookie, setBrowserCookie } from './cookies.js';

const LABEL = 'esign company application form v1';

/** What the request's forms are bound to, or null for a signed-out browser without its cookie. */
function binding(c: Context<CompanyAppEnv>): string | null {
  const session = sessionReadOf(c);
  if (session.kind === 'active') return `session:${session.session.secret}`;
  const browser = c.get('browserId') ?? browserCookie(c);
  return browser ? `browser:${browser}` : null;
}

/** The token for the forms of the page being made; gives a signed-out browser its cookie first. */
export async function formTokenFor(c: Context<CompanyAppEnv>): Promise<string> {
  let bound = binding(c);
  if (bound === null) {
    const browser = newSecret();
    c.set('browserId', browser);
    setBrowserCookie(c, browser);
    bound = `browser:${browser}`;
  }
  return formMac(c.get('services').config.tokenSecret, LABEL, bound);
}

export async function isFormTokenValid(c: Context<CompanyAppEnv>, presented: string | undefined): Promise<boolean> {
  const bound = binding(c);
  return bound !== null && verifyFormMac(c.get('services').config.tokenSecret, LABEL, bound, presented);
}
