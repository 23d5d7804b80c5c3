/**
 * An API key's IP allow-list: IPv4 and IPv6 addresses and CIDR ranges, checked with node:net's
 * BlockList (built once per cached credential, so a check is a lookup, not a parse). The address
 * checked is Fastify's request.ip: the socket's peer, or the X-Forwarded-For hop that TRUST_PROXY
 * says to believe (src/app.ts), never a header the client alone controls.
 */
import { BlockList, isIP, isIPv4 } from 'node:net';
import { invalidField } from '../../errors.ts';

export const MAX_ALLOWED_IPS = 20;

/** `entry` parsed: an address, or a network and its prefix length. */
function parse(entry: string): { address: string; family: 'ipv4' | 'ipv6'; prefix?: number } | undefined {
  const [address = '', prefixText, extra] = entry.split('/');
  if (extra !== undefined) return undefined;
  const version = isIP(address);
  if (version === 0) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family };
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix <= (version === 4 ? 32 : 128) ? { address, family, prefix } : undefined;
}

/** Validates and normalizes (trimmed, deduplicated) an allow-list from a request; 400 names the bad entry. */
export function validateAllowedIps(entries: readonly string[]): string[] {
  const list = [...new Set(entries.map((entry) => entry.trim()))];
  if (list.length > MAX_ALLOWED_IPS) throw invalidField('body.allowedIps', `has at most ${MAX_ALLOWED_IPS} entries`);
  for (const entry of list) {
    if (!parse(entry)) throw invalidField('body.allowedIps', `entry "${entry.slice(0, 60)}" is not an IPv4 or IPv6 address or CIDR range`);
  }
  return list;
}

export function buildAllowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parse(entry);
    if (!parsed) continue; // validated on the way in; a row edited by hand allows nothing extra
    if (parsed.prefix === undefined) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}

/** An IPv4 peer on a dual-stack socket arrives as ::ffff:a.b.c.d; it is checked as the IPv4 address it is. */
export function ipAllowed(list: BlockList, ip: string): boolean {
  const mapped = ip.startsWith('::ffff:') ? ip.slice(7) : undefined;
  if (mapped !== undefined && isIPv4(mapped)) return list.check(mapped, 'ipv4');
  return isIPv4(ip) ? list.check(ip, 'ipv4') : isIP(ip) === 6 && list.check(ip, 'ipv6');
}
