/**
 * PIX BR Code ("copia e cola" / QR payload), per Banco Central's "Manual de Padrões para Iniciação
 * do Pix" (the EMV QRCPS-MPM profile for Pix). A code is a run of fields `ID (2 digits) + length
 * (2 digits, of the value) + value`; fields 26 (merchant account) and 62 (additional data) hold
 * sub-fields in the same format; the last field is 63, the CRC over everything before its value.
 *
 * Writers only: the sandbox PSP answers API Pix charges (`cob`) with dynamic codes, as real PSPs
 * do (docs/decisions/0013-dynamic-br-codes-in-the-sandbox.md); static codes remain for keys without a charge. Tests
 * read every code back with pix-utils, an independent implementation.
 *
 * Everything we write is printable ASCII, so a field's length is its number of characters.
 */
import { decimal, hasAtMostDecimals } from './money.ts';

/** Manual: GUI of the Pix arrangement, sub-field 00 of the merchant account template (26). */
const PIX_GUI = 'br.gov.bcb.pix';
/** EMV: a field value holds 1..99 characters (2-digit length). */
const MAX_FIELD_LENGTH = 99;
/** Manual: merchant name (59) at most 25 characters, merchant city (60) at most 15. */
export const MAX_MERCHANT_NAME = 25;
export const MAX_MERCHANT_CITY = 15;
/** Manual: amount (54) at most 13 characters, e.g. "9999999999.99". */
const MAX_AMOUNT_LENGTH = 13;
/** DICT: the longest PIX key is an e-mail of 77 characters. */
const MAX_PIX_KEY_LENGTH = 77;
/** Manual: a static code's txid (62/05) is at most 25 alphanumerics, or "***" for none. */
const STATIC_TXID = /^[A-Za-z0-9]{1,25}$/;
const NO_TXID = '***';

const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;

export interface StaticPixInput {
  /** A DICT key in its normalised form (validate it with validatePixKey first). */
  key: string;
  /** Optional: absent lets the payer type the amount. */
  amount?: string | number;
  merchantName: string;
  merchantCity: string;
  /** At most 25 [A-Za-z0-9]; "***" (the default) means none. */
  txid?: string;
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, xorout 0), as the manual requires. */
function crc16CcittFalse(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Merchant name/city text: uppercase ASCII without accents (manual: "sem acentuação"). Strips
 * combining marks after NFD ("São" -> "SAO"), keeps only [A-Z0-9 .-], collapses whitespace and
 * truncates to maxLength. May return "" (the builder rejects that).
 */
export function pixText(value: string, maxLength: number): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/\s/g, ' ')
    .replace(/[^A-Z0-9 .-]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, maxLength)
    .trimEnd();
}

