/**
 * `npm run chain-simulator`: a Solana JSON-RPC node backed by LiteSVM, for development, demos and
 * the end-to-end tests (docs/architecture/chain-simulator.md). Prints one JSON line when ready:
 * `{"ready":true,"url":...,"adminUrl":...,"usdcMint":...}`.
 *
 * Flags (or environment): --port (CHAIN_SIM_PORT, default 8899), --host (CHAIN_SIM_HOST,
 * 127.0.0.1), --slot-ms (CHAIN_SIM_SLOT_MS, 400), --confirmed-lag (CHAIN_SIM_CONFIRMED_LAG, 1),
 * --finalized-lag (CHAIN_SIM_FINALIZED_LAG, 32), --priority-fee (CHAIN_SIM_PRIORITY_FEE, 0),
 * --usdc (make the mint at mainnet USDC's address), and faults from the start: --drop-next N,
 * --http-status S with --http-count N or --http-duration-ms MS, --hang-ms MS,
 * --finality-delay-ms MS.
 */
import { parseArgs } from 'node:util';
import type { FaultSettings } from './faults.ts';
import { startChainSimulator } from './index.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'slot-ms': { type: 'string' },
    'confirmed-lag': { type: 'string' },
    'finalized-lag': { type: 'string' },
    'priority-fee': { type: 'string' },
    usdc: { type: 'boolean' },
    'drop-next': { type: 'string' },
    'http-status': { type: 'string' },
    'http-count': { type: 'string' },
    'http-duration-ms': { type: 'string' },
    'hang-ms': { type: 'string' },
    'finality-delay-ms': { type: 'string' },
  },
});

const env = process.env;
function number(flag: string | undefined, variable: string | undefined, fallback: number): number;
function number(flag: string | undefined, variable: string | undefined): number | undefined;
function number(flag: string | undefined, variable: string | undefined, fallback?: number) {
  const text = flag ?? (variable === '' ? undefined : variable);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`chain-simulator: ${text} is not a number ≥ 0`);
  return value;
}

const faults: FaultSettings = {};
const dropNext = number(values['drop-next'], undefined);
if (dropNext !== undefined) faults.dropNext = dropNext;
const httpStatus = number(values['http-status'], undefined);
if (httpStatus !== undefined) {
  const count = number(values['http-count'], undefined);
  const durationMs = number(values['http-duration-ms'], undefined);
  faults.http = { status: httpStatus, ...(count === undefined ? {} : { count }), ...(durationMs === undefined ? {} : { durationMs }) };
}
const hangMs = number(values['hang-ms'], undefined);
if (hangMs !== undefined) faults.hangMs = hangMs;
const finalityDelayMs = number(values['finality-delay-ms'], undefined);
if (finalityDelayMs !== undefined) faults.finalityDelayMs = finalityDelayMs;

const simulator = await startChainSimulator({
  port: number(values.port, env.CHAIN_SIM_PORT, 8899),
  host: values.host ?? (env.CHAIN_SIM_HOST || '127.0.0.1'),
  slotMs: number(values['slot-ms'], env.CHAIN_SIM_SLOT_MS, 400),
  confirmedLag: number(values['confirmed-lag'], env.CHAIN_SIM_CONFIRMED_LAG, 1),
  finalizedLag: number(values['finalized-lag'], env.CHAIN_SIM_FINALIZED_LAG, 32),
  priorityFee: number(values['priority-fee'], env.CHAIN_SIM_PRIORITY_FEE, 0),
  faults,
  log: (message) => process.stderr.write(`chain-simulator: ${message}\n`),
});
const usdc = values.usdc ? await simulator.createMint({ wellKnown: 'usdc' }) : undefined;
process.stdout.write(`${JSON.stringify({ ready: true, url: simulator.url, wsUrl: simulator.wsUrl, adminUrl: simulator.adminUrl, ...(usdc ? { usdcMint: usdc.mint } : {}) })}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void simulator.close().then(() => process.exit(0)));
}
