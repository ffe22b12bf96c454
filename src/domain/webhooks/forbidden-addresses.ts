/**
 * The addresses a webhook may never be sent to: loopback, private, link-local, the cloud metadata
 * service and every other special-purpose range of IPv4 and IPv6, with the words that tell an
 * integrator which one a host fell in. webhook-target.ts applies it to URLs and resolved names.
 */

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
export function forbiddenRange(ip: string): string | null {
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
  return (value & mask) >>> 0 === (range.base & mask) >>> 0;
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
