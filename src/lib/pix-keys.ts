/**
 * PIX keys as the DICT (Diretório de Identificadores de Contas Transacionais) stores them:
 * CPF 11 digits, CNPJ 14 characters (numeric, or alphanumeric from July 2026), PHONE in E.164
 * with +55, EMAIL lowercase up to 77 characters, EVP (random key) a lowercase UUID.
 *
 * `validatePixKey` returns the key in DICT form. It forgives only what cannot change which key
 * is meant: CPF/CNPJ punctuation, letter case of CNPJ letters, e-mails and UUIDs. Phones must
 * already be E.164: guessing a country code or DDD could send money to somebody else.
 */
import { isValidCnpj, isValidCpf, normalizeDocument } from './br-documents.ts';

export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';

export type PixKeyCheck = { ok: true; normalized: string } | { ok: false; reason: string };

/** DICT: +55, 2-digit DDD (no leading 0), 8 (landline) or 9 (mobile) digits. */
const PHONE = /^\+55[1-9][0-9]\d{8,9}$/;
const MAX_EMAIL_LENGTH = 77;
/**
 * The DICT e-mail pattern (local part of RFC 5322 atom characters and dots; domain of LDH labels),
 * except that we also require a dot in the domain: no registrable mailbox lives on a bare host.
 */
const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** ASCII-only lowercase: String#toLowerCase turns the KELVIN SIGN into 'k', letting a look-alike through. */
const asciiLower = (value: string): string => value.replace(/[A-Z]/g, (c) => c.toLowerCase());

export function validatePixKey(type: PixKeyType, key: string): PixKeyCheck {
  switch (type) {
    case 'CPF': {
      // Formatted (529.982.247-25) or bare; the key is the 11 bare digits.
      const normalized = normalizeDocument(key);
      return isValidCpf(normalized)
        ? { ok: true, normalized }
        : { ok: false, reason: 'CPF key must be 11 digits with valid check digits, e.g. 52998224725' };
    }
    case 'CNPJ': {
      // Formatted or bare, numeric or alphanumeric; letters are upper-cased, as the Receita writes them.
      const normalized = normalizeDocument(key);
      return isValidCnpj(normalized)
        ? { ok: true, normalized }
        : {
            ok: false,
            reason: 'CNPJ key must be 14 characters (12 letters or digits, then 2 check digits) with valid check digits',
          };
    }
    case 'PHONE':
      return PHONE.test(key)
        ? { ok: true, normalized: key }
        : { ok: false, reason: 'phone key must be E.164 with +55, DDD and number, no spaces, e.g. +5511998765432' };
    case 'EMAIL': {
      // The DICT holds e-mail keys in lowercase only, so "Fulano@Example.com" can only mean the key
      // "fulano@example.com" (domains are case-insensitive anyway): we lowercase rather than reject
      // what people type. Surrounding whitespace is not trimmed: it is rejected.
      const normalized = asciiLower(key);
      if (normalized.length > MAX_EMAIL_LENGTH) {
        return { ok: false, reason: `e-mail key must be at most ${MAX_EMAIL_LENGTH} characters` };
      }
      return EMAIL.test(normalized)
        ? { ok: true, normalized }
        : { ok: false, reason: 'e-mail key must look like name@example.com (ASCII, no spaces)' };
    }
    case 'EVP': {
      // UUIDs are case-insensitive on input (RFC 9562 §4); the DICT issues and stores them lowercase.
      const normalized = asciiLower(key);
      return EVP.test(normalized)
        ? { ok: true, normalized }
        : { ok: false, reason: 'random key (EVP) must be a UUID like 123e4567-e12b-12d1-a456-426655440000' };
    }
    default:
      return { ok: false, reason: `unknown PIX key type: ${String(type satisfies never)}` };
  }
}
