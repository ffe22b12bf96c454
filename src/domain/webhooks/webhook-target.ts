/**
 * The SSRF guard for webhook URLs. An integrator chooses where we POST signed events, so without
 * this guard anyone with an API key could make the service send requests into its own network:
 * the loopback interface, the private network, the cloud metadata endpoint.
 *
 * Two layers:
 * - `webhookUrlProblem` is pure: it judges the text of the URL (when a subscription is saved, and
 *   again before each delivery, since stored URLs may predate a rule).
 * - `resolvedTargetProblem` judges where a host name points at the moment of delivery, through a
 *   `HostResolver` port that only the Node runtime supplies.
 *
 * `allowPrivate` is the embedded and dev modes, where webhooks legitimately go to localhost.
 *
 * `webhookEndpoint` gives the one spelling of an accepted URL that is stored, answered and delivered
 * to, and `endpointKey` what subscriptions are compared by, so that two spellings of one endpoint
 * cannot make two subscriptions.
 */
import { forbiddenRange } from './forbidden-addresses.js';

const maxUrlLength = 2_000;

/**
 * Control characters (C0, DEL, C1), invisible format characters (zero-width, bidi overrides) and
 * any whitespace. URL parsing silently strips some of these (tabs and newlines anywhere, C0 and
 * spaces at either end), so the text the integrator sees and the URL we call could differ.
 */
const unsafeCharacter = /[\p{Cc}\p{Cf}\s]/u;

/**
 * Names that only ever resolve inside a machine or a private network. Each entry refuses the name
 * itself and every name under it.
 */
const localNameSuffixes = ['localhost', 'local', 'internal', 'home.arpa'];

/** Why a webhook URL is refused, in words an integrator understands; null when it is acceptable. */
export function webhookUrlProblem(raw: string, options: { allowPrivate: boolean }): string | null {
  if (raw.length > maxUrlLength) {
    return `The URL is ${raw.length.toLocaleString('en-US')} characters long; at most ${maxUrlLength.toLocaleString('en-US')} are accepted.`;
  }
  if (unsafeCharacter.test(raw)) {
    return 'The URL contains a space, a control character or an invisible character; remove it (percent-encode it if it belongs in the path or query).';
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The URL is not a valid absolute URL (it should look like https://example.com/webhooks).';
  }
  const schemes = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return options.allowPrivate
      ? `The URL must start with https:// or http:// (it starts with ${url.protocol}).`
      : `The URL must start with https:// (it starts with ${url.protocol}); webhooks carry signed event data, so they are only sent over TLS.`;
  }
  if (url.username !== '' || url.password !== '') {
    return 'The URL must not contain a user name or password; verify deliveries with the webhook signature instead.';
  }
  if (url.hostname === '') return 'The URL has no host.';
  // Nothing listens on port 0: a connection to it fails on every system, in every mode.
  if (url.port === '0') return "The URL's port is 0, where nothing can listen; give the receiver's port, or none for the scheme's default.";
  // Any `#` starts the fragment. A fragment is never sent to the server, so whatever follows it
  // would be silently dropped; and `https://good.example#@other.example/` reads as one host while
  // being another.
  if (raw.includes('#')) {
    return 'The URL must not contain a fragment (#...): it is never sent to the server, so everything after the # would be silently dropped.';
  }
  // The normalised form is what is stored and checked again at each delivery, and it can be longer
  // than what was given (non-ASCII text percent-encoded, an international name in its ASCII form).
  if (url.href.length > maxUrlLength) {
    return `Written out in full, with non-ASCII characters percent-encoded, the URL is ${url.href.length.toLocaleString('en-US')} characters long; at most ${maxUrlLength.toLocaleString('en-US')} are accepted.`;
  }
  if (options.allowPrivate) return null;
  return hostProblem(url.hostname);
}

/**
 * The one spelling of a webhook URL that is stored, answered and delivered to. The URL standard's
 * (what `fetch` sends to): scheme and host in lower case, the scheme's default port dropped, `.` and
 * `..` path segments resolved, every numeric or shortened IPv4 form in dotted decimal, IPv6 in its
 * compressed lower-case form, an empty path as `/`. Then RFC 3986's normalisations that the URL
 * standard leaves out (section 6.2.2): a percent-encoded unreserved character decoded (`%64` is `d`),
 * the hex digits of any other escape in upper case (`%3a` is `%3A`), and an empty query dropped
 * (`/a?` is `/a`: receivers see the same request). Trailing and repeated slashes are kept as given:
 * receivers may route on them, and a redirect to the other spelling is never followed (see
 * `endpointKey`). Only for a URL that `webhookUrlProblem` accepted: that one has no user name,
 * password or fragment, which this spelling would otherwise keep.
 */
export function webhookEndpoint(raw: string): string {
  const url = new URL(raw);
  // Parsed again: a decoded `%2E` can make a dot segment, which the second parse resolves.
  return new URL(`${url.protocol}//${url.host}${normalisedEscapes(url.pathname)}${normalisedEscapes(url.search)}`).href;
}

/**
 * What two subscriptions are compared by, one live subscription per key in a company: the URL's
 * `webhookEndpoint`, its path's repeated slashes taken as one and a trailing slash dropped, so that
 * `…/a`, `…/a/` and `…//a` are one endpoint (most servers answer them alike, and one endpoint
 * subscribed twice would get every event twice).
 */
