/**
 * Where webhooks may be sent (SSRF guard). Checked when an endpoint is registered or changed,
 * and again on every attempt, on every address the host resolves to; the connection itself is
 * made only to an address that passed (see http-sender.ts), so DNS cannot swap it afterwards.
 *
 *   https://  any permitted address.
 *   http://   only with WEBHOOK_ALLOW_HTTP, and only when every address is non-public (loopback,
 *             or private ones when those are permitted): plain HTTP never crosses the internet.
 *   permitted public unicast always; loopback with WEBHOOK_ALLOW_HTTP (development receivers) or
 *             WEBHOOK_ALLOW_PRIVATE_TARGETS; private, shared (CGNAT), link-local and unique-local
 *             with WEBHOOK_ALLOW_PRIVATE_TARGETS; never: unspecified, multicast, broadcast,
 *             reserved and documentation ranges, and the cloud metadata addresses.
 * IPv4-mapped, IPv4-compatible, NAT64 and 6to4 IPv6 forms are judged by the IPv4 they carry.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export type AddressClass = 'public' | 'loopback' | 'private' | 'forbidden';

export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivateTargets: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the system resolver, as connections use). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

type Range = [base: bigint, prefix: number, cls: AddressClass];

const v4 = (text: string): bigint => {
  const parts = text.split('.').map(Number);
  return parts.reduce((acc, part) => (acc << 8n) | BigInt(part), 0n);
};

/** IPv4 ranges, most specific first where they overlap. */
const IPV4_RANGES: Range[] = [
  [v4('169.254.169.254'), 32, 'forbidden'], // cloud metadata
  [v4('0.0.0.0'), 8, 'forbidden'], // "this network"; 0.0.0.0 reaches the local host
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'private'], // shared address space (CGNAT)
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'private'], // link-local
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'private'], // IETF protocol assignments
  [v4('192.0.2.0'), 24, 'forbidden'], // documentation
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'private'], // benchmarking
  [v4('198.51.100.0'), 24, 'forbidden'], // documentation
  [v4('203.0.113.0'), 24, 'forbidden'], // documentation
  [v4('224.0.0.0'), 4, 'forbidden'], // multicast
  [v4('240.0.0.0'), 4, 'forbidden'], // reserved, and 255.255.255.255 broadcast
];

const inRange = (value: bigint, bits: number, base: bigint, prefix: number) => value >> BigInt(bits - prefix) === base >> BigInt(bits - prefix);

function classifyV4(value: bigint): AddressClass {
  for (const [base, prefix, cls] of IPV4_RANGES) if (inRange(value, 32, base, prefix)) return cls;
  return 'public';
}

/** The 128-bit value of an IPv6 address (with or without a dotted IPv4 tail), or undefined. */
function parseV6(text: string): bigint | undefined {
  let address = text.split('%')[0]!.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (tail) {
    const value = v4(tail[1]!);
    address = `${address.slice(0, -tail[1]!.length)}${(value >> 16n).toString(16)}:${(value & 0xffffn).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const groups = halves.length === 2 ? [...head, ...Array<string>(8 - head.length - rest.length).fill('0'), ...rest] : head;
  if (groups.length !== 8 || groups.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const v6 = (text: string) => parseV6(text)!;

const IPV6_RANGES: Range[] = [
  [v6('fd00:ec2::254'), 128, 'forbidden'], // cloud metadata (AWS, IPv6)
  [v6('::'), 128, 'forbidden'], // unspecified
  [v6('::1'), 128, 'loopback'],
  [v6('fe80::'), 10, 'private'], // link-local
  [v6('fc00::'), 7, 'private'], // unique local
  [v6('ff00::'), 8, 'forbidden'], // multicast
  [v6('2001:db8::'), 32, 'forbidden'], // documentation
  [v6('100::'), 64, 'forbidden'], // discard-only
];

/** IPv6 forms that carry an IPv4 address in their low 32 bits (or bits 16..48 for 6to4). */
function embeddedV4(value: bigint): bigint | undefined {
  const high96 = value >> 32n;
  if (high96 === 0xffffn) return value & 0xffffffffn; // ::ffff:a.b.c.d (IPv4-mapped)
  if (high96 === 0n && value > 1n) return value & 0xffffffffn; // ::a.b.c.d (IPv4-compatible, deprecated)
  if (value >> 32n === v6('64:ff9b::') >> 32n) return value & 0xffffffffn; // NAT64 well-known prefix
  if (value >> 112n === 0x2002n) return (value >> 80n) & 0xffffffffn; // 6to4
  return undefined;
}

/** The class of an IP address literal (v4 or v6); anything unparsable is forbidden. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address.split('%')[0]!);
  if (family === 4) return classifyV4(v4(address));
  if (family !== 6) return 'forbidden';
  const value = parseV6(address);
  if (value === undefined) return 'forbidden';
  for (const [base, prefix, cls] of IPV6_RANGES) if (inRange(value, 128, base, prefix)) return cls;
  const mapped = embeddedV4(value);
  return mapped === undefined ? 'public' : classifyV4(mapped);
}

export function isPermittedClass(cls: AddressClass, policy: UrlPolicy): boolean {
  switch (cls) {
    case 'public':
      return true;
    case 'loopback':
      return policy.allowHttp || policy.allowPrivateTargets;
    case 'private':
      return policy.allowPrivateTargets;
    case 'forbidden':
      return false;
  }
}

export type UrlCheck = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; reason: string };

/** The URL's syntax and scheme, before any resolution. */
export function parseWebhookUrl(text: string): { ok: true; url: URL } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'must be an absolute http(s) URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must use https' };
  if (url.username || url.password) return { ok: false, reason: 'must not contain credentials (user:password@)' };
  if (url.hash) return { ok: false, reason: 'must not contain a fragment (#...)' };
  if (!url.hostname) return { ok: false, reason: 'must name a host' };
  return { ok: true, url };
}

/** Strips the brackets of an IPv6 literal host. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/** Judges a set of addresses of one URL against the policy. */
export function checkAddresses(url: URL, addresses: ResolvedAddress[], policy: UrlPolicy): UrlCheck {
  if (addresses.length === 0) return { ok: false, reason: 'host does not resolve' };
  const classes = addresses.map((entry) => ({ ...entry, cls: classifyAddress(entry.address) }));
  const refused = classes.find((entry) => !isPermittedClass(entry.cls, policy));
  if (refused) {
    const what = refused.cls === 'forbidden' ? 'a forbidden (reserved, multicast or metadata)' : `a ${refused.cls}`;
    return { ok: false, reason: `must not target ${what} address (${refused.address})` };
  }
  if (url.protocol === 'http:') {
    if (!policy.allowHttp) return { ok: false, reason: 'must use https' };
    if (classes.some((entry) => entry.cls === 'public')) return { ok: false, reason: 'must use https (plain http is accepted only for local receivers)' };
  }
  return { ok: true, url, addresses };
}

/** Parses, resolves (unless the host is an IP literal) and judges a webhook URL. */
export async function checkWebhookUrl(text: string, policy: UrlPolicy, resolve: Resolver = systemResolver): Promise<UrlCheck> {
  const parsed = parseWebhookUrl(text);
  if (!parsed.ok) return parsed;
  const { url } = parsed;
  const host = bareHost(url.hostname);
  const literal = isIP(host);
  // An IP literal is judged without any lookup or connection.
  if (literal) return checkAddresses(url, [{ address: host, family: literal === 6 ? 6 : 4 }], policy);
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return { ok: false, reason: 'host does not resolve' };
  }
  return checkAddresses(url, addresses, policy);
}
