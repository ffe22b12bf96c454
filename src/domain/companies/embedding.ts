/**
 * Embedded signing: the origins a company allows to show its signing pages in a frame of their
 * own page. The signing page's `frame-ancestors` lists exactly these, and the page tells only one
 * of them (the one its link names) what happens on it.
 *
 * An origin is what a browser compares: scheme, host and port, nothing else. Each is stored in the
 * one spelling a browser gives it (`URL.origin`: lower-case host, default port dropped, an
 * international name in its ASCII form), so what is stored is what a parent page's origin equals.
 * `http://` is for a page on this machine only, and only where the service allows development
 * relaxations (the switch that also lets webhooks reach loopback): a deployed service frames its
 * pages only into pages served over TLS.
 *
 * Each origin must also be one that a `frame-ancestors` source can say (CSP3, host-source: scheme
 * "://" host [port], the host dot-separated labels of letters, digits and hyphens): an IPv6
 * literal cannot be written there at all, and a browser drops a host no DNS name can be (a label
 * over 63 characters, a name over 253). An origin stored before these checks that breaks them is
 * left out of the page's header rather than written into it.
 */
import { eq } from 'drizzle-orm';
import { embeddingSettings, recipients } from '../../data/schema.js';
import { type Issue, validationFailed } from '../../errors.js';
import { isRecipientId } from '../../lib/ids.js';
import type { AppConfig, Services } from '../../services.js';
import type { CompanyReadContext } from '../read-context.js';
import type { CompanyContext } from '../verb-context.js';
import { settingsChanged } from './settings-audit.js';

export const MAX_ALLOWED_ORIGINS = 10;
/** Far above any real origin; a longer text is not looked at. */
export const MAX_ORIGIN_CHARS = 300;

export type Embedding = { company_id: string; allowed_origins: string[] };

/** The relaxation of the embedded and dev servers, the same one that lets webhooks reach this machine. */
export const allowsLoopbackHttp = (config: AppConfig) => config.allowPrivateWebhookTargets === true;

/** The longest label (between dots) and the longest name DNS has (RFC 1035, without the root's dot). */
export const MAX_HOST_LABEL_CHARS = 63;
export const MAX_HOST_CHARS = 253;

/** A host name a frame-ancestors source can name: labels of letters, digits and hyphens, joined by dots. */
const sourceHost = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

const isLoopbackHost = (host: string) => host === 'localhost' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** Why a host (as the URL standard spells it: lower case, ASCII) cannot stand in a frame-ancestors source. */
function hostProblem(host: string): string | null {
  if (host.includes('*')) return 'Must name one host: wildcards are not accepted.';
  if (host.startsWith('[')) return 'Must have a host name or an IPv4 address: a Content-Security-Policy cannot name an IPv6 address.';
  if (!sourceHost.test(host)) return 'Must have a host name of letters, digits, hyphens and dots.';
  if (host.length > MAX_HOST_CHARS) return `Must have a host name of at most ${MAX_HOST_CHARS} characters (it has ${host.length}).`;
  const label = host.split('.').find((part) => part.length > MAX_HOST_LABEL_CHARS);
  if (label) return `Must have a host name whose parts between dots have at most ${MAX_HOST_LABEL_CHARS} characters (one has ${label.length}).`;
  return null;
}

