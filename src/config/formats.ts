/** Checks and conversions of setting values that JSON Schema keywords cannot express (used as refinements and codecs by schema.ts). */
import { isIP } from 'node:net';
import { type PixKeyType, validatePixKey } from '../lib/pix-keys.ts';

/** 32 bytes, base64 (or base64url). */
export function isKey32(value: string): boolean {
  return /^[A-Za-z0-9+/_-]{43}=?$/.test(value) && Buffer.from(value, 'base64').length === 32;
}

/** "version:base64key" with a version from 1 to 99999. */
const VERSIONED_KEY = /^(\d{1,5}):(.+)$/;

export function isVersionedKey(item: string): boolean {
  const match = VERSIONED_KEY.exec(item);
  return match !== null && Number(match[1]) >= 1 && isKey32(match[2]!);
}

/** Valid "version:key" items as a map from version to key. */
export function versionedKeys(items: string[]): Record<number, string> {
  const keys: Record<number, string> = {};
  for (const item of items) {
    const [, version, key] = VERSIONED_KEY.exec(item)!;
    keys[Number(version)] = key!;
  }
  return keys;
}

/** A URL whose scheme is one of `protocols` (e.g. "postgres:"). */
export function isUrlWith(protocols: string[], value: string): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** PEM from the environment: `\n` escapes are accepted so the key fits on one line. */
export function unescapeNewlines(value: string): string {
  return value.replace(/\\n/g, '\n');
}

export function isPkcs8Pem(value: string): boolean {
  return /^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\s*$/.test(unescapeNewlines(value));
}

/** The key in DICT form under the first type it is valid as; a key's format decides its type. */
export function normalizedPixKey(key: string): string | undefined {
  const types: PixKeyType[] = ['EVP', 'EMAIL', 'PHONE', 'CPF', 'CNPJ'];
  for (const type of types) {
    const check = validatePixKey(type, key);
    if (check.ok) return check.normalized;
  }
  return undefined;
}

/**
 * TRUST_PROXY: no proxy is trusted (false, 0), the number of proxies in front of the service (the
 * client is the address the outermost one appended to X-Forwarded-For), or the proxies' addresses
 * and CIDRs (and proxy-addr's names loopback, linklocal, uniquelocal). Never "true": that trusts
 * whatever X-Forwarded-For a client sends, so a rotated header is a new client to every limit.
 */
export type TrustProxy = false | number | string[];

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(item: string): boolean {
  if (PROXY_RANGE_NAMES.has(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

export function isTrustProxy(value: string): boolean {
  if (/^(false|\d{1,3})$/i.test(value)) return true;
  const items = value.split(',').map((item) => item.trim());
  return items.every((item) => item !== '' && isProxyAddress(item));
}

export function trustProxyOf(value: string): TrustProxy {
  if (/^false$/i.test(value)) return false;
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  return value.split(',').map((item) => item.trim());
}
