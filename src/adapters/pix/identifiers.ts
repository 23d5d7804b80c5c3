/**
 * PIX identifiers in the formats of DOMAIN.md (Identifiers):
 * - endToEndId: `E` + ISPB (8, [0-9A-Z]) + `yyyyMMddHHmm` in UTC + 11 [a-zA-Z0-9] = 32 characters
 *   (Open Finance Brasil payments spec; API Pix only requires [a-zA-Z0-9]{32});
 * - charge txid: [a-zA-Z0-9]{26,35} (API Pix `cob`);
 * - refund id: [a-zA-Z0-9]{1,35} (API Pix `devolucao`).
 *
 * Randomness: every character is `crypto.randomInt(62)`, which draws with rejection sampling
 * inside Node, so the characters are uniform (no modulo bias). These are identifiers, not
 * secrets; uniqueness is what matters, and 11 characters of 62 per minute per ISPB leave
 * ~5.2e19 combinations.
 */
import { createHash, randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A fixed ISPB for the sandbox PSP: no real participant of the SPI has it. */
export const SANDBOX_ISPB = '99999999';

export const ISPB_PATTERN = /^[0-9A-Z]{8}$/;
export const END_TO_END_ID_PATTERN = /^E[0-9A-Z]{8}\d{12}[a-zA-Z0-9]{11}$/;
export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;
/** A static BR Code's txid (62/05): at most 25 alphanumerics, so never a `cob` txid (26 to 35). */
export const STATIC_TXID_PATTERN = /^[a-zA-Z0-9]{1,25}$/;
export const REFUND_ID_PATTERN = /^[a-zA-Z0-9]{1,35}$/;
/** The sandbox PSP's payout ids: `SBX` + 29 alphanumerics (32 characters). */
export const SANDBOX_TRANSACTION_ID_PATTERN = /^SBX[a-zA-Z0-9]{29}$/;

/** `length` uniformly random characters of [A-Za-z0-9]. */
export function randomAlphanumeric(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return text;
}

/** `yyyyMMddHHmm` of the instant in UTC. */
function utcMinute(at: Date): string {
  if (Number.isNaN(at.getTime())) throw new RangeError('endToEndId needs a valid date');
  const year = at.getUTCFullYear();
  if (year < 1000 || year > 9999) throw new RangeError('endToEndId needs a 4-digit year');
  const two = (n: number) => String(n).padStart(2, '0');
  return `${year}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}`;
}

/** A 32-character endToEndId stamped with `at` (the clock's now) in UTC. */
export function newEndToEndId(at: Date, ispb: string = SANDBOX_ISPB): string {
  if (!ISPB_PATTERN.test(ispb)) throw new RangeError('ISPB must be 8 characters of [0-9A-Z]');
  return `E${ispb}${utcMinute(at)}${randomAlphanumeric(11)}`;
}

/** A charge txid; 32 characters by default (any length from 26 to 35 is valid). */
export function newTxid(length = 32): string {
  if (!Number.isInteger(length) || length < 26 || length > 35) throw new RangeError('txid length must be 26 to 35');
  return randomAlphanumeric(length);
}

/** A static code's txid: 25 random alphanumerics (the most a static code carries). */
export function newStaticTxid(): string {
  return randomAlphanumeric(25);
}

/** A refund (devolução) id; 32 characters by default (any length from 1 to 35 is valid). */
export function newRefundId(length = 32): string {
  if (!Number.isInteger(length) || length < 1 || length > 35) throw new RangeError('refund id length must be 1 to 35');
  return randomAlphanumeric(length);
}

/** The sandbox PSP's id of an outgoing PIX. */
export function newSandboxTransactionId(): string {
  return `SBX${randomAlphanumeric(29)}`;
}

/**
 * The charge txid of an order, the same for every provider (sandbox and API Pix): its UUID's 32
 * hex digits, reversed. It is the order's `paymentReference`, whole: derived, so a retried
 * creation names the same charge (PUT /cob/{txid} is idempotent) and a received PIX, which
 * carries the txid back, matches its order exactly. (Reversed since static codes, which held
 * only 25 characters, put the UUIDv7's random end first; kept so existing orders keep theirs.)
 */
export function txidOfOrder(orderId: string): string {
  const hex = orderId.replaceAll('-', '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new RangeError('an order id is a UUID');
  return [...hex].reverse().join('');
}

/**
 * The charge txid of an order created with an Idempotency-Key: derived from merchant and key, so
 * a retry after a crash, or a concurrent duplicate, names the same charge (the provider finds it
 * instead of making a second) before any order row exists. `k` + 34 hex digits of a SHA-256: 35
 * characters, so it never equals an order-derived txid (32), and its first 25 (the sandbox's
 * static code) carry 96 bits.
 */
export function txidOfKey(merchantId: string, key: string): string {
  return `k${createHash('sha256').update(`${merchantId}\0${key}`).digest('hex').slice(0, 34)}`;
}
