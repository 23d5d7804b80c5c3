/**
 * Account reads: getBalance, getAccountInfo, getMultipleAccounts, getTokenAccountBalance,
 * getTokenAccountsByOwner (mint or programId filter), getTokenSupply, getProgramAccounts
 * (dataSize and memcmp filters), getMinimumBalanceForRentExemption.
 */
import { decodeBase58 } from '../../src/lib/base58.ts';
import { type AccountConfig, addressBytes } from './accounts.ts';
import type { Chain } from './chain.ts';
import { type Handler, invalidParams } from './jsonrpc.ts';
import { arrayParam, config, contextSlot, numberParam, stringParam, withContext } from './params.ts';
import { isMintData, isTokenAccountData, isTokenProgram, parseMint, parseTokenAccount, uiTokenAmount } from './tokens.ts';

/** A getProgramAccounts filter: `{dataSize}` or `{memcmp: {offset, bytes, encoding?}}` (bytes base58 by default). */
function filterOf(filter: unknown): (data: Uint8Array) => boolean {
  const value = filter as { dataSize?: unknown; memcmp?: { offset?: unknown; bytes?: unknown; encoding?: unknown } };
  if (typeof value?.dataSize === 'number') return (data) => data.length === value.dataSize;
  const memcmp = value?.memcmp;
  if (memcmp && typeof memcmp.offset === 'number' && typeof memcmp.bytes === 'string') {
    let bytes: Uint8Array;
    try {
      bytes = memcmp.encoding === 'base64' ? new Uint8Array(Buffer.from(memcmp.bytes, 'base64')) : decodeBase58(memcmp.bytes);
    } catch {
      throw invalidParams('Invalid param: memcmp bytes');
    }
    const offset = memcmp.offset;
    return (data) => data.length >= offset + bytes.length && bytes.every((byte, i) => data[offset + i] === byte);
  }
  throw invalidParams('Invalid param: a filter is {dataSize} or {memcmp: {offset, bytes}}');
}

export function accountMethods(chain: Chain): Record<string, Handler> {
  const { accounts } = chain;
  const address = (params: unknown[], index: number) => {
    const value = stringParam(params, index, 'a base58 address');
    addressBytes(value);
    return value;
  };
  const readEncoded = (key: string, cfg: AccountConfig) => {
    const account = accounts.read(key);
    return account ? accounts.encode(account, cfg) : null;
  };

  return {
    getBalance(params) {
      const key = address(params, 0);
      return withContext(contextSlot(chain, config(params, 1)), accounts.balance(key));
    },

    getAccountInfo(params) {
      const key = address(params, 0);
      const cfg = config(params, 1);
      return withContext(contextSlot(chain, cfg), readEncoded(key, cfg as AccountConfig));
    },

    getMultipleAccounts(params) {
      const keys = arrayParam(params, 0, 'an array of addresses', 100).map((_, i, all) => address(all, i));
      const cfg = config(params, 1);
      return withContext(
        contextSlot(chain, cfg),
        keys.map((key) => readEncoded(key, cfg as AccountConfig)),
      );
    },

    getTokenAccountBalance(params) {
      const key = address(params, 0);
      const slot = contextSlot(chain, config(params, 1));
      const account = accounts.read(key);
      if (!account || !isTokenAccountData(account.owner, account.data)) throw invalidParams('Invalid param: not a Token account');
      const token = parseTokenAccount(account.data);
      const decimals = accounts.decimalsOf(token.mint);
      if (decimals === undefined) throw invalidParams('Invalid param: could not find mint');
      return withContext(slot, uiTokenAmount(token.amount, decimals));
    },

    getTokenSupply(params) {
      const key = address(params, 0);
      const slot = contextSlot(chain, config(params, 1));
      const account = accounts.read(key);
      if (!account || !isMintData(account.owner, account.data)) throw invalidParams('Invalid param: not a Token mint');
      const mint = parseMint(account.data);
      return withContext(slot, uiTokenAmount(mint.supply, mint.decimals));
    },

    getTokenAccountsByOwner(params) {
      const owner = address(params, 0);
      const filter = config(params, 1);
      const cfg = config(params, 2);
      const slot = contextSlot(chain, cfg);
      let mint: string | undefined;
      let programId: string | undefined;
      if (typeof filter.mint === 'string') {
        mint = filter.mint;
        const mintAccount = accounts.read(mint);
        if (!mintAccount || !isMintData(mintAccount.owner, mintAccount.data)) throw invalidParams('Invalid param: could not find mint');
        programId = mintAccount.owner;
      } else if (typeof filter.programId === 'string') {
        programId = filter.programId;
        if (!isTokenProgram(programId)) throw invalidParams('Invalid param: unrecognized Token program id');
      } else throw invalidParams('Invalid params: expected {"mint": ...} or {"programId": ...}');
      const found = [];
      for (const account of accounts.ownedBy(programId)) {
        if (account.lamports === 0n || !isTokenAccountData(account.owner, account.data)) continue;
        const token = parseTokenAccount(account.data);
        if (token.owner !== owner || (mint !== undefined && token.mint !== mint)) continue;
        found.push({ pubkey: account.address, account: accounts.encode(account, cfg as AccountConfig) });
      }
      return withContext(slot, found);
    },

    getProgramAccounts(params) {
      const programId = address(params, 0);
      const cfg = config(params, 1);
      const slot = contextSlot(chain, cfg);
      const filters = (cfg.filters ?? []) as unknown[];
      if (!Array.isArray(filters) || filters.length > 4) throw invalidParams('Too many filters provided; max 4');
      const matches = filters.map(filterOf);
      const found = accounts
        .ownedBy(programId)
        .filter((account) => account.lamports > 0n && matches.every((match) => match(account.data)))
        .map((account) => ({ pubkey: account.address, account: accounts.encode(account, cfg as AccountConfig) }));
      return cfg.withContext === true ? withContext(slot, found) : found;
    },

    getMinimumBalanceForRentExemption(params) {
      const length = numberParam(params, 0, 'a data length');
      return chain.minimumBalance(length);
    },
  };
}
