/**
 * Token-2022 extension bytes, as the program lays them out, for mints written straight into the
 * VM: the base mint (82 bytes) padded to 165, the account type (1 mint, 2 account), then TLV
 * entries (u16 type, u16 length, value). PYUSD on mainnet has a TransferFeeConfig and a
 * TransferHook; a token account of such a mint carries TransferFeeAmount and TransferHookAccount,
 * and an associated one ImmutableOwner first (the ATA program initialises it before the account).
 * The program itself then moves these tokens in the simulator's VM as on a cluster.
 */
import { decodeBase58 } from '../../src/lib/base58.ts';

export interface MintExtensionOptions {
  /** Both fees (in force and scheduled) alike; default zero, PYUSD's. */
  transferFee?: { basisPoints?: number; maximumFee?: string | number };
  /** The hook's program (base58); default none, PYUSD's. */
  transferHook?: { program?: string };
}

const ACCOUNT_TYPE_OFFSET = 165;
const TYPE = { TransferFeeConfig: 1, TransferFeeAmount: 2, ImmutableOwner: 7, TransferHook: 14, TransferHookAccount: 15 } as const;

function tlv(type: number, value: Uint8Array): Uint8Array {
  const entry = new Uint8Array(4 + value.length);
  const view = new DataView(entry.buffer);
  view.setUint16(0, type, true);
  view.setUint16(2, value.length, true);
  entry.set(value, 4);
  return entry;
}

function withExtensions(base: Uint8Array, accountType: number, entries: Uint8Array[]): Uint8Array {
  const length = ACCOUNT_TYPE_OFFSET + 1 + entries.reduce((sum, entry) => sum + entry.length, 0);
  const data = new Uint8Array(length);
  data.set(base, 0);
  data[ACCOUNT_TYPE_OFFSET] = accountType;
  let at = ACCOUNT_TYPE_OFFSET + 1;
  for (const entry of entries) {
    data.set(entry, at);
    at += entry.length;
  }
  return data;
}

/** The mint's bytes with the asked extensions (the 82 base bytes alone when none). */
export function mintExtensionBytes(base: Uint8Array, options: MintExtensionOptions | undefined): Uint8Array {
  if (!options || (!options.transferFee && !options.transferHook)) return base;
  const entries: Uint8Array[] = [];
  if (options.transferFee) {
    const basisPoints = options.transferFee.basisPoints ?? 0;
    if (!Number.isInteger(basisPoints) || basisPoints < 0 || basisPoints > 10_000) throw new Error('transferFee.basisPoints must be a whole number from 0 to 10000');
    const maximumFee = BigInt(options.transferFee.maximumFee ?? 0);
    // Two authorities (none), withheld amount, then older and newer fee: epoch, maximum, basis points.
    const value = new Uint8Array(108);
    const view = new DataView(value.buffer);
    for (const at of [72, 90]) {
      view.setBigUint64(at + 8, maximumFee, true);
      view.setUint16(at + 16, basisPoints, true);
    }
    entries.push(tlv(TYPE.TransferFeeConfig, value));
  }
  if (options.transferHook) {
    const value = new Uint8Array(64);
    if (options.transferHook.program) value.set(decodeBase58(options.transferHook.program), 32);
    entries.push(tlv(TYPE.TransferHook, value));
  }
  return withExtensions(base, 1, entries);
}

/** An associated token account's bytes for a mint: the extensions the program requires of it added. */
export function tokenAccountExtensionBytes(base: Uint8Array, mintData: Uint8Array): Uint8Array {
  if (mintData.length <= ACCOUNT_TYPE_OFFSET) return base;
  const entries: Uint8Array[] = [tlv(TYPE.ImmutableOwner, new Uint8Array(0))];
  const view = new DataView(mintData.buffer, mintData.byteOffset, mintData.byteLength);
  for (let at = ACCOUNT_TYPE_OFFSET + 1; at + 4 <= mintData.length; ) {
    const type = view.getUint16(at, true);
    if (type === 0) break;
    if (type === TYPE.TransferFeeConfig) entries.push(tlv(TYPE.TransferFeeAmount, new Uint8Array(8)));
    if (type === TYPE.TransferHook) entries.push(tlv(TYPE.TransferHookAccount, new Uint8Array(1)));
    at += 4 + view.getUint16(at + 2, true);
  }
  return withExtensions(base, 2, entries);
}
