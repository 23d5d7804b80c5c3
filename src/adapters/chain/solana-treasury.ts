/**
 * The treasury's balances over a Solana JSON-RPC node, through @solana/kit, per treasury wallet
 * (decision 0057): getBalance of the wallet's address (lamports, shown as SOL with 9 decimals), and per configured token the
 * treasury's associated token account for that mint, found by getTokenAccountsByOwner with the
 * mint filter (so a Token-2022 mint needs no configuration of its program). Only the associated
 * account counts: it is the one PAYIN transfers spend from; tokens sent to another account of the
 * treasury show as drift. No associated account yet is a balance of 0. Every failure to talk to
 * the node is ChainUnavailableError naming the RPC method, never the URL (it may carry an API key).
 */
import { findAssociatedTokenPda } from '@solana-program/token';
import { type Address, address } from '@solana/kit';
import { decimal } from '../../lib/money.ts';
import { ChainUnavailableError } from './transactions-port.ts';
import type { TreasuryBalanceReader, TreasuryBalances, WalletBalances } from './treasury-port.ts';
import { createRpcClient } from './solana-rpc-client.ts';

const SOL = 'SOL';
const SOL_DECIMALS = 9;

export interface SolanaTreasurySettings {
  url: string;
  commitment?: 'processed' | 'confirmed' | 'finalized';
  /** The treasury wallets' addresses, wallet 1 first (their keys are sealed elsewhere; this reader never signs). */
  addresses: readonly string[];
  /** Token symbol → mint address (CHAIN_TOKEN_MINTS). */
  mints: Record<string, string>;
  /** Each RPC call is abandoned after this long (default 10 s): a hanging node must not hold a caller. */
  timeoutMs?: number;
}

async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw new ChainUnavailableError(`Solana RPC ${what} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** Integer base units as decimal text in whole units, without trailing zeros (1500000000 lamports: "1.5"). */
export const fromBaseUnits = (amount: bigint | string, decimals: number | bigint) => decimal(amount.toString()).dividedBy(decimal(10).pow(Number(decimals))).toString();

/** What a jsonParsed token account carries that this reader reads. */
interface ParsedTokenAccount {
  pubkey: Address;
  account: { owner: Address; data: { parsed: { info: { tokenAmount: { amount: string; decimals: number | bigint } } } } };
}

export function createSolanaTreasuryReader(settings: SolanaTreasurySettings): TreasuryBalanceReader {
  const rpc = createRpcClient(settings.url);
  const commitment = settings.commitment ?? 'confirmed';
  const owners = settings.addresses.map((wallet) => address(wallet));
  const mints = Object.entries(settings.mints).map(([symbol, mint]) => ({ symbol, mint: address(mint) }));
  const timeoutMs = settings.timeoutMs ?? 10_000;
  const deadline = () => ({ abortSignal: AbortSignal.timeout(timeoutMs) });

  async function tokenBalance(owner: Address, mint: Address): Promise<string> {
    const { value } = await call('getTokenAccountsByOwner', () => rpc.getTokenAccountsByOwner(owner, { mint }, { encoding: 'jsonParsed', commitment }).send(deadline()));
    for (const entry of value as unknown as ParsedTokenAccount[]) {
      const [ata] = await findAssociatedTokenPda({ owner, mint, tokenProgram: entry.account.owner });
      if (entry.pubkey !== ata) continue;
      const { amount, decimals } = entry.account.data.parsed.info.tokenAmount;
      return fromBaseUnits(amount, decimals);
    }
    return '0';
  }

  async function walletBalances(owner: Address): Promise<TreasuryBalances> {
    const [lamports, ...tokens] = await Promise.all([
      call('getBalance', () => rpc.getBalance(owner, { commitment }).send(deadline())).then(({ value }) => value),
      ...mints.map((m) => tokenBalance(owner, m.mint)),
    ]);
    const balances: TreasuryBalances = new Map([[SOL, fromBaseUnits(lamports as bigint, SOL_DECIMALS)]]);
    mints.forEach((m, i) => balances.set(m.symbol, tokens[i] as string));
    return balances;
  }

  return {
    kind: 'solana-rpc',
    onChain: true,
    address: settings.addresses[0] ?? null,
    addresses: settings.addresses,
    currencies: [SOL, ...mints.map((m) => m.symbol)],
    async readBalances(): Promise<WalletBalances> {
      const read = await Promise.all(owners.map(walletBalances));
      return new Map(read.map((balances, i): [number, TreasuryBalances] => [i + 1, balances]));
    },
  };
}
