/**
 * Building and sending token transfers to the chain simulator with @solana/kit and
 * @solana-program/token, as the adapters do: compute budget, the destination's associated token
 * account created idempotently, transferChecked.
 */
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  devnet,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type TransactionSigner,
} from '@solana/kit';
import type { Db } from '../../src/db/database.ts';
import { ordersRepo } from '../../src/modules/orders/repo.ts';
import type { Services } from '../../src/services.ts';
import { type ChainSimulator, startChainSimulator } from '../../tools/chain-simulator/index.ts';

/** A kit client on the simulator, typed as a test cluster's (it has requestAirdrop). */
export const simulatorRpc = (url: string) => createSolanaRpc(devnet(url));
export type Rpc = ReturnType<typeof simulatorRpc>;
/** Its websocket subscriptions (ChainSimulator.wsUrl), for kit's confirmation helpers. */
export const simulatorRpcSubscriptions = (wsUrl: string) => createSolanaRpcSubscriptions(devnet(wsUrl));

export const ata = async (owner: Address, mint: Address, tokenProgram: Address = TOKEN_PROGRAM_ADDRESS) =>
  (await findAssociatedTokenPda({ owner, mint, tokenProgram }))[0];

export interface Transfer {
  payer: TransactionSigner;
  mint: Address;
  to: Address;
  amount: bigint;
  decimals?: number;
  tokenProgram?: Address;
  units?: number;
  microLamports?: bigint;
  blockhash?: { blockhash: string; lastValidBlockHeight: bigint };
  version?: 0 | 'legacy';
}

/** The signed transaction's base64 wire bytes and signature. */
export async function buildTransfer(rpc: Rpc, transfer: Transfer) {
  const tokenProgram = transfer.tokenProgram ?? TOKEN_PROGRAM_ADDRESS;
  const source = await ata(transfer.payer.address, transfer.mint, tokenProgram);
  const destination = await ata(transfer.to, transfer.mint, tokenProgram);
  const lifetime = transfer.blockhash ?? (await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
  const message = pipe(
    createTransactionMessage({ version: transfer.version ?? 0 }),
    (m) => setTransactionMessageFeePayerSigner(transfer.payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime as Parameters<typeof setTransactionMessageLifetimeUsingBlockhash>[0], m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getSetComputeUnitLimitInstruction({ units: transfer.units ?? 60_000 }),
          getSetComputeUnitPriceInstruction({ microLamports: transfer.microLamports ?? 1_000n }),
          getCreateAssociatedTokenIdempotentInstruction({ payer: transfer.payer, ata: destination, owner: transfer.to, mint: transfer.mint, tokenProgram }),
          getTransferCheckedInstruction(
            { source, mint: transfer.mint, destination, authority: transfer.payer, amount: transfer.amount, decimals: transfer.decimals ?? 6 },
            { programAddress: tokenProgram },
          ),
        ],
        m,
      ),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return { wire: getBase64EncodedWireTransaction(signed), signature: getSignatureFromTransaction(signed), source, destination };
}

export async function statusOf(rpc: Rpc, signature: string) {
  const { value } = await rpc.getSignatureStatuses([signature as never], { searchTransactionHistory: true }).send();
  return value[0] ?? null;
}

export async function until<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A chain simulator whose slots move only by hand (`advanceSlots`: a fast clock that never races
 * the assertions), with a USDC-like mint (6 decimals). `now`: the clock its faults' durations run on.
 */
export async function startHandClockedChain(finalizedLag: number, options: { now?: () => number } = {}): Promise<{ sim: ChainSimulator; rpc: Rpc; usdc: Address }> {
  const sim = await startChainSimulator({ slotMs: 3_600_000, confirmedLag: 1, finalizedLag, ...options });
  return { sim, rpc: simulatorRpc(sim.url), usdc: address((await sim.createMint({ decimals: 6 })).mint) };
}

/** A wallet that sends deposits in tests: 10 SOL for its fees and 1,000,000 of `mint` (6 decimals). */
export async function fundedSender(sim: ChainSimulator, mint: Address): Promise<KeyPairSigner> {
  const sender = await generateKeyPairSigner();
  await sim.airdrop(sender.address, 10_000_000_000n);
  await sim.mintTo({ mint, owner: sender.address, amount: 1_000_000_000_000n });
  return sender;
}

/** The service's settings for orders on that node: CHAIN_PROVIDER=solana-rpc at `finalized`, `usdc` as USDC. */
export const solanaRpcSettings = (url: string, usdc: Address) => ({ CHAIN_PROVIDER: 'solana-rpc', SOLANA_RPC_URL: url, CHAIN_TOKEN_MINTS: `USDC:${usdc}`, SOLANA_COMMITMENT: 'finalized' });

/**
 * The service's treasury wallet `wallet` (1: the TREASURY key; decision 0057) funded on chain (10
 * SOL, 1,000,000 of `usdc`) and its books told so by the operators' fundings (the opening
 * balances): its address.
 */
export async function fundTreasury(sim: ChainSimulator, services: Pick<Services, 'platformKeysAtStart' | 'treasury'>, usdc: Address, wallet = 1): Promise<Address> {
  const treasury = address(services.platformKeysAtStart.treasuryWallets[wallet - 1]!.address);
  const airdrop = await sim.airdrop(treasury, 10_000_000_000n);
  await sim.mintTo({ mint: usdc, owner: treasury, amount: 1_000_000_000_000n });
  await services.treasury.fund({ currency: 'SOL', amount: '10', reference: airdrop, wallet }, { actor: 'test' });
  await services.treasury.fund({ currency: 'USDC', amount: '1000000', reference: `mint-${usdc}-${treasury}`, wallet }, { actor: 'test' });
  return treasury;
}

/**
 * Worker passes (one lane: a leader batches the rest), the hand-clocked chain's slots and the test
 * clock moving between them, until every order of `ids` is in one of `ends` (default COMPLETED).
 */
export async function passesUntil(
  t: { ctx: { app: { services: Pick<Services, 'orderSteps'> }; database: { db: Db } }; clock: { advance(ms: number): unknown } },
  sim: Pick<ChainSimulator, 'advanceSlots'>,
  ids: readonly string[],
  options: { ends?: readonly string[]; passes?: number } = {},
): Promise<void> {
  const ends = options.ends ?? ['COMPLETED'];
  for (let i = 0; i < (options.passes ?? 60); i++) {
    await t.ctx.app.services.orderSteps.runDuePass({ parallel: 1 });
    const statuses = await Promise.all(ids.map(async (id) => (await ordersRepo.find(t.ctx.database.db, id))!.status));
    if (statuses.every((status) => ends.includes(status))) return;
    sim.advanceSlots(1);
    t.clock.advance(1000);
  }
  throw new Error(`orders not all ${ends.join(' or ')} after the passes`);
}
