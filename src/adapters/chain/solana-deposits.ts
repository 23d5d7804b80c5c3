/**
 * The deposit watcher's chain on a Solana node (CHAIN_PROVIDER=solana-rpc), with @solana/kit: a
 * deposit address is an owner key whose associated token account for the token's mint receives
 * the deposit; `getSignaturesForAddress` on that account lists what touched it (paged, newest first
 * on the wire, answered oldest first), and `getTransaction` at the configured commitment gives the
 * account's token balance before and after; `getMultipleAccounts` reads the balances of up to 100
 * token accounts per call (the amount, bytes 64..72 of an SPL Token or Token-2022 account, alone
 * by `dataSlice`), so the watcher lists signatures only where a balance moved. Every failure to talk to the node is
 * ChainUnavailableError naming the method (solana-mints.ts).
 */
import { address, type Signature } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { decimal } from '../../lib/money.ts';
import type { AccountSignature, DepositAccount, DepositChain, Received } from './deposits-port.ts';
import { call, createMintReader, RPC_TIMEOUT_MS, TOKEN_2022_PROGRAM_ADDRESS } from './solana-mints.ts';
import { createRpcClient } from './solana-rpc-client.ts';

export interface SolanaDepositSettings {
  rpcUrl: string;
  commitment: 'confirmed' | 'finalized';
  /** Token symbol → mint address (CHAIN_TOKEN_MINTS). */
  tokenMints: Record<string, string>;
  rpcTimeoutMs?: number;
}

/** getSignaturesForAddress's largest page. */
const PAGE = 1000;
/** getMultipleAccounts's largest request. */
export const ACCOUNTS_PER_CALL = 100;
/** Balance reads in flight at once: a 10k pass is 100 calls, four at a time. */
const BALANCE_CALLS_IN_FLIGHT = 4;
/** A token account's amount: u64 little-endian after the mint and the owner (the same in both token programs). */
const AMOUNT_SLICE = { offset: 64, length: 8 };

export function createSolanaDeposits(settings: SolanaDepositSettings): DepositChain {
  const rpc = createRpcClient(settings.rpcUrl);
  const { commitment } = settings;
  const rpcCall = <T>(method: string, run: (abortSignal: AbortSignal) => Promise<T>) => call(method, settings.rpcTimeoutMs ?? RPC_TIMEOUT_MS, run);
  const mintOf = createMintReader({ rpc, rpcCall, tokenMints: settings.tokenMints, commitment });

  async function tokenAccountOf(owner: string, token: string) {
    const info = await mintOf(token);
    const [tokenAccount] = await findAssociatedTokenPda({ owner: address(owner), mint: info.mint, tokenProgram: info.tokenProgram });
    return { mint: info.mint, tokenAccount };
  }

  async function otherTokenAccountsOf(owner: string, mint: string): Promise<DepositAccount[]> {
    const found: DepositAccount[] = [];
    for (const programId of [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS]) {
      const { value } = await rpcCall('getTokenAccountsByOwner', (abortSignal) =>
        rpc.getTokenAccountsByOwner(address(owner), { programId }, { encoding: 'jsonParsed', commitment }).send({ abortSignal }),
      );
      for (const entry of value as unknown as Array<{ pubkey: string; account: { data: { parsed: { info: { mint: string } } } } }>) {
        const accountMint = entry.account.data.parsed.info.mint;
        if (accountMint !== mint) found.push({ mint: accountMint, tokenAccount: entry.pubkey });
      }
    }
    return found;
  }

  async function signaturesAfter(account: string, after: string | null): Promise<AccountSignature[]> {
    const found: AccountSignature[] = [];
    let before: Signature | undefined;
    for (;;) {
      const page = await rpcCall('getSignaturesForAddress', (abortSignal) =>
        rpc
          .getSignaturesForAddress(address(account), { commitment, limit: PAGE, ...(after ? { until: after as Signature } : {}), ...(before ? { before } : {}) })
          .send({ abortSignal }),
      );
      for (const entry of page) found.push({ signature: entry.signature, failed: entry.err !== null, blockTime: entry.blockTime === null ? null : new Date(Number(entry.blockTime) * 1000) });
      if (page.length < PAGE) break;
      before = page[page.length - 1]!.signature;
    }
    return found.reverse();
  }

  async function receivedIn(signature: string, account: string, mint: string): Promise<Received | undefined> {
    const tx = await rpcCall('getTransaction', (abortSignal) =>
      rpc.getTransaction(signature as Signature, { commitment, encoding: 'json', maxSupportedTransactionVersion: 0 }).send({ abortSignal }),
    );
    if (!tx?.meta) return undefined;
    if (tx.meta.err) return { amount: '0', balanceAfter: null };
    // Account indexes run over the message's keys, then the ones loaded from lookup tables.
    const keys: string[] = [...tx.transaction.message.accountKeys, ...(tx.meta.loadedAddresses?.writable ?? []), ...(tx.meta.loadedAddresses?.readonly ?? [])];
    const index = keys.indexOf(account);
    if (index < 0) return { amount: '0', balanceAfter: null };
    const balance = (list: typeof tx.meta.preTokenBalances) => {
      const entry = (list ?? []).find((item) => item.accountIndex === index && item.mint === mint);
      return entry ? { amount: BigInt(entry.uiTokenAmount.amount), decimals: entry.uiTokenAmount.decimals } : undefined;
    };
    const pre = balance(tx.meta.preTokenBalances);
    const post = balance(tx.meta.postTokenBalances);
    const gained = (post?.amount ?? 0n) - (pre?.amount ?? 0n);
    const balanceAfter = (post?.amount ?? 0n).toString();
    if (gained <= 0n) return { amount: '0', balanceAfter };
    const decimals = post?.decimals ?? pre?.decimals ?? 0;
    return { amount: decimal(gained.toString()).dividedBy(decimal(10).pow(decimals)).toString(), balanceAfter };
  }

  async function balanceChunk(accounts: string[]): Promise<Array<string | null>> {
    const { value } = await rpcCall('getMultipleAccounts', (abortSignal) =>
      rpc.getMultipleAccounts(accounts.map((a) => address(a)), { commitment, encoding: 'base64', dataSlice: AMOUNT_SLICE }).send({ abortSignal }),
    );
    return value.map((account) => {
      if (!account) return null;
      const bytes = Buffer.from(account.data[0], 'base64');
      return bytes.length >= 8 ? bytes.readBigUInt64LE(0).toString() : null;
    });
  }

  async function balancesOf(tokenAccounts: string[]): Promise<Array<string | null>> {
    const chunks: string[][] = [];
    for (let i = 0; i < tokenAccounts.length; i += ACCOUNTS_PER_CALL) chunks.push(tokenAccounts.slice(i, i + ACCOUNTS_PER_CALL));
    const answers: Array<Array<string | null>> = new Array(chunks.length);
    let next = 0;
    const lane = async () => {
      while (next < chunks.length) {
        const index = next++;
        answers[index] = await balanceChunk(chunks[index]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(BALANCE_CALLS_IN_FLIGHT, chunks.length) }, lane));
    return answers.flat();
  }

  return { tokenAccountOf, balancesOf, otherTokenAccountsOf, signaturesAfter, receivedIn };
}
