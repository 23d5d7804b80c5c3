/**
 * The PAYIN liquidity check (docs/architecture/treasury.md, "Liquidity"): is there enough of the
 * token in the treasury for one more PAYIN, answered from memory so the hot path makes no RPC call
 * and, most of the time, no query.
 *
 * Each process keeps a snapshot: per token, the on-chain balance less what open PAYINs owe (those
 * awaiting or holding their PIX and those whose transfer is in flight). It is recomputed every
 * `liquidityRefreshMs` in the background (one query), while requests keep using the previous one
 * (they wait only when it is older than `balanceMaxAgeMs`, after an idle spell); between two
 * recomputations the process subtracts the PAYINs it admitted itself. The balance
 * comes from, in order: this process's own read if younger than `balanceMaxAgeMs`, the worker's
 * last reconciliation run if younger, else a read of the node: at most one RPC call per
 * `balanceMaxAgeMs` per process, none while the worker's job keeps the runs fresh.
 *
 * With several treasury wallets (decision 0057) the check is on their total, and the snapshot also
 * keeps what each wallet can still send (its balance less its transfers in flight), from which the
 * worker picks the wallet of each transfer (`chooseWallet`): the next in turn that covers it.
 *
 * The approximation: PAYINs admitted by other processes since the last recomputation are not
 * subtracted, so a burst across processes can admit more than the treasury holds. That is safe:
 * a transfer the treasury cannot pay fails and the order's PIX is refunded (orders.md). When no
 * balance can be had at all (the node down since start), the treasury's liquidity is unknown and
 * PAYINs are refused (503 PROVIDER_UNAVAILABLE, issue 40: a PAYIN whose tokens may never leave is
 * not taken; docs/decisions/0036-readiness-and-orders-refused-by-dependency.md); a node that fails
 * is asked again only after NODE_RETRY_MS, and a request never waits more than WAIT_LIMIT_MS for a
 * snapshot (a hanging node must not hold POST /payin: past it the PAYIN is refused).
 */
import { type TreasuryBalanceReader, type WalletBalances, totalOf } from '../../adapters/chain/treasury-port.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type Dec, decimal } from '../../lib/money.ts';
import { type TokenSum, treasuryRepo as repo } from './repo.ts';
import { availableAfter, liquidityRefusal, liquidityUnknown } from './rules.ts';

export interface LiquidityLog {
  warn(obj: object, msg: string): void;
}

export interface LiquiditySettings {
  balanceMaxAgeMs: number;
  liquidityRefreshMs: number;
  /** CHAIN_TREASURY_WALLETS: the wallets transfers are spread over (default 1). */
  treasuryWallets?: number;
}

/** After a failed read, the node is not asked again for this long: a down node costs one call per period, not one per PAYIN. */
const NODE_RETRY_MS = 5000;
/** The longest a PAYIN waits for a snapshot; then it goes on with what there is (a hanging node must not hold POST /payin). */
const WAIT_LIMIT_MS = 1000;

/** A reconciliation run's balances as the node's reader answers them: per wallet, per currency. */
export function onChainOfRun(rows: ReadonlyArray<{ wallet: number; currency: string; on_chain: string }>): WalletBalances {
  const byWallet: WalletBalances = new Map();
  for (const row of rows) byWallet.set(row.wallet, (byWallet.get(row.wallet) ?? new Map<string, string>()).set(row.currency, row.on_chain));
  return byWallet;
}

