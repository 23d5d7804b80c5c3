/**
 * Personal data at rest (issue 38, docs/decisions/0026-personal-data-sealed-at-rest.md): a
 * receiver's document, name, email, phone and address are stored sealed with AES-256-GCM under a key
 * derived (HKDF-SHA256, label `personal-data`) from the KEK of the key custody (WALLET_KEK, its
 * version and WALLET_KEK_PREVIOUS, as every Solana key: src/lib/key-vault.ts), so one secret
 * custody, one rotation (`admin rotate-kek`).
 *
 * A sealed value carries its own KEK version: `pd<version>:` + the AEAD box's `v1:…` text. The
 * associated data is the kind of the value (`document`, `name`…), not the row: a sealed name never
 * opens as a document, but a sealed value may be copied as it is into another table (the
 * operations register copies the receiver's name and document with one INSERT … SELECT) and still
 * opens there. A value without the prefix is clear text from before migration 0046, read as it is
 * until the sealing pass (`admin rotate-kek`, and every start) seals it.
 *
 * Where the code looks a value up (a receiver's document: uniqueness per merchant, the wallet one
 * person proves), a keyed hash stands beside it: HMAC-SHA256 under a key derived from the KEK
 * (label `personal-data-index`), hex, prefixed with its version like the sealed value. Rotation
 * recomputes it with the seal; until then a lookup asks for the hash under every version it knows.
 */
import { createHmac } from 'node:crypto';
import { type AeadBox, createAeadBox, deriveKey } from './aead.ts';
import type { KeyVaultSettings } from './key-vault.ts';

/**
 * `account`: where a party's money went or came from, a PIX key (itself a CPF, email or phone) or a wallet.
 * `address`: any part of a postal address (street, number, complement, neighbourhood, city, state, postal code).
 */
export type PersonalDataKind = 'document' | 'name' | 'email' | 'phone' | 'account' | 'address';

export interface PersonalData {
  readonly currentVersion: number;
  seal(kind: PersonalDataKind, plaintext: string): string;
  sealNullable(kind: PersonalDataKind, plaintext: string | null): string | null;
  /** The clear text of a stored value (sealed under any known version, or legacy clear text). Throws if it does not open. */
  open(kind: PersonalDataKind, stored: string): string;
  openNullable(kind: PersonalDataKind, stored: string | null): string | null;
  /** The blind index of `value` under the current version (what a new row stores). */
  index(kind: PersonalDataKind, value: string): string;
  /** The blind index of `value` under every version known (what a lookup asks for). */
  indexes(kind: PersonalDataKind, value: string): string[];
  /** The version that sealed a stored value; null for clear text. */
  versionOf(stored: string): number | null;
  canOpen(version: number): boolean;
}

const SEALED = /^pd(\d+):(v1:.+)$/s;

export function createPersonalData(settings: KeyVaultSettings): PersonalData {
  const boxes = new Map<number, AeadBox>();
  const indexKeys = new Map<number, Buffer>();
  const add = (version: number, kek: string) => {
    const master = Buffer.from(kek, 'base64');
    boxes.set(version, createAeadBox(deriveKey(master, 'personal-data')));
    indexKeys.set(version, deriveKey(master, 'personal-data-index'));
  };
  for (const [version, kek] of Object.entries(settings.previous ?? {})) add(Number(version), kek);
  add(settings.version, settings.kek);
  const current = settings.version;
  const aad = (kind: PersonalDataKind) => `personal-data:${kind}`;
  const hmac = (version: number, kind: PersonalDataKind, value: string) =>
    `${version}:${createHmac('sha256', indexKeys.get(version)!).update(`${kind}:${value}`).digest('hex')}`;

  function versionOf(stored: string): number | null {
    const match = SEALED.exec(stored);
    return match ? Number(match[1]) : null;
  }

  function open(kind: PersonalDataKind, stored: string): string {
    const match = SEALED.exec(stored);
    if (!match) return stored;
    const version = Number(match[1]);
    const box = boxes.get(version);
    // Never the value in the message: only its kind and version.
    if (!box) throw new Error(`personal data (${kind}) is sealed under KEK version ${version}, which neither WALLET_KEK nor WALLET_KEK_PREVIOUS holds`);
    return box.open(match[2]!, aad(kind)).toString('utf8');
  }

  const seal = (kind: PersonalDataKind, plaintext: string) => `pd${current}:${boxes.get(current)!.seal(Buffer.from(plaintext, 'utf8'), aad(kind))}`;

  return {
    currentVersion: current,
    seal,
    sealNullable: (kind, plaintext) => (plaintext === null ? null : seal(kind, plaintext)),
    open,
    openNullable: (kind, stored) => (stored === null ? null : open(kind, stored)),
    index: (kind, value) => hmac(current, kind, value),
    indexes: (kind, value) => [current, ...[...indexKeys.keys()].filter((version) => version !== current)].map((version) => hmac(version, kind, value)),
    versionOf,
    canOpen: (version) => boxes.has(version),
  };
}
