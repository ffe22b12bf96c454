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
 * `webhookEndpoint` gives the one spelling of an accepted URL that is stored, answered and compared,
 * so that two spellings of one endpoint cannot make two subscriptions.
 */

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
 * The endpoint a webhook URL names, in the one spelling the URL standard gives it: scheme and host
 * in lower case, the scheme's default port dropped, `.` and `..` path segments resolved, every
 * numeric or shortened IPv4 form in dotted decimal, IPv6 in its compressed lower-case form, an empty
 * path as `/`. It is what `fetch` sends to, so two URLs with one spelling reach one receiver.
 * Only for a URL that `webhookUrlProblem` accepted: that one has no user name, password or
 * fragment, which this spelling would otherwise keep.
 */
export function webhookEndpoint(raw: string): string {
  return new URL(raw).href;
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

/** True for an IP address (v4 or v6 text) that a webhook may never be sent to. */
export function isForbiddenAddress(ip: string): boolean {
  return forbiddenRange(ip) !== null;
}

/**
 * Which forbidden range an address falls in, described for an integrator; null when it is a public
 * address. Text that is not a canonical address is refused rather than guessed at (fail closed):
 * an address with leading zeros such as `010.0.0.1` means 8.0.0.1 to some parsers and 10.0.0.1 to
 * others.
 */
function forbiddenRange(ip: string): string | null {
  const bracketed = /^\[(.*)\]$/.exec(ip);
  const text = bracketed ? bracketed[1]! : ip;
  // A zone index (`fe80::1%eth0`) only qualifies a scoped address: one that is not globally
  // reachable by definition.
  if (text.includes('%')) return 'a scoped address with a zone index';
  if (text.includes(':')) {
    const groups = parseIpv6(text);
    if (groups === null) return 'not a valid IP address';
    const range = ipv6Ranges.find((candidate) => inIpv6Range(groups, candidate));
    if (range) return range.carries ? withCarriedAddress(range.label, range.carries(groups)) : range.label;
    // Hosts on the internet are only ever numbered from 2000::/3; the rest of the space is
    // special-purpose or not yet assigned, so it is refused without waiting for its registry entry.
    return inIpv6Range(groups, globalUnicast) ? null : 'outside the global unicast range (2000::/3), where no host on the public internet is numbered';
  }
  const value = parseIpv4(text);
  if (value === null) return 'not a valid IP address';
  return ipv4RangeOf(value);
}

function ipv4RangeOf(value: number): string | null {
  return ipv4Ranges.find((range) => inIpv4Range(value, range))?.label ?? null;
}

/** An IPv6 range's label, naming the IPv4 address it carries when that address is itself forbidden. */
function withCarriedAddress(label: string, carried: number): string {
  const range = ipv4RangeOf(carried);
  return range === null ? label : `${label} carrying ${ipv4Text(carried)}, ${range}`;
}

type Ipv4Range = { base: number; bits: number; label: string };
/** `carries`: the IPv4 address the range embeds, where it embeds one at a known place. */
type Ipv6Range = { base: number[]; bits: number; label: string; carries?: (groups: number[]) => number };

function v4(cidr: string, label: string): Ipv4Range {
  const [address, bits] = cidr.split('/');
  const base = parseIpv4(address!);
  if (base === null) throw new Error(`bad range ${cidr}`);
  return { base, bits: Number(bits), label };
}

function v6(cidr: string, label: string, carries?: (groups: number[]) => number): Ipv6Range {
  const [address, bits] = cidr.split('/');
  const base = parseIpv6(address!);
  if (base === null) throw new Error(`bad range ${cidr}`);
  return { base, bits: Number(bits), label, ...(carries ? { carries } : {}) };
}

/** The 32 bits of two consecutive 16-bit groups, from `index`. */
const bitsAt = (index: number) => (groups: number[]) => ((groups[index]! << 16) | groups[index + 1]!) >>> 0;
const lastBits = bitsAt(6);

// Order matters only for the label: the more specific range comes first.
const ipv4Ranges: Ipv4Range[] = [
  v4('0.0.0.0/8', 'a "this network" address (0.0.0.0/8), which reaches the machine itself'),
  v4('10.0.0.0/8', 'a private network address (10.0.0.0/8)'),
  v4('100.64.0.0/10', 'a carrier-grade NAT address (100.64.0.0/10)'),
  v4('127.0.0.0/8', 'a loopback address (127.0.0.0/8)'),
  v4('169.254.0.0/16', 'a link-local address (169.254.0.0/16), where cloud metadata services answer'),
  v4('172.16.0.0/12', 'a private network address (172.16.0.0/12)'),
  v4('192.0.0.0/24', 'an IETF protocol address (192.0.0.0/24)'),
  v4('192.0.2.0/24', 'a documentation address (192.0.2.0/24)'),
  v4('192.88.99.0/24', 'a deprecated 6to4 relay anycast address (192.88.99.0/24)'),
  v4('192.168.0.0/16', 'a private network address (192.168.0.0/16)'),
  v4('198.18.0.0/15', 'a benchmarking address (198.18.0.0/15)'),
  v4('198.51.100.0/24', 'a documentation address (198.51.100.0/24)'),
  v4('203.0.113.0/24', 'a documentation address (203.0.113.0/24)'),
  v4('224.0.0.0/4', 'a multicast address (224.0.0.0/4)'),
  v4('255.255.255.255/32', 'the broadcast address'),
  v4('240.0.0.0/4', 'a reserved address (240.0.0.0/4)'),
];

/**
 * Every form that embeds an IPv4 address is refused whatever address it carries. None of them is
 * how a receiver on the public internet is reached (its IPv4 address or its name is), and a socket
 * or translator that honours one connects to the IPv4 address inside it, which is only ever judged
 * as IPv4, where the URL names it as such. The carried address only sharpens the explanation.
 */
const ipv6Ranges: Ipv6Range[] = [
  v6('::/128', 'the unspecified address (::), which reaches the machine itself'),
  v6('::1/128', 'the loopback address (::1)'),
  v6('::ffff:0:0/96', 'an IPv4-mapped address (::ffff:0:0/96)', lastBits),
  v6('::ffff:0:0:0/96', 'an IPv4-translated address (::ffff:0:0:0/96)', lastBits),
  v6('::/96', 'an IPv4-compatible address (::/96)', lastBits),
  v6('64:ff9b::/96', 'a NAT64 translation address (64:ff9b::/96)', lastBits),
  // Where a local-use prefix puts the IPv4 address depends on the prefix length its network chose.
  v6('64:ff9b:1::/48', 'a local-use NAT64 address (64:ff9b:1::/48)'),
  v6('100::/64', 'a discard-only address (100::/64)'),
  // Teredo stores the client's address inverted, so that NATs rewriting addresses leave it alone.
  v6('2001::/32', 'a Teredo tunnel address (2001::/32)', (groups) => ~lastBits(groups) >>> 0),
  v6('2001:2::/48', 'a benchmarking address (2001:2::/48)'),
  v6('2001:10::/28', 'a deprecated ORCHID identifier (2001:10::/28), not an address of a host'),
  v6('2001:20::/28', 'an ORCHIDv2 identifier (2001:20::/28), not an address of a host'),
  // The rest of the IETF's protocol block holds anycast services (PCP, TURN, AMT, AS112), never a
  // webhook receiver.
  v6('2001::/23', 'an IETF protocol assignment (2001::/23)'),
  v6('2001:db8::/32', 'a documentation address (2001:db8::/32)'),
  v6('2002::/16', 'a 6to4 tunnel address (2002::/16)', bitsAt(1)),
  v6('3fff::/20', 'a documentation address (3fff::/20)'),
  v6('5f00::/16', 'a segment routing identifier (5f00::/16)'),
  v6('fc00::/7', 'a unique local (private network) address (fc00::/7)'),
  v6('fe80::/10', 'a link-local address (fe80::/10)'),
  v6('fec0::/10', 'a site-local address (fec0::/10)'),
  v6('ff00::/8', 'a multicast address (ff00::/8)'),
];

const globalUnicast = v6('2000::/3', 'global unicast');

function inIpv4Range(value: number, range: Ipv4Range): boolean {
  if (range.bits === 0) return true;
  const mask = (0xffffffff << (32 - range.bits)) >>> 0;
  return ((value & mask) >>> 0) === ((range.base & mask) >>> 0);
}

function inIpv6Range(groups: number[], range: Ipv6Range): boolean {
  let remaining = range.bits;
  for (let index = 0; index < 8 && remaining > 0; index++) {
    const take = Math.min(16, remaining);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if ((groups[index]! & mask) !== (range.base[index]! & mask)) return false;
    remaining -= take;
  }
  return true;
}

/** Four decimal numbers 0–255 without leading zeros, as one unsigned 32-bit number; else null. */
function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

function ipv4Text(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

/**
 * IPv6 text (RFC 4291: hex groups, at most one `::`, optionally ending in a dotted IPv4 address)
 * as eight 16-bit groups; else null.
 */
function parseIpv6(text: string): number[] | null {
  let hex = text;
  if (hex.includes('.')) {
    const lastColon = hex.lastIndexOf(':');
    const tail = parseIpv4(hex.slice(lastColon + 1));
    if (lastColon < 0 || tail === null) return null;
    hex = `${hex.slice(0, lastColon + 1)}${(tail >>> 16).toString(16)}:${(tail & 0xffff).toString(16)}`;
  }
  const halves = hex.split('::');
  if (halves.length > 2) return null;
  const parse = (half: string): number[] | null => {
    if (half === '') return [];
    const groups: number[] = [];
    for (const group of half.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
      groups.push(parseInt(group, 16));
    }
    return groups;
  };
  const head = parse(halves[0]!);
  if (head === null) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const tail = parse(halves[1]!);
  if (tail === null) return null;
  // `::` stands for at least one group of zeros.
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
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
export async function resolvedTargetProblem(
  url: URL,
  resolver: HostResolver | undefined,
  options: { allowPrivate: boolean },
): Promise<string | null> {
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
