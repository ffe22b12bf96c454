/**
 * The application's cookies: the session's, and the signed-out browser's (form-token.ts). HttpOnly,
 * SameSite=Lax, Path=/, and `__Host-`-prefixed and Secure: the prefix makes the browser refuse
 * one set by a sibling domain or over plain HTTP. A service on plain HTTP on the loopback address
 * (`npm start`) uses the plain names without Secure, which a browser would otherwise refuse there.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { SESSION_MAX_MS } from '../domain/app-access/sessions.js';
import type { CompanyAppEnv } from './app-env.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether `baseUrl` is plain HTTP on this machine, where a Secure cookie could not be set. */
export function onPlainLoopback(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

function cookieOf(c: Context<CompanyAppEnv>, name: string) {
  const plain = onPlainLoopback(c.get('services').config.baseUrl);
  return { name: plain ? name : `__Host-${name}`, secure: !plain };
}

const SESSION = 'esign_session';
const BROWSER = 'esign_browser';
const RETURN = 'esign_return';
/** How long a signed-out browser keeps the page it was going to: the sign-in link's 15 minutes, and time to ask for it. */
const RETURN_MAX_SECONDS = 30 * 60;

export const sessionCookie = (c: Context<CompanyAppEnv>): string | undefined => getCookie(c, cookieOf(c, SESSION).name);
export const browserCookie = (c: Context<CompanyAppEnv>): string | undefined => getCookie(c, cookieOf(c, BROWSER).name);
export const returnCookie = (c: Context<CompanyAppEnv>): string | undefined => getCookie(c, cookieOf(c, RETURN).name);

function put(c: Context<CompanyAppEnv>, base: string, value: string, maxAgeSeconds?: number) {
  const { name, secure } = cookieOf(c, base);
  setCookie(c, name, value, { httpOnly: true, sameSite: 'Lax', path: '/', secure, ...(maxAgeSeconds ? { maxAge: maxAgeSeconds } : {}) });
}

/** Kept for the session's longest life; the database ends it sooner when it must. */
export const setSessionCookie = (c: Context<CompanyAppEnv>, secret: string) => put(c, SESSION, secret, SESSION_MAX_MS / 1000);
export const setBrowserCookie = (c: Context<CompanyAppEnv>, value: string) => put(c, BROWSER, value);
export const setReturnCookie = (c: Context<CompanyAppEnv>, path: string) => put(c, RETURN, path, RETURN_MAX_SECONDS);

function clear(c: Context<CompanyAppEnv>, base: string) {
  const { name, secure } = cookieOf(c, base);
  deleteCookie(c, name, { path: '/', secure, httpOnly: true, sameSite: 'Lax' });
}

export const clearSessionCookie = (c: Context<CompanyAppEnv>) => clear(c, SESSION);
export const clearReturnCookie = (c: Context<CompanyAppEnv>) => clear(c, RETURN);