/** Resolves when `work` settles or after `ms`, whichever comes first. */
function atMost(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export function createLiquidity(deps: { db: Db; clock: Clock; reader: TreasuryBalanceReader; settings: LiquiditySettings; log?: LiquidityLog }) {
  const { db, clock, reader, settings } = deps;
  let balances: { at: number; values: WalletBalances } | undefined;
  /** `available`: per token, every wallet's together less what open PAYINs owe; `wallets`: per wallet and token, less its transfers in flight. */
  let snapshot: { at: number; available: Map<string, Dec>; wallets: Map<number, Map<string, Dec>> } | undefined;
  const walletCount = settings.treasuryWallets ?? 1;
  let lastWallet = 0;
  let refreshing: Promise<void> | undefined;
  let nodeFailedAt: number | undefined;

  const now = () => clock.now().getTime();

  /** The on-chain balances, as fresh as `balanceMaxAgeMs` asks; the stale ones when the node fails. */
  async function onChainBalances(): Promise<WalletBalances | undefined> {
    if (balances && now() - balances.at < settings.balanceMaxAgeMs) return balances.values;
    const run = await repo.lastRun(db);
    if (run && now() - run.finished_at.getTime() < settings.balanceMaxAgeMs) {
      remember(onChainOfRun(run.balances), run.finished_at.getTime());
      return balances!.values;
    }
    if (nodeFailedAt !== undefined && now() - nodeFailedAt < NODE_RETRY_MS) return balances?.values;
    try {
      remember(await reader.readBalances(), now());
      nodeFailedAt = undefined;
    } catch (err) {
      nodeFailedAt = now();
      deps.log?.warn({ err, balanceAgeMs: balances ? now() - balances.at : null }, 'treasury balances unreadable; the liquidity check uses the last known');
    }
    return balances?.values;
  }

  function remember(values: WalletBalances, at: number) {
    if (!balances || at >= balances.at) balances = { at, values };
  }

  async function refresh(): Promise<void> {
    const startedAt = now();
    const [onChain, { owed, inFlight, inFlightByWallet }] = await Promise.all([onChainBalances(), repo.openPayins(db)]);
    if (!onChain) return;
    const afterSums = (held: Iterable<[string, string]>, sums: TokenSum[]) => {
      const left = new Map<string, Dec>();
      for (const [currency, balance] of held) left.set(currency, decimal(balance));
      for (const sum of sums) left.set(sum.token, availableAfter((left.get(sum.token) ?? decimal(0)).toString(), sum.amount));
      return left;
    };
    const wallets = new Map([...onChain].map(([wallet, held]): [number, Map<string, Dec>] => [wallet, afterSums(held, inFlightByWallet.get(wallet) ?? [])]));
    snapshot = { at: startedAt, available: afterSums(totalOf(onChain), [...owed, ...inFlight]), wallets };
  }

  function startRefresh(): Promise<void> {
    refreshing ??= refresh()
      .catch((err: unknown) => deps.log?.warn({ err }, 'treasury liquidity snapshot failed; the previous one stays in use'))
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  }

  /**
   * Starts a recomputation when the snapshot is older than `liquidityRefreshMs`; answers it (the
   * request waits) only when there is no snapshot, or one older than `balanceMaxAgeMs` (a process
   * idle for minutes does not answer from what it knew then).
   */
  function fresh(): Promise<void> | undefined {
    const age = snapshot ? now() - snapshot.at : Infinity;
    if (age < settings.liquidityRefreshMs) return undefined;
    const running = startRefresh();
    return age < settings.balanceMaxAgeMs ? undefined : running;
  }

  return {
    /**
     * Refuses (503 TREASURY_INSUFFICIENT_LIQUIDITY) a PAYIN of `amount` tokens the treasury
     * cannot cover, before its PIX charge exists, and (503 PROVIDER_UNAVAILABLE) every PAYIN while
     * no balance could ever be read; admits everything when the treasury is not on chain (the sandbox).
     */
    async checkPayin(token: string, amount: string): Promise<void> {
      if (!reader.onChain) return;
      const waiting = fresh();
      if (waiting) await atMost(waiting, WAIT_LIMIT_MS);
      if (!snapshot) throw liquidityUnknown();
      const available = snapshot.available.get(token) ?? decimal(0);
      const refusal = liquidityRefusal(token, amount, available);
      if (refusal) throw refusal;
      snapshot.available.set(token, available.minus(amount));
    },

    /**
     * The treasury wallet a transfer of `amount` tokens goes from (decision 0057): after the last
     * one picked, the first that can still send it, so that consecutive transfers write-lock
     * different accounts; when none can, the one that has the most (the transfer may then fail
     * on chain and its order be refunded, as with one wallet short of tokens). Wallet 1 when there
     * is one wallet or no treasury on chain; in turn when no balance could be read.
     */
    async chooseWallet(token: string, amount: string): Promise<number> {
      if (walletCount <= 1 || !reader.onChain) return 1;
      const waiting = fresh();
      if (waiting) await atMost(waiting, WAIT_LIMIT_MS);
      const turn = Array.from({ length: walletCount }, (_, i) => ((lastWallet + i) % walletCount) + 1);
      const left = snapshot?.wallets;
      let wallet = turn[0]!;
      if (left) {
        const of = (w: number) => left.get(w)?.get(token) ?? decimal(0);
        wallet = turn.find((w) => of(w).gte(amount)) ?? turn.reduce((best, w) => (of(w).gt(of(best)) ? w : best));
        left.set(wallet, (left.get(wallet) ?? new Map<string, Dec>()).set(token, of(wallet).minus(amount)));
      }
      lastWallet = wallet;
      return wallet;
    },

    /** Recomputes the snapshot now (tests; a process that wants it warm before its first PAYIN). */
    refresh: startRefresh,

    /** Balances read elsewhere in this process (the reconciliation, GET /admin/treasury) serve the check too. */
    remember(values: WalletBalances, at: Date) {
      remember(values, at.getTime());
    },
  };
}

export type Liquidity = ReturnType<typeof createLiquidity>;
