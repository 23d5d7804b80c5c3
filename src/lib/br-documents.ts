/**
 * Brazilian taxpayer documents: CPF (natural persons, PF) and CNPJ (legal entities, PJ).
 *
 * Both end in two mod-11 check digits (DVs) set by the Receita Federal. From July 2026 the CNPJ
 * may also contain letters (IN RFB 2.229/2024, arts. 3º-A and 3º-B): 12 characters [0-9A-Z]
 * followed by 2 check digits that are always numeric.
 *
 * The check digits catch most typos, not all: remainders 0 and 1 both give DV 0, so a rare
 * single-digit change goes unnoticed, and in an alphanumeric CNPJ any two characters whose values
 * differ by a multiple of 11 (e.g. '7' = 7 and 'B' = 18) are interchangeable. A valid CPF/CNPJ
 * is well formed, not proof that it is registered.
 */

export type DocumentType = 'CPF' | 'CNPJ';
export type PersonType = 'PF' | 'PJ';

export type DocumentCheck =
  | { ok: true; normalized: string; documentType: DocumentType }
  | { ok: false; reason: string };

const CPF_DV1_WEIGHTS = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_DV2_WEIGHTS = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_DV1_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_DV2_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

const CPF_SHAPE = /^\d{11}$/;
const CNPJ_SHAPE = /^[0-9A-Z]{12}\d{2}$/;
// A run of one digit passes the DV arithmetic (00000000000, 11111111111, ... all "check out"),
// so the Receita Federal treats these as invalid placeholders rather than real registrations.
const ONE_REPEATED_DIGIT = /^(\d)\1*$/;

/**
 * One mod-11 check digit: sum of value × weight, r = sum % 11, dv = r < 2 ? 0 : 11 - r.
 * A character's value is its ASCII code minus 48, which is the digit itself for '0'..'9' and
 * 'A' = 17 … 'Z' = 42 for the alphanumeric CNPJ (IN RFB 2.229/2024, Annex).
 */
function checkDigit(chars: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (chars.charCodeAt(i) - 48) * (weights[i] ?? 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

function twoCheckDigits(base: string, dv1Weights: readonly number[], dv2Weights: readonly number[]): string {
  const dv1 = checkDigit(base, dv1Weights);
  const dv2 = checkDigit(`${base}${dv1}`, dv2Weights);
  return `${dv1}${dv2}`;
}

/**
 * Removes the standard separators `.`, `/` and `-` wherever they are, then trims surrounding
 * whitespace (so "- 123" cannot leave a leading space behind), and upper-cases ASCII letters.
 * Does not validate: inner whitespace stays and makes the document invalid.
 * Only a-z is upper-cased: String#toUpperCase would turn e.g. 'ı' (dotless i) into 'I' and
 * 'ſ' into 'S', letting look-alike characters through as valid CNPJ letters.
 */
export function normalizeDocument(input: string): string {
  return input
    .replace(/[./-]/g, '')
    .trim()
    .replace(/[a-z]/g, (c) => c.toUpperCase());
}

/** The 2 check digits for a 9-digit CPF base. Throws if the base is not exactly 9 digits. */
export function cpfCheckDigits(base9: string): string {
  if (!/^\d{9}$/.test(base9)) throw new RangeError('CPF base must be exactly 9 digits');
  return twoCheckDigits(base9, CPF_DV1_WEIGHTS, CPF_DV2_WEIGHTS);
}

/** The 2 check digits for a 12-character CNPJ base [0-9A-Z] (uppercase). Throws otherwise. */
export function cnpjCheckDigits(base12: string): string {
  if (!/^[0-9A-Z]{12}$/.test(base12)) throw new RangeError('CNPJ base must be exactly 12 characters [0-9A-Z]');
  return twoCheckDigits(base12, CNPJ_DV1_WEIGHTS, CNPJ_DV2_WEIGHTS);
}

/** A CPF, formatted (529.982.247-25) or bare (52998224725). */
export function isValidCpf(input: string): boolean {
  const doc = normalizeDocument(input);
  return CPF_SHAPE.test(doc) && !ONE_REPEATED_DIGIT.test(doc) && cpfCheckDigits(doc.slice(0, 9)) === doc.slice(9);
}

/** A CNPJ, numeric or alphanumeric, formatted (12.ABC.345/01DE-35) or bare, any letter case. */
export function isValidCnpj(input: string): boolean {
  const doc = normalizeDocument(input);
  return CNPJ_SHAPE.test(doc) && !ONE_REPEATED_DIGIT.test(doc) && cnpjCheckDigits(doc.slice(0, 12)) === doc.slice(12);
}

export function documentTypeFor(personType: PersonType): DocumentType {
  switch (personType) {
    case 'PF':
      return 'CPF';
    case 'PJ':
      return 'CNPJ';
    default:
      throw new RangeError(`unknown person type: ${String(personType satisfies never)}`);
  }
}

/** Validates the document a person of the given type must present, returning its normalised form. */
export function parseDocument(personType: PersonType, input: string): DocumentCheck {
  const documentType = documentTypeFor(personType);
  const normalized = normalizeDocument(input);
  if (documentType === 'CPF') {
    if (isValidCpf(normalized)) return { ok: true, normalized, documentType };
    if (isValidCnpj(normalized)) return { ok: false, reason: 'document is a CNPJ, but a PF receiver must have a CPF' };
    return { ok: false, reason: 'document must be a valid CPF (11 digits with valid check digits) for a PF receiver' };
  }
  if (isValidCnpj(normalized)) return { ok: true, normalized, documentType };
  if (isValidCpf(normalized)) return { ok: false, reason: 'document is a CPF, but a PJ receiver must have a CNPJ' };
  return {
    ok: false,
    reason: 'document must be a valid CNPJ (12 letters or digits plus 2 check digits) for a PJ receiver',
  };
}

/** 52998224725 -> 529.982.247-25. Throws unless given 11 digits (check digits are not verified). */
export function formatCpf(normalized: string): string {
  if (!CPF_SHAPE.test(normalized)) throw new RangeError('formatCpf expects a normalised CPF: 11 digits');
  return `${normalized.slice(0, 3)}.${normalized.slice(3, 6)}.${normalized.slice(6, 9)}-${normalized.slice(9)}`;
}

/** 12ABC34501DE35 -> 12.ABC.345/01DE-35. Throws unless given a normalised 14-character CNPJ shape. */
export function formatCnpj(normalized: string): string {
  if (!CNPJ_SHAPE.test(normalized)) {
    throw new RangeError('formatCnpj expects a normalised CNPJ: 12 characters [0-9A-Z] then 2 digits');
  }
  const n = normalized;
  return `${n.slice(0, 2)}.${n.slice(2, 5)}.${n.slice(5, 8)}/${n.slice(8, 12)}-${n.slice(12)}`;
}

/**
 * A document as it may appear in reasons, events and logs: DICT's mask for a CPF
 * (`***.456.789-**`, the middle six digits) and the same idea for a CNPJ (`**.345.678/****-**`,
 * the middle six characters). Anything not shaped like either is masked whole.
 */
export function maskDocument(document: string): string {
  const n = normalizeDocument(document);
  if (CPF_SHAPE.test(n)) return `***.${n.slice(3, 6)}.${n.slice(6, 9)}-**`;
  if (CNPJ_SHAPE.test(n)) return `**.${n.slice(2, 5)}.${n.slice(5, 8)}/****-**`;
  return '***';
}
