/**
 * The simulator without its HTTP server: one LiteSVM, the slot clock, the RPC methods, the
 * faults and the faucet (mints, mint-to, airdrop), for the server and for in-process tests.
 */
import { type ClockSettings, createChain } from './chain.ts';
import { applyFaults, describeFaults, type FaultSettings, noFaults } from './faults.ts';
import type { Handler } from './jsonrpc.ts';
import { accountMethods } from './methods-accounts.ts';
import { clusterMethods } from './methods-cluster.ts';
import { transactionMethods } from './methods-transactions.ts';
import { type CreateMintOptions, createMints } from './mints.ts';
import { createSubscriptions } from './subscriptions.ts';
import { createVm } from './vm.ts';

export interface SimulatorSettings {
  /** Milliseconds a slot lasts (default 400, a cluster's pace; tests use 20–50). */
  slotMs?: number;
  /** Slots from a transaction's slot to `confirmed` (default 1) and to `finalized` (default 32). */
  confirmedLag?: number;
  finalizedLag?: number;
  /** Micro-lamports per compute unit that getRecentPrioritizationFees reports (default 0). */
  priorityFee?: number;
  /** Faults in force from the start. */
  faults?: FaultSettings;
  /**
   * The clock fault durations (http.durationMs, hangMs, finalityDelayMs) run on, epoch ms; default
   * Date.now. A test moves it by hand to live through a 30 s outage without waiting 30 s.
   */
  now?: () => number;
  log?: (message: string) => void;
}

export async function createSimulator(options: SimulatorSettings = {}) {
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  const initial: ClockSettings = {
    slotMs: options.slotMs ?? 400,
    confirmedLag: options.confirmedLag ?? 1,
    finalizedLag: options.finalizedLag ?? 32,
    priorityFee: options.priorityFee ?? 0,
  };
  if (!(initial.slotMs > 0)) throw new Error('slotMs must be > 0');
  const settings: ClockSettings = { ...initial };
  const faults = noFaults();
  const vm = await createVm();
  const chain = createChain(vm, settings, faults, log, now);
  const mints = createMints(vm, chain);
  /** JSON-RPC calls answered, by method (a batch's entries each count): what a client's work costs the node. */
  const calls: Record<string, number> = {};
  const methods = new Map<string, Handler>(
    Object.entries({ ...clusterMethods(chain, settings), ...accountMethods(chain), ...transactionMethods(chain) }).map(([name, handler]): [string, Handler] => [
      name,
      (params) => {
        calls[name] = (calls[name] ?? 0) + 1;
        return handler(params);
      },
    ]),
  );
  const subscriptions = createSubscriptions(chain, log);
  let requests = 0;
  /** The server's: told when a fault cuts the websocket connections. */
  const websocketsDown: Array<() => void> = [];

  function setFaults(input: FaultSettings) {
    applyFaults(faults, input, now());
    if (input.websocketDownMs !== undefined && input.websocketDownMs > 0) for (const cut of websocketsDown) cut();
    if (input.confirmedLag !== undefined) settings.confirmedLag = input.confirmedLag;
    if (input.finalizedLag !== undefined) settings.finalizedLag = input.finalizedLag;
    if (input.priorityFee !== undefined) settings.priorityFee = input.priorityFee;
  }
  if (options.faults) setFaults(options.faults);

  return {
    chain,
    methods,
    subscriptions,
    faults,
    settings,
    now,
    countRequest: () => void requests++,
    onWebsocketsDown: (cut: () => void) => void websocketsDown.push(cut),
    /** Whether a websocket upgrade is refused now (the websocketDownMs fault). */
    websocketDown: () => faults.websocketDownUntil > now(),
    setFaults,
    /** Every fault off, the clock's lags and fee level back to the start's. */
    resetFaults() {
      Object.assign(faults, noFaults());
      Object.assign(settings, initial);
    },
    createMint: (input: CreateMintOptions = {}) => mints.createMint(input),
    mintTo: (mint: string, owner: string, amount: bigint) => mints.mintTo(mint, owner, amount),
    freezeTokenAccount: (mint: string, owner: string) => mints.freezeTokenAccount(mint, owner),
    airdrop: (address: string, lamports: bigint) => chain.airdrop(address, lamports),
    state() {
      return {
        slot: chain.slot,
        blockHeight: chain.slot,
        confirmedSlot: chain.slotAt('confirmed'),
        finalizedSlot: chain.root,
        latestBlockhash: chain.latestBlockhash('processed'),
        pending: chain.pendingCount,
        subscriptions: subscriptions.count(),
        requests,
        calls: { ...calls },
        transactions: { ...chain.counts },
        settings: { ...settings },
        faults: describeFaults(faults, now()),
      };
    },
    close: () => chain.stop(),
  };
}

export type Simulator = Awaited<ReturnType<typeof createSimulator>>;
