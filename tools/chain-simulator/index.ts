/**
 * The chain simulator's programmatic API: `startChainSimulator(options)` starts one (its own
 * LiteSVM, slot clock and HTTP listener) in this process and returns its URL and the faucet and
 * fault helpers. `npm run chain-simulator` (main.ts) runs the same thing as a process.
 * docs/architecture/chain-simulator.md describes methods, clock and faults.
 */
import type { FaultSettings } from './faults.ts';
import type { CreateMintOptions, MintInfo, MintToResult } from './mints.ts';
import { listen } from './server.ts';
import { createSimulator, type SimulatorSettings } from './simulator.ts';

export type { FaultSettings } from './faults.ts';
export type { CreateMintOptions, MintInfo, MintToResult } from './mints.ts';
export { associatedTokenAddress, ASSOCIATED_TOKEN_PROGRAM, WELL_KNOWN_USDC } from './mints.ts';
export { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './tokens.ts';

export interface ChainSimulatorOptions extends SimulatorSettings {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface ChainSimulator {
  /** The JSON-RPC URL, for createSolanaRpc. */
  url: string;
  /** The websocket URL, for createSolanaRpcSubscriptions (same port). */
  wsUrl: string;
  /** The admin API's base (`${url}/admin`). */
  adminUrl: string;
  createMint(options?: CreateMintOptions): Promise<MintInfo>;
  /** Mints `amount` base units to the owner's associated token account, creating it if missing. */
  mintTo(input: { mint: string; owner: string; amount: bigint | number | string }): Promise<MintToResult>;
  /** The owner's token account of `mint` frozen (created if missing): transfers to it fail on chain. */
  freezeTokenAccount(input: { mint: string; owner: string }): Promise<{ tokenAccount: string }>;
  /** Lamports straight to an address (recorded like requestAirdrop); returns the signature. */
  airdrop(address: string, lamports: bigint | number): Promise<string>;
  setFaults(faults: FaultSettings): Promise<void>;
  /** Every fault off, the clock's lags and fee level back to the start's. */
  reset(): Promise<void>;
  /** Slot, heights, counts, settings and faults (what GET /admin/state answers). */
  state(): ReturnType<Awaited<ReturnType<typeof createSimulator>>['state']>;
  /** Advances the clock by `count` slots now (tests that do not want to wait). */
  advanceSlots(count: number): void;
  close(): Promise<void>;
}

export async function startChainSimulator(options: ChainSimulatorOptions = {}): Promise<ChainSimulator> {
  const log = options.log ?? (() => {});
  const simulator = await createSimulator({ ...options, log });
  let server: Awaited<ReturnType<typeof listen>>;
  try {
    server = await listen(simulator, { port: options.port ?? 0, host: options.host ?? '127.0.0.1', log });
  } catch (error) {
    simulator.close();
    throw error;
  }
  return {
    url: server.url,
    wsUrl: server.wsUrl,
    adminUrl: `${server.url}/admin`,
    createMint: async (input = {}) => simulator.createMint(input),
    mintTo: async ({ mint, owner, amount }) => simulator.mintTo(mint, owner, BigInt(amount)),
    freezeTokenAccount: async ({ mint, owner }) => simulator.freezeTokenAccount(mint, owner),
    airdrop: async (address, lamports) => simulator.airdrop(address, BigInt(lamports)),
    setFaults: async (faults) => simulator.setFaults(faults),
    reset: async () => simulator.resetFaults(),
    state: () => simulator.state(),
    advanceSlots: (count) => {
      for (let i = 0; i < count; i++) simulator.chain.tick();
    },
    async close() {
      simulator.close();
      await server.close();
    },
  };
}
