/**
 * A Token-2022 mint's extensions, read from its bytes, and the rule for which ones the platform
 * moves (docs/decisions/0043-token-2022-extensions.md). Layout: the 82-byte base mint, zero
 * padding to 165 bytes, the account type at 165 (1: mint), then TLV entries (u16 type, u16
 * length, value; little-endian) to the end. An SPL Token mint (82 bytes) has none.
 *
 * Refused: a transfer fee that is not zero in either of the two fees the mint holds (the one in
 * force and the one scheduled for a later epoch: a transferChecked would deliver less than the
 * order says), a transfer hook that names a program (our transfers carry no hook accounts, and
 * another program would decide whether the platform's money moves), and a non-transferable mint.
 */

const BASE_MINT_SIZE = 82;
/** Where a Token-2022 account with extensions says what it is, after the token account's 165 bytes. */
const ACCOUNT_TYPE_OFFSET = 165;
const ACCOUNT_TYPE_MINT = 1;

export const EXTENSION = {
  TransferFeeConfig: 1,
  NonTransferable: 9,
  TransferHook: 14,
} as const;

/** TransferFeeConfig: two authorities (32 each), withheld amount (u64), older fee and newer fee (epoch u64, maximum u64, basis points u16). */
const TRANSFER_FEE_CONFIG_SIZE = 108;
const OLDER_FEE_OFFSET = 72;
const NEWER_FEE_OFFSET = 90;
/** TransferHook: authority (32), program id (32; all zero: none). */
const TRANSFER_HOOK_SIZE = 64;

export interface TransferFee {
  epoch: bigint;
  maximumFee: bigint;
  basisPoints: number;
}

export interface MintExtensions {
  /** Every extension type present, in the mint's order. */
  types: number[];
  transferFee?: { older: TransferFee; newer: TransferFee };
  /** The hook's program id (32 bytes); undefined when the extension is absent or names none. */
  transferHookProgram?: Uint8Array | undefined;
  hasTransferHook: boolean;
}

export class MintExtensionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MintExtensionError';
  }
}

function feeAt(view: DataView, at: number): TransferFee {
  return { epoch: view.getBigUint64(at, true), maximumFee: view.getBigUint64(at + 8, true), basisPoints: view.getUint16(at + 16, true) };
}

/** The extensions of a mint's account data (none for a bare 82-byte mint); throws MintExtensionError on malformed TLV. */
export function readMintExtensions(data: Uint8Array): MintExtensions {
  const found: MintExtensions = { types: [], hasTransferHook: false };
  if (data.length === BASE_MINT_SIZE) return found;
  if (data.length <= ACCOUNT_TYPE_OFFSET || data[ACCOUNT_TYPE_OFFSET] !== ACCOUNT_TYPE_MINT) throw new MintExtensionError('the account is not a Token-2022 mint (no mint account type after the base mint)');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = ACCOUNT_TYPE_OFFSET + 1;
  // Trailing zero bytes (type 0, Uninitialized) end the list, as the program reads it.
  while (at + 4 <= data.length) {
    const type = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    if (type === 0) break;
    const value = at + 4;
    if (value + length > data.length) throw new MintExtensionError(`extension ${type} runs past the end of the mint`);
    found.types.push(type);
    if (type === EXTENSION.TransferFeeConfig) {
      if (length !== TRANSFER_FEE_CONFIG_SIZE) throw new MintExtensionError(`TransferFeeConfig is ${length} bytes, not ${TRANSFER_FEE_CONFIG_SIZE}`);
      found.transferFee = { older: feeAt(view, value + OLDER_FEE_OFFSET), newer: feeAt(view, value + NEWER_FEE_OFFSET) };
    } else if (type === EXTENSION.TransferHook) {
      if (length !== TRANSFER_HOOK_SIZE) throw new MintExtensionError(`TransferHook is ${length} bytes, not ${TRANSFER_HOOK_SIZE}`);
      found.hasTransferHook = true;
      const program = data.subarray(value + 32, value + 64);
      found.transferHookProgram = program.some((byte) => byte !== 0) ? program : undefined;
    }
    at = value + length;
  }
  return found;
}

const charges = (fee: TransferFee) => fee.basisPoints > 0 && fee.maximumFee > 0n;

/** Why the platform will not move this mint, or undefined when it may (the rule of the file's header). */
export function refusalOf(extensions: MintExtensions): string | undefined {
  const fee = extensions.transferFee;
  if (fee && charges(fee.older)) return `its transfer fee is ${fee.older.basisPoints} basis points (maximum ${fee.older.maximumFee} base units)`;
  if (fee && charges(fee.newer)) return `its transfer fee becomes ${fee.newer.basisPoints} basis points from epoch ${fee.newer.epoch} (maximum ${fee.newer.maximumFee} base units)`;
  if (extensions.transferHookProgram) return 'its transfer hook names a program';
  if (extensions.types.includes(EXTENSION.NonTransferable)) return 'it is non-transferable';
  return undefined;
}
