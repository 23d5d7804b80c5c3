/**
 * Base58 (Bitcoin alphabet, as Solana writes addresses, signatures and blockhashes), without
 * BigInt. @solana/kit's codec turns every value into a BigInt and divides it digit by digit; on
 * the signing hot path that was 5 % of the service's CPU. Here the number is held in limbs of
 * 58^5 (encoding) or 2^16 (decoding) and converted two bytes / five digits at a time, which keeps
 * every intermediate below 2^53 (exact in a double). Property-tested against kit's codec
 * (test/lib/base58.test.ts): same text for any bytes, same bytes for any text, same refusals.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Character code → digit value, -1 for characters outside the alphabet. */
const DIGIT_OF = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT_OF[ALPHABET.charCodeAt(i)] = i;

const ENCODE_LIMB = 58 ** 5;
const DECODE_LIMB = 0x10000;

/** The base58 text of `bytes`: one '1' per leading zero byte, then the number's digits. */
export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // Little-endian limbs of 58^5; the bytes enter two at a time (x < 58^5 · 2^16 < 2^53).
  const limbs: number[] = [];
  let i = zeros;
  if ((bytes.length - zeros) % 2 === 1) limbs.push(bytes[i++]!);
  for (; i < bytes.length; i += 2) {
    let carry = (bytes[i]! << 8) | bytes[i + 1]!;
    for (let j = 0; j < limbs.length; j++) {
      const x = limbs[j]! * 0x10000 + carry;
      carry = Math.floor(x / ENCODE_LIMB);
      limbs[j] = x - carry * ENCODE_LIMB;
    }
    while (carry > 0) {
      const next = Math.floor(carry / ENCODE_LIMB);
      limbs.push(carry - next * ENCODE_LIMB);
      carry = next;
    }
  }
  let digits = '';
  for (let j = 0; j < limbs.length; j++) {
    let limb = limbs[j]!;
    const last = j === limbs.length - 1;
    for (let k = 0; k < 5 && (!last || limb > 0); k++) {
      const next = Math.floor(limb / 58);
      digits = ALPHABET[limb - next * 58]! + digits;
      limb = next;
    }
  }
  return '1'.repeat(zeros) + digits;
}

/** The bytes of base58 `text`; throws on a character outside the alphabet. */
export function decodeBase58(text: string): Uint8Array {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* '1' */) zeros++;
  // Little-endian limbs of 2^16; the digits enter five at a time (x < 2^16 · 58^5 < 2^53).
  const limbs: number[] = [];
  for (let i = zeros; i < text.length; ) {
    let group = 0;
    let multiplier = 1;
    for (const end = Math.min(i + 5, text.length); i < end; i++) {
      const code = text.charCodeAt(i);
      const digit = code < 128 ? DIGIT_OF[code]! : -1;
      if (digit < 0) throw new Error(`invalid base58 character ${JSON.stringify(text[i])}`);
      group = group * 58 + digit;
      multiplier *= 58;
    }
    let carry = group;
    for (let j = 0; j < limbs.length; j++) {
      const x = limbs[j]! * multiplier + carry;
      carry = Math.floor(x / DECODE_LIMB);
      limbs[j] = x - carry * DECODE_LIMB;
    }
    while (carry > 0) {
      limbs.push(carry % DECODE_LIMB);
      carry = Math.floor(carry / DECODE_LIMB);
    }
  }
  let length = limbs.length * 2;
  if (limbs.length > 0 && limbs[limbs.length - 1]! < 0x100) length--;
  const out = new Uint8Array(zeros + length);
  for (let j = 0, at = out.length - 1; j < limbs.length; j++, at -= 2) {
    out[at] = limbs[j]! & 0xff;
    if (at - 1 >= zeros) out[at - 1] = limbs[j]! >>> 8;
  }
  return out;
}