export function endpointKey(raw: string): string {
  const url = new URL(webhookEndpoint(raw));
  const path = url.pathname.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** RFC 3986's unreserved characters: an escape of one of them names the same resource as the character. */
const unreserved = /^[A-Za-z0-9\-._~]$/;

function normalisedEscapes(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return unreserved.test(character) ? character : `%${hex.toUpperCase()}`;
  });
}

/**
 * The host of a parsed URL, judged without any lookup. `hostname` is already normalised by URL
 * parsing: lower case, IDNA-mapped (full-width letters become ASCII), percent-decoded, and every
 * numeric IPv4 form (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) turned into dotted decimal;
 * so comparing that text is enough.
 */
function hostProblem(hostname: string): string | null {
  const literal = ipLiteral(hostname);
  if (literal !== null) {
    const range = forbiddenRange(literal);
    return range === null ? null : `The URL's host ${hostname} is ${range}; webhooks are only sent to addresses on the public internet.`;
  }
  // `localhost.` and `localhost` are the same name to a resolver.
  const name = hostname.replace(/\.+$/, '');
  if (localNameSuffixes.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) {
    return `The URL's host ${hostname} is a local or internal name; webhooks are only sent to hosts on the public internet.`;
  }
  // A name without a dot is completed with the machine's DNS search domains, so it reaches hosts
  // of the private network (on some clouds, `metadata` is the metadata service).
  if (!name.includes('.')) {
    return `The URL's host ${hostname} is a single-label name, which only resolves inside a private network; use a fully qualified public host name.`;
  }
  return null;
}

/**
 * The address when a URL hostname is an IP literal, else null. URL parsing writes IPv6 hosts in
 * brackets and IPv4 hosts as four decimal numbers (a host that ends in a number and is not a valid
 * IPv4 address fails to parse), so a name can never look like either.
 */
function ipLiteral(hostname: string): string | null {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return hostname.slice(1, -1);
  if (/^\d+\.\d+\.\d+\.\d+$/.test(hostname)) return hostname;
  return null;
}

/**
 * Resolves a host name to its addresses. The Node runtime supplies one (`nodeHostResolver`); the
 * Workers deployment is given none (see `resolvedTargetProblem`): there `node:dns` has no
 * `lookup`, and its DNS-over-HTTPS answers need not be the ones the platform's `fetch()` uses.
 */
export interface HostResolver {
  resolve(hostname: string): Promise<string[]>;
}

/**
 * Refuses a URL whose host resolves to any forbidden address (or that does not resolve). Returns
 * the problem or null. Call it just before each delivery, after `webhookUrlProblem`: a name that
 * pointed to a public address when the subscription was saved may point elsewhere now.
 *
 * An IP-literal host is judged as it is, with or without a resolver. A host name is only looked up
 * when a resolver is given; refusing when any answer is forbidden (not just the first) matters
 * because the HTTP client may try the answers in any order.
 *
 * What remains open on Node: the HTTP client looks the name up again when it connects, so a name
 * with a very short TTL could answer differently the second time (DNS rebinding). Closing that
 * needs the connection itself to use the checked address.
 *
 * With no resolver, as on the Workers runtime, names are not checked here and the result is null.
 * What the platform does instead, per Cloudflare's documentation:
 * - a Worker runs on Cloudflare's network, not on a machine of ours, and its `fetch()` resolves
 *   names with Cloudflare's DNS resolver; it has no route into the service's own private network
 *   or to the loopback of our machines, because reaching a private network from a Worker is an
 *   explicit opt-in (Workers VPC bindings through a Cloudflare Tunnel) that this service does not
 *   use;
 * - subrequests cannot be sent to an IP address directly, only to host names;
 * - outbound TCP sockets (`connect()`) to localhost, private network addresses and Cloudflare's own
 *   addresses are refused.
 * The caveat: a name that resolves to a private or loopback address is then refused, or fails to
 * connect, by the platform rather than by us, so the delivery is recorded as a failed request
 * instead of with our explanation. The local Workers runtime used in development and tests
 * (workerd through Miniflare) is configured to allow private addresses, so this guarantee holds on
 * Cloudflare's network only.
 */
export async function resolvedTargetProblem(url: URL, resolver: HostResolver | undefined, options: { allowPrivate: boolean }): Promise<string | null> {
  if (options.allowPrivate) return null;
  const literal = ipLiteral(url.hostname);
  if (literal !== null) {
    const range = forbiddenRange(literal);
    return range === null ? null : `The URL's host ${url.hostname} is ${range}; webhooks are only sent to addresses on the public internet.`;
  }
  if (!resolver) return null;
  let addresses: string[];
  try {
    addresses = await resolver.resolve(url.hostname);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) {
    return `The host name ${url.hostname} could not be resolved to an address; check that it is spelled correctly and published in public DNS.`;
  }
  for (const address of addresses) {
    const range = forbiddenRange(address);
    if (range !== null) {
      return `The host name ${url.hostname} resolves to ${address}, ${range}; webhooks are only sent to addresses on the public internet.`;
    }
  }
  return null;
}
