/**
 * SPL Token and Token-2022 accounts read from their bytes: the token account (165 bytes: mint,
 * owner, amount, delegate, state, ...) and the mint (82 bytes: authority, supply, decimals, ...),
 * in the shapes a node answers them: `uiTokenAmount`, `jsonParsed` account data.
 */
import type { Address } from '@solana/kit';
import { encodeBase58 } from '../../src/lib/base58.ts';

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' as Address;
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb' as Address;
export const TOKEN_ACCOUNT_SIZE = 165;
export const MINT_SIZE = 82;

export const isTokenProgram = (owner: string) => owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM;

const u64 = (data: Uint8Array, at: number) => new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(at, true);
const u32 = (data: Uint8Array, at: number) => new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(at, true);
const key = (data: Uint8Array, at: number) => encodeBase58(data.subarray(at, at + 32));
const optionKey = (data: Uint8Array, at: number) => (u32(data, at) === 1 ? key(data, at + 4) : null);

export interface TokenAccount {
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | null;
  state: 'uninitialized' | 'initialized' | 'frozen';
  isNative: boolean;
  delegatedAmount: bigint;
  closeAuthority: string | null;
}

export interface Mint {
  mintAuthority: string | null;
  supply: bigint;
  decimals: number;
  isInitialized: boolean;
  freezeAuthority: string | null;
}

/** A Token-2022 account with extensions is longer and says what it is at byte 165 (1 mint, 2 account). */
export function isTokenAccountData(programOwner: string, data: Uint8Array): boolean {
  if (!isTokenProgram(programOwner)) return false;
  if (data.length === TOKEN_ACCOUNT_SIZE) return data[108] !== 0;
  return programOwner === TOKEN_2022_PROGRAM && data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === 2;
}

export function isMintData(programOwner: string, data: Uint8Array): boolean {
  if (!isTokenProgram(programOwner)) return false;
  if (data.length === MINT_SIZE) return data[45] === 1;
  return programOwner === TOKEN_2022_PROGRAM && data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === 1;
}

export function parseTokenAccount(data: Uint8Array): TokenAccount {
  const state = data[108] === 2 ? 'frozen' : data[108] === 1 ? 'initialized' : 'uninitialized';
  return {
    mint: key(data, 0),
    owner: key(data, 32),
    amount: u64(data, 64),
    delegate: optionKey(data, 72),
    state,
    isNative: u32(data, 109) === 1,
    delegatedAmount: u64(data, 121),
    closeAuthority: optionKey(data, 129),
  };
}

export function parseMint(data: Uint8Array): Mint {
  return { mintAuthority: optionKey(data, 0), supply: u64(data, 36), decimals: data[44]!, isInitialized: data[45] === 1, freezeAuthority: optionKey(data, 46) };
}

/** "1.5" for 1500000 at 6 decimals: exact, from the integer (never through a float). */
export function uiAmountString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A node's UiTokenAmount. `uiAmount` is a float by the RPC's definition; `uiAmountString` is exact. */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const text = uiAmountString(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text };
}

/** `jsonParsed` data of a token account or mint; `decimalsOf` reads the account's mint. */
export function parsedTokenData(programOwner: string, data: Uint8Array, decimalsOf: (mint: string) => number | undefined) {
  const program = programOwner === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022';
  if (isMintData(programOwner, data)) {
    const mint = parseMint(data);
    return {
      program,
      parsed: {
        type: 'mint',
        info: { decimals: mint.decimals, freezeAuthority: mint.freezeAuthority, isInitialized: mint.isInitialized, mintAuthority: mint.mintAuthority, supply: mint.supply.toString() },
      },
      space: data.length,
    };
  }
  if (isTokenAccountData(programOwner, data)) {
    const account = parseTokenAccount(data);
    const decimals = decimalsOf(account.mint);
    if (decimals === undefined) return undefined;
    const info: Record<string, unknown> = { isNative: account.isNative, mint: account.mint, owner: account.owner, state: account.state, tokenAmount: uiTokenAmount(account.amount, decimals) };
    if (account.delegate) {
      info.delegate = account.delegate;
      info.delegatedAmount = uiTokenAmount(account.delegatedAmount, decimals);
    }
    if (account.closeAuthority) info.closeAuthority = account.closeAuthority;
    return { program, parsed: { type: 'account', info }, space: data.length };
  }
  return undefined;
}

/** The 165 bytes of an initialized token account without delegate or close authority. */
export function tokenAccountBytes(mint: Uint8Array, owner: Uint8Array, amount: bigint): Uint8Array {
  const data = new Uint8Array(TOKEN_ACCOUNT_SIZE);
  data.set(mint, 0);
  data.set(owner, 32);
  new DataView(data.buffer).setBigUint64(64, amount, true);
  data[108] = 1;
  return data;
}

/** The 82 bytes of an initialized mint. */
export function mintBytes(authority: Uint8Array, supply: bigint, decimals: number, freezeAuthority: Uint8Array | null): Uint8Array {
  const data = new Uint8Array(MINT_SIZE);
  const view = new DataView(data.buffer);
  view.setUint32(0, 1, true);
  data.set(authority, 4);
  view.setBigUint64(36, supply, true);
  data[44] = decimals;
  data[45] = 1;
  if (freezeAuthority) {
    view.setUint32(46, 1, true);
    data.set(freezeAuthority, 50);
  }
  return data;
}
