/** Checks and conversions of setting values that JSON Schema keywords cannot express (used as refinements and codecs by schema.ts). */
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
