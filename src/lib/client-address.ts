/**
 * The part of a client's address that names one client for throttling: an IPv4 address whole, an
 * IPv6 address by its /64 (one subscriber's network: its hosts pick any of 2^64 addresses, so
 * counting per address would count nothing), an IPv4-mapped IPv6 address as its IPv4.
 */
import { isIPv4, isIPv6 } from 'node:net';

export function clientPrefix(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  // An embedded IPv4 tail (a:b::1.2.3.4) sits in the host half: it never reaches the first four groups.
  const groups = ip.includes('::') ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups] : headGroups;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
