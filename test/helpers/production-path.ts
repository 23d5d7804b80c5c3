/**
 * The production path's outside world for end-to-end tests: the PSP simulator and the chain
 * simulator, each in its own process as the README runs them, a USDC-like mint made the
 * operator's way (the simulator's admin API), and the service's settings pointing at both
 * (PIX_PROVIDER=api-pix, CHAIN_PROVIDER=solana-rpc at `finalized`).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { address, type Address } from '@solana/kit';
import { expect } from 'vitest';
import { type Rpc, simulatorRpc } from './chain-simulator.ts';
import { startReadyProcess } from './processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** POSTs JSON to a simulator's control or admin API; anything but 200 fails the test. */
export async function postJson(url: string, body: unknown): Promise<Json> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status, `${url}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as Json;
}

export interface ProductionPath {
  psp: { child: ChildProcess; ready: Json };
  chain: { child: ChildProcess; ready: Json };
  rpc: Rpc;
  usdc: Address;
  /** The service's settings for both simulators, its callback on `port`. */
  env(port: number): Record<string, string>;
  pspState(): Promise<Json>;
  stop(): void;
}

/** Both simulators started (a 20 ms slot, finalized 4 slots after landing) and the mint made. */
export async function startProductionPath(webhook: { token: string; headerSecret: string }): Promise<ProductionPath> {
  const headers = { 'x-webhook-secret': webhook.headerSecret };
  const [psp, chain] = await Promise.all([
    startReadyProcess('tools/psp-simulator/main.ts', [], {
      PSP_SIM_DIR: mkdtempSync(path.join(tmpdir(), 'psp-sim-')),
      PSP_SIM_PORT: '0',
      PSP_SIM_CONTROL_PORT: '0',
      PSP_SIM_SETTLE_DELAY_MS: '30',
      PSP_SIM_WEBHOOK_HEADERS: JSON.stringify(headers),
    }),
    startReadyProcess('tools/chain-simulator/main.ts', ['--port', '0', '--slot-ms', '20', '--confirmed-lag', '1', '--finalized-lag', '4'], {}),
  ]);
  const usdc = address((await postJson(`${chain.ready.adminUrl}/mints`, { decimals: 6 })).mint);
  const c = psp.ready.certificates;
  return {
    psp,
    chain,
    rpc: simulatorRpc(chain.ready.url),
    usdc,
    env: (port) => ({
      PIX_PROVIDER: 'api-pix',
      PIX_API_BASE_URL: psp.ready.pixApiBaseUrl,
      PIX_OAUTH_TOKEN_URL: psp.ready.tokenUrl,
      PIX_OUT_BASE_URL: psp.ready.apiUrl,
      PIX_CLIENT_ID: psp.ready.clientId,
      PIX_CLIENT_SECRET: psp.ready.clientSecret,
      PIX_CLIENT_CERT: c.clientCertPem,
      PIX_CLIENT_KEY: c.clientKeyPem,
      PIX_CA_CERT: c.caPem,
      PIX_API_TIMEOUT_MS: '2000',
      PIX_WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PIX_WEBHOOK_TOKEN: webhook.token,
      PIX_WEBHOOK_HEADER_SECRET: webhook.headerSecret,
      CHAIN_PROVIDER: 'solana-rpc',
      SOLANA_RPC_URL: chain.ready.url,
      SOLANA_COMMITMENT: 'finalized',
      CHAIN_TOKEN_MINTS: `USDC:${usdc}`,
    }),
    pspState: async () => (await (await fetch(`${psp.ready.controlUrl}/control/state`)).json()) as Json,
    stop: () => {
      psp.child.kill('SIGTERM');
      chain.child.kill('SIGTERM');
    },
  };
}
