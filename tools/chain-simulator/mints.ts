/**
 * Setting up tokens for tests and demos, outside any transaction (a faucet's privilege): a mint
 * written straight into the VM (USDC-like: 6 decimals by default, SPL Token or Token-2022,
 * optionally at mainnet USDC's address; a Token-2022 mint optionally with PYUSD's TransferFeeConfig
 * and TransferHook extensions), and tokens minted to an owner's associated token account, created
 * when missing (with the extensions the token program gives it), the mint's supply raised to match.
 */
import { randomBytes } from 'node:crypto';
import { type Address, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';
import { decodeBase58, encodeBase58 } from '../../src/lib/base58.ts';
import { addressBytes } from './accounts.ts';
import type { Chain } from './chain.ts';
import { type MintExtensionOptions, mintExtensionBytes, tokenAccountExtensionBytes } from './token-2022.ts';
import { isMintData, isTokenAccountData, MINT_SIZE, mintBytes, parseMint, parseTokenAccount, TOKEN_2022_PROGRAM, TOKEN_ACCOUNT_SIZE, TOKEN_PROGRAM, tokenAccountBytes } from './tokens.ts';
import type { Vm } from './vm.ts';

export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL' as Address;
/** Mainnet USDC's mint address: demos read as they would on mainnet. */
export const WELL_KNOWN_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

export interface CreateMintOptions {
  /** Default 6. */
  decimals?: number;
  /** 'token' (SPL Token, default) or 'token-2022'. */
  program?: 'token' | 'token-2022';
  /** Who may mint by transaction; default an address only the simulator knows (mint through mintTo). */
  mintAuthority?: string;
  freezeAuthority?: string | null;
  /** Token-2022 only: its extensions (PYUSD's shape: a transfer fee config and a transfer hook). */
  extensions?: MintExtensionOptions;
  /** Put the mint at mainnet USDC's address (SPL Token, 6 decimals); returns the existing one if made already. */
  wellKnown?: 'usdc';
}

export interface MintInfo {
  mint: string;
  decimals: number;
  programId: string;
  mintAuthority: string | null;
}

export interface MintToResult {
  tokenAccount: string;
  /** The account's balance after, in base units. */
  amount: string;
}

/** The owner's associated token account for a mint under a token program. */
export async function associatedTokenAddress(owner: string, mint: string, programId: string): Promise<string> {
  const encoder = getAddressEncoder();
  const [address] = await getProgramDerivedAddress({
    programAddress: ASSOCIATED_TOKEN_PROGRAM,
    seeds: [encoder.encode(owner as Address), encoder.encode(programId as Address), encoder.encode(mint as Address)],
  });
  return address;
}

/** An SPL token account's state byte (after mint, owner, amount and the delegate option): 2 is frozen. */
const TOKEN_ACCOUNT_STATE_OFFSET = 108;

export function createMints(vm: Vm, chain: Chain) {
  const simulatorAuthority = encodeBase58(randomBytes(32));

  function mintInfo(mint: string): MintInfo {
    const account = chain.accounts.read(mint);
    if (!account || !isMintData(account.owner, account.data)) throw new Error(`${mint} is not a mint`);
    const parsed = parseMint(account.data);
    return { mint, decimals: parsed.decimals, programId: account.owner, mintAuthority: parsed.mintAuthority };
  }

  function createMint(options: CreateMintOptions = {}): MintInfo {
    const wellKnown = options.wellKnown === 'usdc';
    if (options.wellKnown !== undefined && !wellKnown) throw new Error('wellKnown must be "usdc"');
    if (wellKnown && chain.accounts.read(WELL_KNOWN_USDC)) return mintInfo(WELL_KNOWN_USDC);
    const decimals = wellKnown ? 6 : (options.decimals ?? 6);
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18) throw new Error('decimals must be a whole number from 0 to 18');
    const program = wellKnown || options.program === undefined || options.program === 'token' ? TOKEN_PROGRAM : options.program === 'token-2022' ? TOKEN_2022_PROGRAM : null;
    if (!program) throw new Error('program must be "token" or "token-2022"');
    const mint = wellKnown ? WELL_KNOWN_USDC : encodeBase58(randomBytes(32));
    const authority = addressBytes(options.mintAuthority ?? simulatorAuthority);
    const freeze = options.freezeAuthority ? addressBytes(options.freezeAuthority) : null;
    if (options.extensions && program !== TOKEN_2022_PROGRAM) throw new Error('extensions need program "token-2022"');
    const data = mintExtensionBytes(mintBytes(authority, 0n, decimals, freeze), options.extensions);
    vm.native.setAccount(decodeBase58(mint), vm.account(chain.minimumBalance(Math.max(MINT_SIZE, data.length)), data, decodeBase58(program)));
    return mintInfo(mint);
  }

  async function mintTo(mint: string, owner: string, amount: bigint): Promise<MintToResult> {
    if (amount < 0n) throw new Error('amount must be ≥ 0');
    addressBytes(owner);
    const info = mintInfo(mint);
    const tokenAccount = await associatedTokenAddress(owner, mint, info.programId);
    const existing = chain.accounts.read(tokenAccount);
    let balance = amount;
    let data: Uint8Array;
    let lamports: bigint | undefined;
    if (existing) {
      if (!isTokenAccountData(existing.owner, existing.data)) throw new Error(`${tokenAccount} is not a token account`);
      balance += parseTokenAccount(existing.data).amount;
      data = new Uint8Array(existing.data);
      new DataView(data.buffer).setBigUint64(64, balance, true);
      lamports = existing.lamports;
    } else data = tokenAccountExtensionBytes(tokenAccountBytes(decodeBase58(mint), decodeBase58(owner), balance), chain.accounts.read(mint)!.data);
    const mintAccount = chain.accounts.read(mint)!;
    const mintData = new Uint8Array(mintAccount.data);
    const view = new DataView(mintData.buffer);
    view.setBigUint64(36, view.getBigUint64(36, true) + amount, true);
    vm.native.setAccount(decodeBase58(mint), vm.account(mintAccount.lamports, mintData, decodeBase58(info.programId)));
    vm.native.setAccount(decodeBase58(tokenAccount), vm.account(lamports ?? chain.minimumBalance(Math.max(TOKEN_ACCOUNT_SIZE, data.length)), data, decodeBase58(info.programId)));
    chain.touch(tokenAccount);
    return { tokenAccount, amount: balance.toString() };
  }

  /**
   * The owner's token account of `mint` frozen (created empty if missing), as a freeze authority
   * would: any transfer to or from it then fails on chain (AccountFrozen), the fee paid. Tests
   * use it as a destination the chain refuses inside a batch of transfers.
   */
  async function freezeTokenAccount(mint: string, owner: string): Promise<{ tokenAccount: string }> {
    const { tokenAccount } = await mintTo(mint, owner, 0n);
    const account = chain.accounts.read(tokenAccount)!;
    const data = new Uint8Array(account.data);
    data[TOKEN_ACCOUNT_STATE_OFFSET] = 2;
    vm.native.setAccount(decodeBase58(tokenAccount), vm.account(account.lamports, data, decodeBase58(mintInfo(mint).programId)));
    chain.touch(tokenAccount);
    return { tokenAccount };
  }

  return { createMint, mintTo, mintInfo, freezeTokenAccount };
}

export type Mints = ReturnType<typeof createMints>;
