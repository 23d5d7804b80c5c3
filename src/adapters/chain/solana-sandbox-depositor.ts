/**
 * The sandbox depositor (CHAIN_PROVIDER=solana-rpc with the sandbox routes on; docs/architecture/
 * chain.md "The sandbox depositor"): a test wallet that pays PAYOUT deposits with real SPL
 * transfers, so `POST /sandbox/orders/{id}/deposit` reaches an order only through the chain and
 * the deposit watcher, like a customer's deposit. Its transaction has the treasury transfer's
 * shape (solana-transfers.ts: the destination's associated token account created idempotently,
 * transferChecked, the order as memo), the depositor paying and signing. Its SOL comes from the
 * node's faucet (requestAirdrop, which test clusters and the chain simulator have); its tokens
 * from whoever holds the mint's authority (the simulator's admin mint-to), never from the service.
 */
import { address, type Address } from '@solana/kit';
import { findAssociatedTokenPda } from '@solana-program/token';
import { decimal } from '../../lib/money.ts';
import { call, createMintReader, RPC_TIMEOUT_MS } from './solana-mints.ts';
import { createSolanaTransfers, type SolanaTransferSettings, type TreasurySigner } from './solana-transfers.ts';
import { createRpcClient } from './solana-rpc-client.ts';

/** Below this the depositor asks the faucet for AIRDROP_LAMPORTS (a transfer costs ~0.002 SOL with the token account's rent). */
const MIN_LAMPORTS = 50_000_000n;
const AIRDROP_LAMPORTS = 1_000_000_000n;
const AIRDROP_WAIT_MS = 5_000;

export interface DepositorBalance {
  address: string;
  /** Lamports, decimal text. */
  lamports: string;
  /** Token units of `token` in the depositor's associated token account ("0" without one). */
  token: string;
  amount: string;
  tokenAccount: string;
}

/** The depositor holds less of the token than the deposit asks: nothing was sent. */
export class DepositorUnfundedError extends Error {
  readonly balance: DepositorBalance;
  readonly needed: string;
  constructor(balance: DepositorBalance, needed: string) {
    super(`the sandbox depositor ${balance.address} holds ${balance.amount} ${balance.token}, less than ${needed}`);
    this.name = 'DepositorUnfundedError';
    this.balance = balance;
    this.needed = needed;
  }
}

export interface SandboxDepositor {
  readonly address: string;
  balanceOf(token: string): Promise<DepositorBalance>;
  /** Sends `amount` of `token` to the owner `destination` (its associated token account); answers the signature once the node accepted it. */
  deposit(input: { reference: string; token: string; amount: string; destination: string }): Promise<{ signature: string; lastValidBlockHeight: string }>;
}

export function createSandboxDepositor(deps: { settings: SolanaTransferSettings; signer: TreasurySigner }): SandboxDepositor {
  const { settings, signer } = deps;
  const rpc = createRpcClient(settings.rpcUrl);
  const owner: Address = address(signer.address);
  const rpcCall = <T>(method: string, run: (abortSignal: AbortSignal) => Promise<T>) => call(method, settings.rpcTimeoutMs ?? RPC_TIMEOUT_MS, run);
  const mintOf = createMintReader({ rpc, rpcCall, tokenMints: settings.tokenMints, commitment: settings.commitment });
  // No priority fee: a test cluster has no competition for block space.
  const transfers = createSolanaTransfers({ settings: { ...settings, priorityFeeMaxMicroLamports: 0 }, treasuries: [signer] });

  const lamportsOf = async () => (await rpcCall('getBalance', (abortSignal) => rpc.getBalance(owner, { commitment: 'processed' }).send({ abortSignal }))).value;

  async function balanceOf(token: string): Promise<DepositorBalance> {
    const info = await mintOf(token);
    const [tokenAccount] = await findAssociatedTokenPda({ owner, mint: info.mint, tokenProgram: info.tokenProgram });
    const [lamports, amount] = await Promise.all([
      lamportsOf(),
      // Processed: what the next transfer can spend (a missing account holds nothing).
      rpc
        .getTokenAccountBalance(tokenAccount, { commitment: 'processed' })
        .send({ abortSignal: AbortSignal.timeout(settings.rpcTimeoutMs ?? RPC_TIMEOUT_MS) })
        .then(({ value }) => value.uiAmountString)
        .catch(() => '0'),
    ]);
    return { address: owner, lamports: lamports.toString(), token, amount, tokenAccount };
  }

  /** SOL for the fee and the deposit account's rent, from the faucet when short (waits until the node shows it). */
  async function refill(): Promise<void> {
    if ((await lamportsOf()) >= MIN_LAMPORTS) return;
    await rpcCall('requestAirdrop', (abortSignal) => rpc.requestAirdrop(owner, AIRDROP_LAMPORTS as never).send({ abortSignal }));
    const deadline = Date.now() + AIRDROP_WAIT_MS;
    while ((await lamportsOf()) < MIN_LAMPORTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // One refill at a time: deposits sent together would each ask the faucet, and the same airdrop
  // asked twice in a slot is refused as already processed.
  let refilling: Promise<void> | undefined;
  const ensureLamports = () => (refilling ??= refill().finally(() => (refilling = undefined)));

  async function deposit(input: { reference: string; token: string; amount: string; destination: string }) {
    const balance = await balanceOf(input.token);
    if (decimal(balance.amount).lt(decimal(input.amount))) throw new DepositorUnfundedError(balance, input.amount);
    await ensureLamports();
    const prepared = await transfers.prepareTransfer(input);
    await transfers.sendTransfer(prepared);
    return { signature: prepared.txHash, lastValidBlockHeight: prepared.lastValidBlockHeight };
  }

  return { address: owner, balanceOf, deposit };
}
