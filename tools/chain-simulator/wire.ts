/**
 * A wire transaction taken apart (wire-reader.ts): signatures, the compiled message
 * (header, static keys, blockhash, instructions), each key's signer and writable flags, and the
 * fee the runtime charges (5 000 lamports a signature plus the priority fee: unit price × unit
 * limit, rounded up, the limit being the requested one or 200 000 per instruction).
 */
import type { Address } from '@solana/kit';
import { encodeBase58 } from '../../src/lib/base58.ts';
import { readMessage, readTransaction } from './wire-reader.ts';

export const LAMPORTS_PER_SIGNATURE = 5000n;
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111' as Address;
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000n;
const MAX_UNITS = 1_400_000n;

export interface WireInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
}

export interface DecodedTransaction {
  wire: Uint8Array;
  signature: string;
  signatures: string[];
  /** Signatures all zeros count as absent (a partially signed transaction). */
  signatureBytes: Uint8Array[];
  messageBytes: Uint8Array;
  version: 'legacy' | 0;
  header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
  accountKeys: Address[];
  blockhash: string;
  instructions: WireInstruction[];
  addressTableLookups: Array<{ accountKey: Address; writableIndexes: number[]; readonlyIndexes: number[] }>;
  writable: boolean[];
  fee: bigint;
  computeUnitPrice: bigint;
}

function computeBudget(instructions: WireInstruction[], keys: Address[]) {
  let limit: bigint | undefined;
  let price = 0n;
  let others = 0n;
  for (const ix of instructions) {
    if (keys[ix.programIdIndex] !== COMPUTE_BUDGET_PROGRAM) {
      others++;
      continue;
    }
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
    if (ix.data[0] === 2 && ix.data.length >= 5) limit = BigInt(view.getUint32(1, true));
    if (ix.data[0] === 3 && ix.data.length >= 9) price = view.getBigUint64(1, true);
  }
  const units = limit ?? (others * DEFAULT_UNITS_PER_INSTRUCTION > MAX_UNITS ? MAX_UNITS : others * DEFAULT_UNITS_PER_INSTRUCTION);
  return { price, units: units > MAX_UNITS ? MAX_UNITS : units };
}

/** The fee for a message: what the runtime deducts from the fee payer, success or failure. */
export function feeOf(signatureCount: number, instructions: WireInstruction[], keys: Address[]): { fee: bigint; price: bigint } {
  const { price, units } = computeBudget(instructions, keys);
  const priority = (price * units + 999_999n) / 1_000_000n;
  return { fee: LAMPORTS_PER_SIGNATURE * BigInt(signatureCount) + priority, price };
}

export function decodeMessage(messageBytes: Uint8Array) {
  const message = readMessage(messageBytes);
  const keys = message.staticAccounts;
  const instructions: WireInstruction[] = message.instructions.map((ix) => ({ programIdIndex: ix.programAddressIndex, accounts: ix.accountIndices, data: ix.data }));
  const header = {
    numRequiredSignatures: message.header.numSignerAccounts,
    numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
    numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
  };
  const writable = keys.map((_, i) =>
    i < header.numRequiredSignatures ? i < header.numRequiredSignatures - header.numReadonlySignedAccounts : i < keys.length - header.numReadonlyUnsignedAccounts,
  );
  return {
    version: message.version,
    header,
    keys,
    blockhash: message.lifetimeToken,
    instructions,
    writable,
    addressTableLookups: message.addressTableLookups.map((lookup) => ({ accountKey: lookup.lookupTableAddress, writableIndexes: lookup.writableIndexes, readonlyIndexes: lookup.readonlyIndexes })),
  };
}

/** Throws on bytes that are not a transaction (the caller answers -32602). */
export function decodeWire(wire: Uint8Array): DecodedTransaction {
  const { signatureBytes, messageBytes } = readTransaction(wire);
  const message = decodeMessage(messageBytes);
  if (signatureBytes.length === 0) throw new Error('a transaction without signatures');
  if (signatureBytes.length !== message.header.numRequiredSignatures) throw new Error(`${signatureBytes.length} signatures for ${message.header.numRequiredSignatures} signers`);
  const signatures = signatureBytes.map((bytes) => encodeBase58(bytes));
  const { fee, price } = feeOf(message.header.numRequiredSignatures, message.instructions, message.keys);
  return {
    wire,
    signature: signatures[0]!,
    signatures,
    signatureBytes,
    messageBytes,
    version: message.version,
    header: message.header,
    accountKeys: message.keys,
    blockhash: message.blockhash,
    instructions: message.instructions,
    addressTableLookups: message.addressTableLookups,
    writable: message.writable,
    fee,
    computeUnitPrice: price,
  };
}
