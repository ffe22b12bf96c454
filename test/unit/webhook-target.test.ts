/**
 * One file although long: the address tables at their edges, range by range, read best beside each
 * other.
 */
import { lookup } from 'node:dns/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeHostResolver, nodeHostResolver } from '../../src/adapters/node/dns-resolver.js';
import { isForbiddenAddress } from '../../src/domain/webhooks/forbidden-addresses.js';
import { endpointKey, type HostResolver, resolvedTargetProblem, webhookEndpoint, webhookUrlProblem } from '../../src/domain/webhooks/webhook-target.js';

// The real lookup, wrapped so one test can make it hang.
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  return { ...real, lookup: vi.fn(real.lookup) };
});

const production = { allowPrivate: false };
const embedded = { allowPrivate: true };

describe('isForbiddenAddress, IPv4 ranges at their edges', () => {
  // Each range: the address just before it, its first, its last, the address just after it.
  const ranges: Array<[string, string, string, string | null, string | null]> = [
    ['0.0.0.0/8', '0.0.0.0', '0.255.255.255', null, '1.0.0.0'],
    ['10.0.0.0/8', '10.0.0.0', '10.255.255.255', '9.255.255.255', '11.0.0.0'],
    ['100.64.0.0/10', '100.64.0.0', '100.127.255.255', '100.63.255.255', '100.128.0.0'],
    ['127.0.0.0/8', '127.0.0.0', '127.255.255.255', '126.255.255.255', '128.0.0.0'],
    ['169.254.0.0/16', '169.254.0.0', '169.254.255.255', '169.253.255.255', '169.255.0.0'],
    ['172.16.0.0/12', '172.16.0.0', '172.31.255.255', '172.15.255.255', '172.32.0.0'],
    ['192.0.0.0/24', '192.0.0.0', '192.0.0.255', '191.255.255.255', '192.0.1.0'],
    ['192.0.2.0/24', '192.0.2.0', '192.0.2.255', '192.0.1.255', '192.0.3.0'],
    ['192.168.0.0/16', '192.168.0.0', '192.168.255.255', '192.167.255.255', '192.169.0.0'],
    ['198.18.0.0/15', '198.18.0.0', '198.19.255.255', '198.17.255.255', '198.20.0.0'],
    ['198.51.100.0/24', '198.51.100.0', '198.51.100.255', '198.51.99.255', '198.51.101.0'],
    ['192.88.99.0/24', '192.88.99.0', '192.88.99.255', '192.88.98.255', '192.88.100.0'],
    ['203.0.113.0/24', '203.0.113.0', '203.0.113.255', '203.0.112.255', '203.0.114.0'],
    // 224/4 and 240/4 (with 255.255.255.255 inside it) are adjacent and run to the end.
    ['224.0.0.0/4', '224.0.0.0', '239.255.255.255', '223.255.255.255', null],
    ['240.0.0.0/4', '240.0.0.0', '255.255.255.254', null, null],
    ['255.255.255.255/32', '255.255.255.255', '255.255.255.255', null, null],
  ];

  it.each(ranges)('%s', (_range, first, last, before, after) => {
    expect(isForbiddenAddress(first)).toBe(true);
    expect(isForbiddenAddress(last)).toBe(true);
    if (before) expect(isForbiddenAddress(before)).toBe(false);
    if (after) expect(isForbiddenAddress(after)).toBe(false);
  });

  it('names the metadata address and allows public resolvers', () => {
    expect(isForbiddenAddress('169.254.169.254')).toBe(true);
    for (const ip of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '223.255.255.255', '192.0.1.255']) {
      expect(isForbiddenAddress(ip)).toBe(false);
    }
  });

  it('refuses text that is not a canonical dotted-decimal address, instead of guessing', () => {
    for (const text of [
      '',
      '127.1',
      '0x7f.0.0.1',
      '0177.0.0.1',
      '010.0.0.1',
      '2130706433',
      '256.0.0.1',
      '1.2.3',
      '1.2.3.4.5',
      ' 8.8.8.8',
      '8.8.8.8 ',
      'example.com',
    ]) {
      expect(isForbiddenAddress(text), text).toBe(true);
    }
  });
});

