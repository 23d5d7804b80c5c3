/**
 * The two simulators, each its own process as `npm run psp-simulator` and `npm run
 * chain-simulator` start them (tools/*), ready when they print their one JSON line:
 * - the PSP simulator (API Pix over mTLS, Efí's PIX out, OAuth2) with its throw-away PKI and state
 *   in <state>/psp; its callbacks carry the header secret the service requires, and it trusts the
 *   local CA (NODE_EXTRA_CA_CERTS) to call the TLS front;
 * - the chain simulator (Solana JSON-RPC on LiteSVM, in memory: every run is a fresh chain), and a
 *   USDC-like mint made through its admin API, whose address the service needs at start.
 */
import path from 'node:path';
import type { Supervisor } from './supervisor.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface PspSimulator {
  ready: Json;
  controlUrl: string;
}

export interface ChainSimulator {
  ready: Json;
  rpcUrl: string;
  adminUrl: string;
  usdcMint: string;
}

const READY_MS = 30_000;
const isReadyLine = (line: string) => line.startsWith('{"ready":true');

/** POSTs JSON to a simulator's admin or control API; anything but 200 throws with its answer. */
export async function postJson(url: string, body: unknown): Promise<Json> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Json;
}

export async function startPspSimulator(run: Supervisor, input: { stateDir: string; port: number; controlPort: number; caCertFile: string; webhookHeaders: Record<string, string> }): Promise<PspSimulator> {
  const child = run.spawnNode('psp-simulator', 'tools/psp-simulator/main.ts', [], {
    PSP_SIM_DIR: path.join(input.stateDir, 'psp'),
    PSP_SIM_PORT: String(input.port),
    PSP_SIM_CONTROL_PORT: String(input.controlPort),
    PSP_SIM_WEBHOOK_HEADERS: JSON.stringify(input.webhookHeaders),
    NODE_EXTRA_CA_CERTS: input.caCertFile,
  }, 1);
  const ready = JSON.parse(await child.line(isReadyLine, READY_MS)) as Json;
  return { ready, controlUrl: ready.controlUrl as string };
}

export async function startChainSimulator(run: Supervisor, input: { port: number; slotMs: number; finalizedLag: number }): Promise<ChainSimulator> {
  const args = ['--port', String(input.port), '--slot-ms', String(input.slotMs), '--confirmed-lag', '1', '--finalized-lag', String(input.finalizedLag)];
  const child = run.spawnNode('chain-simulator', 'tools/chain-simulator/main.ts', args, {}, 1);
  const ready = JSON.parse(await child.line(isReadyLine, READY_MS)) as Json;
  const { mint } = await postJson(`${ready.adminUrl}/mints`, { decimals: 6 });
  return { ready, rpcUrl: ready.url as string, adminUrl: ready.adminUrl as string, usdcMint: mint as string };
}