/** One EMV field: ID + 2-digit length + value. RangeError unless the value is 1..99 printable ASCII characters. */
function tlv(id: string, value: string): string {
  if (!/^\d{2}$/.test(id)) throw new RangeError(`field ID must be 2 digits, got "${id}"`);
  if (!PRINTABLE_ASCII.test(value)) throw new RangeError(`field ${id} must be non-empty printable ASCII`);
  if (value.length > MAX_FIELD_LENGTH) {
    throw new RangeError(`field ${id} is ${value.length} characters; at most ${MAX_FIELD_LENGTH} allowed`);
  }
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Appends the CRC field: "6304" + CRC-16 of the payload including "6304" (manual: field 63 is last). */
function withCrc(payloadWithoutCrc: string): string {
  const head = `${payloadWithoutCrc}6304`;
  return head + crc16CcittFalse(head);
}

/** Amount (54): positive, at most 2 decimals, written with exactly 2 ("10.50"), at most 13 characters. */
function amountText(amount: string | number): string {
  if (typeof amount === 'string' && !/^\d+(\.\d+)?$/.test(amount)) {
    throw new RangeError(`amount must be a plain decimal such as "10.50", got "${amount}"`);
  }
  const value = decimal(amount);
  if (value.lte(0)) throw new RangeError('amount must be positive');
  if (!hasAtMostDecimals(value, 2)) throw new RangeError('amount must have at most 2 decimals');
  const text = value.toFixed(2);
  if (text.length > MAX_AMOUNT_LENGTH) throw new RangeError(`amount must fit in ${MAX_AMOUNT_LENGTH} characters`);
  return text;
}

function merchantFields(merchantName: string, merchantCity: string): string {
  const name = pixText(merchantName, MAX_MERCHANT_NAME);
  const city = pixText(merchantCity, MAX_MERCHANT_CITY);
  if (!name) throw new RangeError('merchant name is empty after removing unsupported characters');
  if (!city) throw new RangeError('merchant city is empty after removing unsupported characters');
  // Manual: 58 country "BR", 59 merchant name, 60 merchant city.
  return tlv('58', 'BR') + tlv('59', name) + tlv('60', city);
}

/** 52 MCC "0000" and 53 currency "986" (BRL), the same in every Pix code. */
const MCC_AND_CURRENCY = tlv('52', '0000') + tlv('53', '986');

/** A static code: the payer's app reads key, amount and txid from the code itself. */
export function buildStaticPixCode(input: StaticPixInput): string {
  const { key, amount, merchantName, merchantCity, txid = NO_TXID } = input;
  if (!/^[\x21-\x7E]+$/.test(key) || key.length > MAX_PIX_KEY_LENGTH) {
    throw new RangeError(`PIX key must be 1..${MAX_PIX_KEY_LENGTH} printable ASCII characters without spaces`);
  }
  if (txid !== NO_TXID && !STATIC_TXID.test(txid)) {
    throw new RangeError('txid of a static code must be 1..25 letters or digits, or "***"');
  }
  return withCrc(
    tlv('00', '01') + // payload format indicator; 01 (point of initiation) absent = reusable code
      // 26: 18 characters of GUI + 4 + a key of at most 77 stay within the field's 99.
      tlv('26', tlv('00', PIX_GUI) + tlv('01', key)) +
      MCC_AND_CURRENCY +
      (amount === undefined ? '' : tlv('54', amountText(amount))) +
      merchantFields(merchantName, merchantCity) +
      tlv('62', tlv('05', txid)),
  );
}

/** API Pix `PayloadLocation.location`: at most 77 characters, without the scheme. */
const MAX_LOCATION_LENGTH = 77;

export interface DynamicPixInput {
  /** The payload's location without `https://` (API Pix `loc.location`), e.g. `pix.example.com/qr/v2/<token>`. */
  location: string;
  merchantName: string;
  merchantCity: string;
}

/**
 * A dynamic code (manual: "QR Code dinâmico"), the kind a PSP answers `PUT /cob/{txid}` with:
 * 01 = `12` (single use), 26/25 = the location the payer's bank fetches the charge's JWS from
 * (txid, amount, key, expiry), no key and no amount in the code itself, and 62/05 = `***` (the
 * txid of a dynamic code lives in its payload). Shape of API Pix 2.9.0's own example.
 */
export function buildDynamicPixCode(input: DynamicPixInput): string {
  const { location, merchantName, merchantCity } = input;
  if (/^https?:\/\//i.test(location)) throw new RangeError('location is written without its scheme (https:// is implied)');
  if (!/^[\x21-\x7E]+$/.test(location) || location.length > MAX_LOCATION_LENGTH) {
    throw new RangeError(`location must be 1..${MAX_LOCATION_LENGTH} printable ASCII characters without spaces`);
  }
  return withCrc(
    tlv('00', '01') +
      tlv('01', '12') + // point of initiation: single use
      // 26: 18 characters of GUI + 4 + a location of at most 77 stay within the field's 99.
      tlv('26', tlv('00', PIX_GUI) + tlv('25', location)) +
      MCC_AND_CURRENCY +
      merchantFields(merchantName, merchantCity) +
      tlv('62', tlv('05', NO_TXID)),
  );
}