describe('isForbiddenAddress, IPv6', () => {
  it('refuses the unspecified and loopback addresses in every spelling', () => {
    for (const ip of ['::', '0:0:0:0:0:0:0:0', '::0', '[::]', '::1', '0:0:0:0:0:0:0:1', '0000:0000:0000:0000:0000:0000:0000:0001', '[::1]']) {
      expect(isForbiddenAddress(ip), ip).toBe(true);
    }
  });

  // Each form that embeds an IPv4 address, with the place of the address in it: every one is refused
  // whatever it carries, and when what it carries is itself forbidden the answer names it.
  const embedding: Array<[string, string, string, string]> = [
    ['IPv4-mapped', '::ffff:7f00:1', '::ffff:808:808', 'an IPv4-mapped address (::ffff:0:0/96) carrying 127.0.0.1, a loopback address'],
    [
      'IPv4-mapped, dotted',
      '::ffff:169.254.169.254',
      '::ffff:8.8.8.8',
      'an IPv4-mapped address (::ffff:0:0/96) carrying 169.254.169.254, a link-local address',
    ],
    ['IPv4-translated', '::ffff:0:7f00:1', '::ffff:0:808:808', 'an IPv4-translated address (::ffff:0:0:0/96) carrying 127.0.0.1, a loopback address'],
    [
      'IPv4-translated, metadata',
      '::ffff:0:a9fe:a9fe',
      '::ffff:0:8.8.8.8',
      'an IPv4-translated address (::ffff:0:0:0/96) carrying 169.254.169.254, a link-local address',
    ],
    ['IPv4-compatible', '::127.0.0.1', '::8.8.8.8', 'an IPv4-compatible address (::/96) carrying 127.0.0.1, a loopback address'],
    ['NAT64', '64:ff9b::a00:1', '64:ff9b::808:808', 'a NAT64 translation address (64:ff9b::/96) carrying 10.0.0.1, a private network address'],
    ['6to4', '2002:7f00:1::1', '2002:808:808::1', 'a 6to4 tunnel address (2002::/16) carrying 127.0.0.1, a loopback address'],
    ['6to4, a relay', '2002:c058:6301::', '2002:808:808::', 'a 6to4 tunnel address (2002::/16) carrying 192.88.99.1, a deprecated 6to4 relay anycast address'],
    // The client address of Teredo is stored inverted: 80ff:fffe is 127.0.0.1, f7f7:f7f7 is 8.8.8.8.
    [
      'Teredo',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
      'a Teredo tunnel address (2001::/32) carrying 127.0.0.1, a loopback address',
    ],
  ];

  it.each(embedding)('refuses every %s address, naming a forbidden IPv4 address it carries', (_form, carryingForbidden, carryingPublic, label) => {
    const form = label.slice(0, label.indexOf(' carrying'));
    expect(webhookUrlProblem(`https://[${carryingForbidden}]/`, production)).toContain(`is ${label}`);
    expect(webhookUrlProblem(`https://[${carryingPublic}]/`, production)).toMatch(
      new RegExp(`is ${form.replace(/[()[\]:.]/g, '\\$&')}; webhooks are only sent`),
    );
    expect(isForbiddenAddress(carryingForbidden)).toBe(true);
    expect(isForbiddenAddress(carryingPublic)).toBe(true);
  });

  it('refuses IPv4-mapped and IPv4-translated addresses in every spelling', () => {
    for (const ip of [
      '::ffff:7f00:1',
      '::ffff:127.0.0.1',
      '0:0:0:0:0:ffff:127.0.0.1',
      '::FFFF:7F00:1',
      '::ffff:0:0',
      '::ffff:ffff:ffff',
      '::ffff:0:0:0',
      '0:0:0:0:ffff:0:127.0.0.1',
      '::ffff:0:ffff:ffff',
      '::ffff:0:7f00:1',
    ]) {
      expect(isForbiddenAddress(ip), ip).toBe(true);
    }
  });

  it('refuses IPv4-compatible addresses (::/96)', () => {
    for (const ip of ['::7f00:1', '::127.0.0.1', '::8.8.8.8', '::ffff']) expect(isForbiddenAddress(ip), ip).toBe(true);
  });

  // Each range inside the global unicast space 2000::/3: first, last, and the public neighbours
  // just outside it.
  const ranges: Array<[string, string, string, string, string]> = [
    ['2001::/23', '2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', '2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:200::'],
    ['2001:db8::/32', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::'],
    ['2002::/16', '2002::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2003::'],
    ['3fff::/20', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', '3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '3fff:1000::'],
  ];

  it.each(ranges)('%s', (_range, first, last, before, after) => {
    expect(isForbiddenAddress(first), first).toBe(true);
    expect(isForbiddenAddress(last), last).toBe(true);
    expect(isForbiddenAddress(before), before).toBe(false);
    expect(isForbiddenAddress(after), after).toBe(false);
  });

  it('allows only the global unicast space 2000::/3', () => {
    expect(isForbiddenAddress('1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe(true);
    expect(isForbiddenAddress('2000::')).toBe(false);
    expect(isForbiddenAddress('3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe(false);
    expect(isForbiddenAddress('4000::')).toBe(true);
    expect(webhookUrlProblem('https://[4000::1]/', production)).toBe(
      "The URL's host [4000::1] is outside the global unicast range (2000::/3), where no host on the public internet is numbered; webhooks are only sent to addresses on the public internet.",
    );
    // Just outside ::/96 and ::ffff:0:0/96, which used to pass.
    for (const ip of ['::1:0:0', '::fffe:ffff:ffff', '::1:0:0:0', 'fe00::', 'e000::1']) expect(isForbiddenAddress(ip), ip).toBe(true);
  });

  it('names each special-purpose range it refuses', () => {
    const labels: Array<[string, string]> = [
      ['64:ff9b:1::1', 'a local-use NAT64 address (64:ff9b:1::/48)'],
      ['64:ff9b:1:0:ffff:ffff:ffff:ffff', 'a local-use NAT64 address (64:ff9b:1::/48)'],
      ['100::1', 'a discard-only address (100::/64)'],
      ['100::ffff:ffff:ffff:ffff', 'a discard-only address (100::/64)'],
      ['2001::f7f7:f7f7', 'a Teredo tunnel address (2001::/32)'],
      ['2001::1', 'a Teredo tunnel address (2001::/32) carrying 255.255.255.254, a reserved address (240.0.0.0/4)'],
      ['2001:2::1', 'a benchmarking address (2001:2::/48)'],
      ['2001:10::1', 'a deprecated ORCHID identifier (2001:10::/28), not an address of a host'],
      ['2001:1f:ffff::1', 'a deprecated ORCHID identifier (2001:10::/28), not an address of a host'],
      ['2001:20::1', 'an ORCHIDv2 identifier (2001:20::/28), not an address of a host'],
      ['2001:1::1', 'an IETF protocol assignment (2001::/23)'],
      ['2001:3::1', 'an IETF protocol assignment (2001::/23)'],
      ['2001:db8::1', 'a documentation address (2001:db8::/32)'],
      ['3fff::1', 'a documentation address (3fff::/20)'],
      ['5f00::1', 'a segment routing identifier (5f00::/16)'],
      ['5f00:ffff::1', 'a segment routing identifier (5f00::/16)'],
      ['fc00::', 'a unique local (private network) address (fc00::/7)'],
      ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'a unique local (private network) address (fc00::/7)'],
      ['fe80::1', 'a link-local address (fe80::/10)'],
      ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'a link-local address (fe80::/10)'],
      ['fec0::1', 'a site-local address (fec0::/10)'],
      ['ff02::1', 'a multicast address (ff00::/8)'],
    ];
    for (const [ip, label] of labels) {
      const url = `https://[${ip}]/`;
      expect(webhookUrlProblem(url, production), ip).toBe(
        `The URL's host ${new URL(url).hostname} is ${label}; webhooks are only sent to addresses on the public internet.`,
      );
    }
  });

  it('refuses an address carrying a zone index', () => {
    for (const ip of ['fe80::1%eth0', '[fe80::1%eth0]', 'fe80::1%25eth0', 'ff02::1%1', '2606:4700::1111%eth0']) {
      expect(isForbiddenAddress(ip), ip).toBe(true);
    }
  });

  it('allows public IPv6 addresses in any spelling', () => {
    for (const ip of [
      '2606:4700::1111',
      '2606:4700:0:0:0:0:0:1111',
      '[2606:4700::1111]',
      '2001:4860:4860::8888',
      '2a00:1450:4001:82a::200e',
      '2001:200::1',
      '2003::1',
    ]) {
      expect(isForbiddenAddress(ip), ip).toBe(false);
    }
  });

  it('refuses text that does not parse as IPv6', () => {
    for (const text of [
      ':::',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      '12345::',
      'g::1',
      '::1.2.3',
      '::256.0.0.1',
      '1:2:3:4:5:6:7::8',
      '1.2.3.4::',
      ':1:2:3:4:5:6:7',
      '[::1',
    ]) {
      expect(isForbiddenAddress(text), text).toBe(true);
    }
  });
});

describe('webhookUrlProblem', () => {
  it('accepts an ordinary https URL', () => {
    expect(webhookUrlProblem('https://hooks.example.com/esign?token=abc', production)).toBeNull();
    expect(webhookUrlProblem('https://hooks.example.com:8443/esign', production)).toBeNull();
    expect(webhookUrlProblem('https://8.8.8.8/hook', production)).toBeNull();
    expect(webhookUrlProblem('https://[2606:4700::1111]/hook', production)).toBeNull();
  });

  it('takes only https, and http too in the embedded and dev modes', () => {
    expect(webhookUrlProblem('http://hooks.example.com/', production)).toMatch(/must start with https:\/\//);
    expect(webhookUrlProblem('http://hooks.example.com/', embedded)).toBeNull();
    expect(webhookUrlProblem('ftp://hooks.example.com/', production)).toMatch(/starts with ftp:/);
    expect(webhookUrlProblem('ftp://hooks.example.com/', embedded)).toMatch(/https:\/\/ or http:\/\//);
    expect(webhookUrlProblem('javascript:alert(1)', embedded)).not.toBeNull();
    expect(webhookUrlProblem('file:///etc/passwd', embedded)).not.toBeNull();
  });

  it('must parse as an absolute URL', () => {
    for (const raw of ['', 'hooks.example.com/x', '/relative', 'https://', 'https://exa mple.com', 'https://[::1/']) {
      expect(webhookUrlProblem(raw, production), raw).not.toBeNull();
    }
    expect(webhookUrlProblem('not a url', production)).toMatch(/space/);
    expect(webhookUrlProblem('notaurl', production)).toMatch(/not a valid absolute URL/);
  });

  it('refuses a user name or password', () => {
    for (const raw of ['https://user:secret@hooks.example.com/', 'https://user@hooks.example.com/', 'https://:secret@hooks.example.com/']) {
      expect(webhookUrlProblem(raw, production), raw).toMatch(/user name or password/);
      expect(webhookUrlProblem(raw, embedded), raw).toMatch(/user name or password/);
    }
  });

  it('refuses a fragment, even an empty one', () => {
    expect(webhookUrlProblem('https://hooks.example.com/x#section', production)).toMatch(/fragment/);
    expect(webhookUrlProblem('https://hooks.example.com/x#', production)).toMatch(/fragment/);
    expect(webhookUrlProblem('https://hooks.example.com#@127.0.0.1/', production)).toMatch(/fragment/);
    expect(webhookUrlProblem('http://localhost:3000/x#y', embedded)).toMatch(/fragment/);
  });

  it('accepts 2,000 characters and refuses 2,001', () => {
    const base = 'https://hooks.example.com/';
    const at = (length: number) => base + 'a'.repeat(length - base.length);
    expect(at(2000)).toHaveLength(2000);
    expect(webhookUrlProblem(at(2000), production)).toBeNull();
    expect(webhookUrlProblem(at(2001), production)).toBe('The URL is 2,001 characters long; at most 2,000 are accepted.');
    expect(webhookUrlProblem(at(2001), embedded)).not.toBeNull();
  });

  it('refuses NUL, other control characters and whitespace anywhere', () => {
    const samples = [
      'https://hooks.example.com/\u0000',
      'https://hooks.example.com\u0000.evil.example/',
      'https://hooks.example.com/a b',
      ' https://hooks.example.com/',
      'https://hooks.example.com/ ',
      'https://hooks.exam\tple.com/',
      'https://hooks.example.com/\r\nHost: other',
      'https://hooks.example.com/\u007f',
      'https://hooks.example.com/\u0085',
      'https://hooks.example.com/\u00a0',
      'https://hooks.example.com/\u2028',
      'https://hooks.example.com/\u3000',
      'https://hooks.exa\u200bmple.com/',
      'https://hooks.example.com/\u202e',
      'https://hooks.example.com/\ufeff',
    ];
    for (const raw of samples) {
      expect(webhookUrlProblem(raw, production), JSON.stringify(raw)).toMatch(/space, a control character or an invisible character/);
      expect(webhookUrlProblem(raw, embedded), JSON.stringify(raw)).not.toBeNull();
    }
  });

  it('refuses local and internal names, however they are spelled', () => {
    const hosts = [
      'localhost',
      'LOCALHOST',
      'LocalHost',
      'localhost.',
      'localhost..',
      'api.localhost',
      'api.localhost.',
      'printer.local',
      'PRINTER.LOCAL.',
      'metadata.google.internal',
      'db.internal',
      'nas.home.arpa',
      'home.arpa',
      '%6c%6fcalhost',
      '\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54', // percent-encoded and full-width
    ];
    for (const host of hosts) {
      expect(webhookUrlProblem(`https://${host}/hook`, production), host).toMatch(/local or internal name/);
      expect(webhookUrlProblem(`http://${host}:8080/hook`, embedded), host).toBeNull();
    }
    // Only whole labels count.
    expect(webhookUrlProblem('https://notlocalhost.example/hook', production)).toBeNull();
    expect(webhookUrlProblem('https://local.example.com/hook', production)).toBeNull();
    expect(webhookUrlProblem('https://internal.example.com/hook', production)).toBeNull();
    expect(webhookUrlProblem('https://hooks.example.com./hook', production)).toBeNull();
  });

  it('refuses single-label names, which resolve through the private search domains', () => {
    expect(webhookUrlProblem('https://metadata/computeMetadata/v1/', production)).toMatch(/single-label/);
    expect(webhookUrlProblem('https://intranet./', production)).toMatch(/single-label/);
    expect(webhookUrlProblem('http://intranet/', embedded)).toBeNull();
  });

  it('catches every numeric form of a loopback IPv4 address', () => {
    // URL parsing normalises all of these to 127.0.0.1 before we look at the host.
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '0x7F000001', '0177.0.0.1', '0177.1', '127.1', '127.0.1', '127.0.0.1.', '0x7f.0.0.0x1']) {
      expect(webhookUrlProblem(`https://${host}/hook`, production), host).toMatch(/host 127\.0\.0\.1 is a loopback address/);
    }
    expect(webhookUrlProblem('https://0/', production)).toMatch(/host 0\.0\.0\.0 is a "this network" address/);
    expect(webhookUrlProblem('https://0xa9.0xfe.0xa9.0xfe/latest/meta-data/', production)).toMatch(/169\.254\.169\.254 is a link-local address/);
    expect(webhookUrlProblem('https://3232235521/', production)).toMatch(/192\.168\.0\.1 is a private network address/);
    expect(webhookUrlProblem('https://134744072/', production)).toBeNull(); // 8.8.8.8
  });

  it('catches IPv6 literals, including IPv4 addresses hidden inside them', () => {
    for (const host of [
      '[::1]',
      '[::]',
      '[0:0:0:0:0:0:0:1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      '[::ffff:169.254.169.254]',
      '[::127.0.0.1]',
      '[64:ff9b::a9fe:a9fe]',
      '[fe80::1]',
      '[fd00::1]',
      '[ff02::1]',
      '[2001:db8::1]',
      '[2002:7f00:1::]',
      '[2001::1]',
      '[100::1]',
      '[::ffff:0:7f00:1]',
      '[::ffff:0:a9fe:a9fe]',
      '[::ffff:0:127.0.0.1]',
      '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
      '[3fff::1]',
      '[5f00::1]',
    ]) {
      expect(webhookUrlProblem(`https://${host}/hook`, production), host).toMatch(/webhooks are only sent to addresses on the public internet/);
      expect(webhookUrlProblem(`http://${host}/hook`, embedded), host).toBeNull();
    }
    expect(webhookUrlProblem('https://[::ffff:169.254.169.254]/', production)).toBe(
      "The URL's host [::ffff:a9fe:a9fe] is an IPv4-mapped address (::ffff:0:0/96) carrying 169.254.169.254, a link-local address (169.254.0.0/16), where cloud metadata services answer; webhooks are only sent to addresses on the public internet.",
    );
  });

  it('refuses an IPv6 literal with a zone index, which does not even parse', () => {
    expect(webhookUrlProblem('https://[fe80::1%25eth0]/', production)).toMatch(/not a valid absolute URL/);
  });

  it('refuses the deprecated 6to4 relay anycast range, in any spelling', () => {
    for (const host of ['192.88.99.1', '192.88.99.0', '192.88.99.255', '3227017985', '0xc0.0x58.0x63.1']) {
      expect(webhookUrlProblem(`https://${host}/hook`, production), host).toMatch(/is a deprecated 6to4 relay anycast address \(192\.88\.99\.0\/24\)/);
      expect(webhookUrlProblem(`http://${host}/hook`, embedded), host).toBeNull();
    }
    expect(webhookUrlProblem('https://192.88.98.255/hook', production)).toBeNull();
    expect(webhookUrlProblem('https://192.88.100.0/hook', production)).toBeNull();
  });

  it('refuses port 0 in every mode, and takes ports 1 to 65535', () => {
    for (const raw of ['https://hooks.example.com:0/x', 'https://hooks.example.com:00/x', 'https://8.8.8.8:0/']) {
      expect(webhookUrlProblem(raw, production), raw).toMatch(/port is 0, where nothing can listen/);
    }
    expect(webhookUrlProblem('http://127.0.0.1:0/x', embedded)).toMatch(/port is 0/);
    expect(webhookUrlProblem('https://hooks.example.com:1/x', production)).toBeNull();
    expect(webhookUrlProblem('https://hooks.example.com:65535/x', production)).toBeNull();
    expect(webhookUrlProblem('https://hooks.example.com:65536/x', production)).toMatch(/not a valid absolute URL/);
  });

  it('counts the 2,000 characters on the normalised URL too, which can be longer than the one given', () => {
    // `é` is written out as `%C3%A9`: five characters more.
    const base = 'https://hooks.example.com/\u00e9';
    const at = (normalisedLength: number) => base + 'a'.repeat(normalisedLength - 5 - base.length);
    expect(webhookEndpoint(at(2000))).toHaveLength(2000);
    expect(webhookUrlProblem(at(2000), production)).toBeNull();
    expect(at(2001)).toHaveLength(1996);
    expect(webhookUrlProblem(at(2001), production)).toBe(
      'Written out in full, with non-ASCII characters percent-encoded, the URL is 2,001 characters long; at most 2,000 are accepted.',
    );
  });
});

describe('webhookEndpoint', () => {
  // What is given → what is stored, answered and compared: the URL standard's own serialisation.
  const table: Array<[string, string]> = [
    ['https://hooks.example.com/a', 'https://hooks.example.com/a'],
    ['HTTPS://Hooks.Example.COM/a', 'https://hooks.example.com/a'],
    ['https://hooks.example.com:443/a', 'https://hooks.example.com/a'],
    ['http://hooks.example.com:80/a', 'http://hooks.example.com/a'],
    ['https://hooks.example.com:8443/a', 'https://hooks.example.com:8443/a'],
    ['https://hooks.example.com:08443/a', 'https://hooks.example.com:8443/a'],
    ['http://hooks.example.com:443/a', 'http://hooks.example.com:443/a'],
    ['https://hooks.example.com', 'https://hooks.example.com/'],
    ['https://hooks.example.com/x/../a', 'https://hooks.example.com/a'],
    ['https://hooks.example.com/./a/./b/..', 'https://hooks.example.com/a/'],
    ['https://hooks.example.com/%2e%2E/a', 'https://hooks.example.com/a'],
    ['https://hooks.example.com/a/', 'https://hooks.example.com/a/'],
    ['https://hooks.example.com/a?b=1&c=2', 'https://hooks.example.com/a?b=1&c=2'],
    ['https://hooks.example.com/r\u00e9sum\u00e9', 'https://hooks.example.com/r%C3%A9sum%C3%A9'],
    ['https://b\u00fccher.example/a', 'https://xn--bcher-kva.example/a'],
    ['http://2130706433/a', 'http://127.0.0.1/a'],
    ['http://0x7f.1/', 'http://127.0.0.1/'],
    ['http://127.1/', 'http://127.0.0.1/'],
    ['http://0177.0.0.1/', 'http://127.0.0.1/'],
    ['https://134744072/a', 'https://8.8.8.8/a'],
    ['https://[2606:4700:0:0:0:0:0:1111]/a', 'https://[2606:4700::1111]/a'],
    ['https://[2001:DB8:0:0:1:0:0:1]/', 'https://[2001:db8::1:0:0:1]/'],
    ['http://[::FFFF:127.0.0.1]/', 'http://[::ffff:7f00:1]/'],
    // RFC 3986, section 6.2.2: escapes of unreserved characters decoded, other escapes in upper case.
    ['https://hooks.example.com/%64ir/%7Euser', 'https://hooks.example.com/dir/~user'],
    ['https://hooks.example.com/%41%5a%30%2D%2e%5F', 'https://hooks.example.com/AZ0-._'],
    ['https://hooks.example.com/a%3ab%2f?q=%2b%41', 'https://hooks.example.com/a%3Ab%2F?q=%2BA'],
    ['https://hooks.example.com/a/%2E%2E/b', 'https://hooks.example.com/b'],
    ['https://hooks.example.com/%25', 'https://hooks.example.com/%25'],
    // An empty query says nothing: dropped.
    ['https://hooks.example.com/a?', 'https://hooks.example.com/a'],
    ['https://hooks.example.com?', 'https://hooks.example.com/'],
    // Trailing and repeated slashes are kept as given (endpointKey compares without them).
    ['https://hooks.example.com//a//b/', 'https://hooks.example.com//a//b/'],
  ];

  it.each(table)('%s → %s', (given, stored) => {
    expect(webhookUrlProblem(given, embedded)).toBeNull();
    expect(webhookEndpoint(given)).toBe(stored);
    // Normalising the stored form changes nothing, and it is accepted wherever the given one was.
    expect(webhookEndpoint(stored)).toBe(stored);
    expect(webhookUrlProblem(stored, embedded)).toBeNull();
    expect(webhookUrlProblem(stored, production)).toBe(webhookUrlProblem(given, production));
  });

  it.each([
    ['https://hooks.example.com/a', 'https://hooks.example.com/a/'],
    ['https://hooks.example.com/a', 'https://hooks.example.com//a'],
    ['https://hooks.example.com/a/b', 'https://hooks.example.com/a///b//'],
    ['https://hooks.example.com/a?x=1', 'https://hooks.example.com/a/?x=1'],
    ['https://hooks.example.com/', 'https://hooks.example.com//'],
    ['https://hooks.example.com/d', 'HTTPS://Hooks.Example.com:443/%64/?'],
  ])('compares %s and %s as one endpoint', (one, other) => {
    expect(endpointKey(one)).toBe(endpointKey(other));
  });

  it.each([
    ['https://hooks.example.com/a', 'https://hooks.example.com/a?x'],
    ['https://hooks.example.com/a', 'https://hooks.example.com/a%2F'],
    ['https://hooks.example.com/a', 'https://hooks.example.com/A'],
    ['https://hooks.example.com/a?x=1', 'https://hooks.example.com/a?x=1&'],
  ])('compares %s and %s as two endpoints', (one, other) => {
    expect(endpointKey(one)).not.toBe(endpointKey(other));
  });

  it('never holds a fragment or credentials, which are refused before', () => {
    expect(webhookUrlProblem('https://hooks.example.com/a#b', production)).toMatch(/fragment/);
    expect(webhookUrlProblem('https://u:p@hooks.example.com/a', production)).toMatch(/user name or password/);
  });
});

describe('resolvedTargetProblem', () => {
  const answering = (answers: Record<string, string[]>): HostResolver => ({
    resolve: async (hostname) => {
      const found = answers[hostname];
      if (!found) throw new Error(`ENOTFOUND ${hostname}`);
      return found;
    },
  });
  const resolver = answering({
    'private.example.com': ['10.0.0.1'],
    'public.example.com': ['93.184.216.34'],
    'both.example.com': ['93.184.216.34', '10.0.0.1'],
    'v6.example.com': ['2606:4700::1111', 'fd00::1'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
    'empty.example.com': [],
    'garbage.example.com': ['not-an-address'],
  });
  const target = (host: string) => new URL(`https://${host}/hook`);

  it('refuses a name resolving to a private address', async () => {
    expect(await resolvedTargetProblem(target('private.example.com'), resolver, production)).toBe(
      'The host name private.example.com resolves to 10.0.0.1, a private network address (10.0.0.0/8); webhooks are only sent to addresses on the public internet.',
    );
  });

  it('accepts a name resolving to public addresses only', async () => {
    expect(await resolvedTargetProblem(target('public.example.com'), resolver, production)).toBeNull();
  });

  it('refuses when any one of the answers is forbidden', async () => {
    expect(await resolvedTargetProblem(target('both.example.com'), resolver, production)).toMatch(/resolves to 10\.0\.0\.1/);
    expect(await resolvedTargetProblem(target('v6.example.com'), resolver, production)).toMatch(/resolves to fd00::1, a unique local/);
    expect(await resolvedTargetProblem(target('mapped.example.com'), resolver, production)).toMatch(/IPv4-mapped/);
    expect(await resolvedTargetProblem(target('garbage.example.com'), resolver, production)).toMatch(/not a valid IP address/);
  });

  it('refuses a name that does not resolve, or resolves to nothing', async () => {
    expect(await resolvedTargetProblem(target('missing.example.com'), resolver, production)).toBe(
      'The host name missing.example.com could not be resolved to an address; check that it is spelled correctly and published in public DNS.',
    );
    expect(await resolvedTargetProblem(target('empty.example.com'), resolver, production)).toMatch(/could not be resolved/);
  });

  it('checks nothing by name without a resolver (the Workers runtime)', async () => {
    expect(await resolvedTargetProblem(target('private.example.com'), undefined, production)).toBeNull();
  });

  it('still judges an IP-literal host, with or without a resolver, and never looks it up', async () => {
    const resolve = vi.fn(async () => ['8.8.8.8']);
    expect(await resolvedTargetProblem(new URL('https://10.1.2.3/'), { resolve }, production)).toMatch(/10\.1\.2\.3 is a private network address/);
    expect(await resolvedTargetProblem(new URL('https://[::1]/'), undefined, production)).toMatch(/loopback/);
    expect(await resolvedTargetProblem(new URL('https://8.8.8.8/'), { resolve }, production)).toBeNull();
    expect(resolve).not.toHaveBeenCalled();
  });

  it('checks nothing when private targets are allowed', async () => {
    const resolve = vi.fn(async () => ['127.0.0.1']);
    expect(await resolvedTargetProblem(new URL('http://localhost:3000/'), { resolve }, embedded)).toBeNull();
    expect(await resolvedTargetProblem(new URL('http://127.0.0.1:3000/'), undefined, embedded)).toBeNull();
    expect(resolve).not.toHaveBeenCalled();
  });
});

describe('nodeHostResolver', () => {
  afterEach(() => vi.mocked(lookup).mockClear());

  it('resolves with the operating system resolver, every answer', async () => {
    const addresses = await nodeHostResolver.resolve('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every((address) => isForbiddenAddress(address))).toBe(true);
    expect(lookup).toHaveBeenCalledWith('localhost', { all: true, verbatim: true });
    expect(await resolvedTargetProblem(new URL('https://localhost/'), nodeHostResolver, production)).toMatch(/loopback/);
  });

  it('judges every answer of the system resolver by the same rule as a literal host', async () => {
    const answers = [
      '::ffff:0:7f00:1',
      '::ffff:0:a9fe:a9fe',
      '::ffff:7f00:1',
      '::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::1',
      '2002:a00:1::1',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '192.88.99.1',
      '2001:2::1',
      '3fff::1',
      '5f00::1',
    ];
    for (const address of answers) {
      vi.mocked(lookup).mockImplementationOnce((async () => [
        { address: '93.184.216.34', family: 4 },
        { address, family: address.includes(':') ? 6 : 4 },
      ]) as unknown as typeof lookup);
      const problem = await resolvedTargetProblem(new URL('https://hooks.example.com/'), nodeHostResolver, production);
      expect(problem, address).toMatch(
        new RegExp(`^The host name hooks\\.example\\.com resolves to ${address.replace(/\./g, '\\.')}, .*; webhooks are only sent`),
      );
    }
    vi.mocked(lookup).mockImplementationOnce((async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ]) as unknown as typeof lookup);
    expect(await resolvedTargetProblem(new URL('https://hooks.example.com/'), nodeHostResolver, production)).toBeNull();
  });

  it('refuses a lookup that does not answer in time', async () => {
    vi.mocked(lookup).mockImplementationOnce((() => new Promise(() => {})) as unknown as typeof lookup);
    const slow = createNodeHostResolver(50);
    await expect(slow.resolve('slow.example.com')).rejects.toThrow(/took longer than 50 ms/);
    vi.mocked(lookup).mockImplementationOnce((() => new Promise(() => {})) as unknown as typeof lookup);
    expect(await resolvedTargetProblem(new URL('https://slow.example.com/'), slow, production)).toMatch(/could not be resolved/);
  });
});
