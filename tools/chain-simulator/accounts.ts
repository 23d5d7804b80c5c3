/**
 * Accounts read from the VM and written as a node answers them: `encoding` base58 (the default,
 * data as a bare string), base64 and jsonParsed (token accounts and mints; anything else falls
 * back to base64, as a node does), `dataSlice`. Also the token balances a transaction's meta
 * lists and the mints' decimals.
 */
import { decodeBase58, encodeBase58 } from '../../src/lib/base58.ts';
import { invalidParams } from './jsonrpc.ts';
import { isMintData, isTokenAccountData, parsedTokenData, parseMint, parseTokenAccount, uiTokenAmount } from './tokens.ts';
import type { NativeVm } from './vm.ts';

export interface AccountView {
  address: string;
  lamports: bigint;
  data: Uint8Array;
  owner: string;
  executable: boolean;
  rentEpoch: bigint;
}

export interface AccountConfig {
  encoding?: 'base58' | 'base64' | 'base64+zstd' | 'jsonParsed';
  dataSlice?: { offset: number; length: number };
}

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: ReturnType<typeof uiTokenAmount>;
}

export function addressBytes(address: unknown): Uint8Array {
  if (typeof address !== 'string') throw invalidParams('Invalid param: expected a base58 address');
  let bytes: Uint8Array;
  try {
    bytes = decodeBase58(address);
  } catch {
    throw invalidParams(`Invalid param: Invalid`);
  }
  if (bytes.length !== 32) throw invalidParams('Invalid param: WrongSize');
  return bytes;
}

export function createAccounts(native: NativeVm) {
  function read(address: string): AccountView | null {
    const account = native.getAccount(addressBytes(address));
    if (!account || account.lamports() === 0n) return null;
    return {
      address,
      lamports: account.lamports(),
      data: account.data(),
      owner: encodeBase58(account.owner()),
      executable: account.executable(),
      rentEpoch: account.rentEpoch(),
    };
  }

  function decimalsOf(mint: string): number | undefined {
    const account = read(mint);
    return account && isMintData(account.owner, account.data) ? parseMint(account.data).decimals : undefined;
  }

  function encode(account: AccountView, config: AccountConfig = {}) {
    const encoding = config.encoding ?? 'base58';
    let data: unknown;
    const parsed = encoding === 'jsonParsed' ? parsedTokenData(account.owner, account.data, decimalsOf) : undefined;
    if (parsed) data = parsed;
    else {
      let bytes = account.data;
      if (config.dataSlice) bytes = bytes.subarray(config.dataSlice.offset, config.dataSlice.offset + config.dataSlice.length);
      if (encoding === 'base58') {
        if (bytes.length > 128) throw invalidParams('Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');
        data = encodeBase58(bytes);
      } else if (encoding === 'base64' || encoding === 'jsonParsed') data = [Buffer.from(bytes).toString('base64'), 'base64'];
      else throw invalidParams(`Invalid param: unsupported encoding ${encoding}`);
    }
    return { data, executable: account.executable, lamports: account.lamports, owner: account.owner, rentEpoch: account.rentEpoch, space: BigInt(account.data.length) };
  }

  /**
   * Programs seen among transactions' keys: never token accounts, and reading one copies its code
   * out of the VM (hundreds of KB for a token program), twice a transaction (bench chain-payin:
   * a fifth of the simulator's CPU).
   */
  const programs = new Set<string>();

  /** The token balances of a transaction's accounts, as its meta lists them before or after it. */
  function tokenBalances(keys: readonly string[]): TokenBalance[] {
    const balances: TokenBalance[] = [];
    const decimalsByMint = new Map<string, number | undefined>();
    keys.forEach((key, accountIndex) => {
      if (programs.has(key)) return;
      const account = read(key);
      if (account?.executable) programs.add(key);
      if (!account || !isTokenAccountData(account.owner, account.data)) return;
      const token = parseTokenAccount(account.data);
      if (!decimalsByMint.has(token.mint)) decimalsByMint.set(token.mint, decimalsOf(token.mint));
      const decimals = decimalsByMint.get(token.mint);
      if (decimals === undefined) return;
      balances.push({ accountIndex, mint: token.mint, owner: token.owner, programId: account.owner, uiTokenAmount: uiTokenAmount(token.amount, decimals) });
    });
    return balances;
  }

  /** Every account a program owns (getTokenAccountsByOwner scans its token program's). */
  function ownedBy(programId: string): AccountView[] {
    return native.getProgramAccounts(addressBytes(programId)).map((item) => {
      const account = item.account();
      return { address: encodeBase58(item.address), lamports: account.lamports(), data: account.data(), owner: programId, executable: account.executable(), rentEpoch: account.rentEpoch() };
    });
  }

  return { read, decimalsOf, encode, tokenBalances, ownedBy, balance: (address: string) => native.getBalance(addressBytes(address)) ?? 0n };
}

export type Accounts = ReturnType<typeof createAccounts>;