/** The origin in its one spelling, or why it is refused, in words an integrator understands. */
export function normaliseOrigin(raw: string, options: { allowLoopbackHttp: boolean }): { origin: string } | { problem: string } {
  const refuse = (problem: string) => ({ problem });
  if (/[\p{Cc}\p{Cf}\s]/u.test(raw)) return refuse('Must not contain spaces, control or invisible characters.');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('Must be an origin such as https://app.example.com.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse(`Must start with https:// (it starts with ${url.protocol}).`);
  if (url.username !== '' || url.password !== '') return refuse('Must not contain a user name or password.');
  // The URL standard drops an empty query or fragment (`?`, `#`); the text is what the integrator meant.
  if (raw.includes('?') || raw.includes('#')) return refuse('Must be an origin only: no query (?) or fragment (#).');
  // A single trailing slash is the empty path that every origin has; anything more is a page, not an origin.
  if (url.pathname !== '/' || /^[a-z][a-z0-9+.-]*:\/\/[^/]*\/./i.test(raw))
    return refuse('Must be an origin only (scheme, host and port), without a path: every page of the origin may frame the signing page.');
  const problem = hostProblem(url.hostname);
  if (problem) return refuse(problem);
  if (url.port === '0') return refuse('Port 0 cannot be an origin.');
  if (url.protocol === 'http:') {
    if (!options.allowLoopbackHttp) return refuse('Must start with https://: a signing page is framed only into pages served over TLS.');
    if (!isLoopbackHost(url.hostname)) return refuse('Must start with https://: http:// is accepted for this machine only (localhost, 127.0.0.0/8).');
  }
  return { origin: url.origin };
}

/**
 * Whether a stored origin can go into the page's `frame-ancestors` as it is: in its one spelling,
 * and within the checks above (loopback `http://` aside, which was the service's to allow when stored).
 */
export function isFrameAncestorSource(stored: string): boolean {
  const checked = normaliseOrigin(stored, { allowLoopbackHttp: true });
  return 'origin' in checked && checked.origin === stored;
}

/** The list in its stored spelling, or 422 validation_failed naming each item refused (`allowed_origins[3]`). */
export function checkAllowedOrigins(raw: readonly string[], options: { allowLoopbackHttp: boolean }): string[] {
  const issues: Issue[] = [];
  const seen = new Map<string, number>();
  if (raw.length > MAX_ALLOWED_ORIGINS) issues.push({ path: 'allowed_origins', message: `At most ${MAX_ALLOWED_ORIGINS} origins (${raw.length} given).` });
  for (const [index, text] of raw.entries()) {
    const path = `allowed_origins[${index}]`;
    const checked = normaliseOrigin(text, options);
    const first = 'problem' in checked ? undefined : seen.get(checked.origin);
    if ('problem' in checked) issues.push({ path, message: `${JSON.stringify(text.slice(0, 100))}: ${checked.problem}` });
    else if (first !== undefined) issues.push({ path, message: `${JSON.stringify(checked.origin)} is given twice: it is allowed_origins[${first}] already.` });
    else seen.set(checked.origin, index);
  }
  if (issues.length > 0) throw validationFailed(issues);
  return [...seen.keys()];
}

export async function getEmbedding({ services, companyId }: CompanyReadContext): Promise<Embedding> {
  const [row] = await services.database.db
    .select({ allowedOrigins: embeddingSettings.allowedOrigins })
    .from(embeddingSettings)
    .where(eq(embeddingSettings.companyId, companyId))
    .limit(1);
  return { company_id: companyId, allowed_origins: row?.allowedOrigins ?? [] };
}

/**
 * Replaces the company's list (the company was checked by the caller); an empty list allows no
 * frame. A user's change at the application is audited (`settings.embedding_changed`) in the same write.
 */
export async function putEmbedding(ctx: CompanyContext, { raw }: { raw: readonly string[] }): Promise<Embedding> {
  const { services, companyId, now: updatedAt } = ctx;
  const allowedOrigins = checkAllowedOrigins(raw, { allowLoopbackHttp: allowsLoopbackHttp(services.config) });
  await services.database.atomic((q) => [
    q
      .insert(embeddingSettings)
      .values({ companyId, allowedOrigins, updatedAt })
      .onConflictDoUpdate({ target: embeddingSettings.companyId, set: { allowedOrigins, updatedAt } }),
    ...settingsChanged(q, ctx, 'settings.embedding_changed', { allowed_origins: allowedOrigins }),
  ]);
  return { company_id: companyId, allowed_origins: allowedOrigins };
}

/**
 * The origins allowed to frame the pages of a recipient's signing link, by the recipient id the
 * link names (the caller knows whether the link is genuine). One read by primary keys. An origin
 * stored before the checks of today that a frame-ancestors source cannot carry is left out.
 */
export async function allowedOriginsOfRecipient(services: Services, recipientId: string): Promise<string[]> {
  if (!isRecipientId(recipientId)) return [];
  const [row] = await services.database.db
    .select({ allowedOrigins: embeddingSettings.allowedOrigins })
    .from(recipients)
    .innerJoin(embeddingSettings, eq(embeddingSettings.companyId, recipients.companyId))
    .where(eq(recipients.id, recipientId))
    .limit(1);
  return (row?.allowedOrigins ?? []).filter(isFrameAncestorSource);
}
