/**
 * A compiled transaction's compute-unit limit changed in its message bytes, instead of compiling
 * it again: a batch is compiled with the configured budget for its simulation, then asks for what
 * the simulation used (simulated-units.ts). The limit is a u32 in the data of the message's first
 * instruction (SetComputeUnitLimit, every transfer's and batch's first), so the message keeps its
 * size and every other byte: exactly what kit compiles with the other limit (a property test
 * compares them). Compiling encodes every address from base58 again; a batch spent a fifth of its
 * preparation there.
 *
 *   message   [version byte 0x80 | n, when versioned] 3 header bytes, compact-u16 count of static
 *             accounts, 32 bytes each, the blockhash (32), compact-u16 count of instructions;
 *   first     its program's index (u8), compact-u16 count of accounts (0), compact-u16 length of
 *             its data (5): 0x02 then the limit, little-endian u32.
 */
import { type compileTransaction, getAddressEncoder, type TransactionMessageBytes } from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';

const SET_COMPUTE_UNIT_LIMIT = 2;
const BUDGET_PROGRAM = getAddressEncoder().encode(COMPUTE_BUDGET_PROGRAM_ADDRESS);

/** Solana's compact-u16 at `offset`: its value and the offset after it. */
function compactU16(bytes: ArrayLike<number>, offset: number): [value: number, next: number] {
  let value = 0;
  for (let i = 0; i < 3; i++) {
    const byte = bytes[offset + i]!;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return [value, offset + i + 1];
  }
  throw new Error('a compact-u16 longer than three bytes');
}

/**
 * The message with its first instruction's limit set to `units`, or undefined when that
 * instruction is not a SetComputeUnitLimit (the caller compiles instead).
 */
export function withComputeUnitLimit(messageBytes: ArrayLike<number>, units: number): Uint8Array | undefined {
  let offset = (messageBytes[0]! & 0x80) !== 0 ? 1 : 0;
  offset += 3;
  const [accounts, keysAt] = compactU16(messageBytes, offset);
  const [instructions, firstAt] = compactU16(messageBytes, keysAt + 32 * accounts + 32);
  if (instructions === 0) return undefined;
  const program = messageBytes[firstAt]!;
  const [accountIndexes, dataLengthAt] = compactU16(messageBytes, firstAt + 1);
  const [dataLength, dataAt] = compactU16(messageBytes, dataLengthAt);
  if (program >= accounts || accountIndexes !== 0 || dataLength !== 5 || messageBytes[dataAt] !== SET_COMPUTE_UNIT_LIMIT) return undefined;
  if (!BUDGET_PROGRAM.every((byte, i) => messageBytes[keysAt + 32 * program + i] === byte)) return undefined;
  const patched = new Uint8Array(messageBytes);
  new DataView(patched.buffer).setUint32(dataAt + 1, units, true);
  return patched;
}

/** `compiled` asking for `units`: its bytes changed in place, or `recompile`d when they cannot be. */
export function compiledWithUnitLimit<T extends ReturnType<typeof compileTransaction>>(compiled: T, units: number, recompile: () => T): T {
  const messageBytes = withComputeUnitLimit(compiled.messageBytes, units);
  return messageBytes ? { ...compiled, messageBytes: messageBytes as unknown as TransactionMessageBytes } : recompile();
}
