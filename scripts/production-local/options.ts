/**
 * The command line of `npm run production-local` (README "Production on this machine", and
 * docs/operations/deployment.md). Every part listens on loopback; the defaults are the ports the
 * README's walkthrough uses, `--smoke` takes free ports instead (CI, and beside a running copy).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';

export interface Ports {
  /** The first api process; the others take the next ones. */
  api: number;
  /** The TLS front (the edge): https to every api process, the PSP's callbacks included. */
  front: number;
  price: number;
  smtp: number;
  psp: number;
  pspControl: number;
  chain: number;
}

export interface Options {
  smoke: boolean;
  /** With --smoke: once it passed, keep everything running until a signal (the end-to-end test's Ctrl-C). */
  hold: boolean;
  /** The database created (dropped first, if an earlier run made it) on the PostgreSQL server. */
  database: string;
  /** `postgresql://user@host:port` of the server, no database. */
  postgres: string;
  /** Certificates, settings, logs, mail: wiped at start, kept after the stop to be read. */
  stateDir: string;
  apiProcesses: number;
  workerProcesses: number;
  /** The chain simulator's slot, and how many slots after landing a block is finalized. */
  slotMs: number;
  finalizedLag: number;
  /** BRL per USDC served by the local price source. */
  usdcBrl: string;
  /** undefined: free ports taken at start. */
  ports: Ports | undefined;
}

export const DEFAULT_PORTS: Ports = { api: 3000, front: 3443, price: 9443, smtp: 2525, psp: 8443, pspControl: 8444, chain: 8899 };

export const USAGE = `usage: npm run production-local [-- --smoke [--hold]] [--database NAME] [--postgres postgresql://user@host:port] [--state-dir DIR]
       [--api N] [--workers M] [--slot-ms MS] [--finalized-lag SLOTS] [--usdc-brl RATE] [--free-ports]`;

function positiveInteger(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 100_000) throw new Error(`--${name} must be a whole number from 1 to 100000 (got "${text}"); ${USAGE}`);
  return value;
}

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      smoke: { type: 'boolean', default: false },
      hold: { type: 'boolean', default: false },
      database: { type: 'string' },
      postgres: { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432' },
      'state-dir': { type: 'string' },
      api: { type: 'string' },
      workers: { type: 'string' },
      'slot-ms': { type: 'string' },
      'finalized-lag': { type: 'string' },
      'usdc-brl': { type: 'string', default: '5.40' },
      'free-ports': { type: 'boolean', default: false },
    },
  });
  const smoke = values.smoke;
  const database = values.database ?? (smoke ? 'exchange_production_local_smoke' : 'exchange_production_local');
  // A name we can put in SQL without quoting, and never one of the server's own.
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database) || ['postgres', 'template0', 'template1'].includes(database)) {
    throw new Error(`--database must be a lower-case SQL name (letters, digits, _), not a system database (got "${database}")`);
  }
  if (!/^postgres(ql)?:\/\/[^/]+\/?$/.test(values.postgres)) throw new Error(`--postgres must be postgresql://user@host:port, without a database (got "${values.postgres}")`);
  if (!/^\d{1,6}(\.\d{1,8})?$/.test(values['usdc-brl']) || Number(values['usdc-brl']) <= 0) throw new Error(`--usdc-brl must be a positive decimal (got "${values['usdc-brl']}")`);
  return {
    smoke,
    hold: values.hold,
    database,
    postgres: values.postgres.replace(/\/$/, ''),
    stateDir: path.resolve(values['state-dir'] ?? (smoke ? path.join('data', `production-local-smoke-${process.pid}`) : path.join('data', 'production-local'))),
    apiProcesses: positiveInteger(values.api, 1, 'api'),
    workerProcesses: positiveInteger(values.workers, 1, 'workers'),
    // The smoke run's chain is fast (a 20 ms slot, finalized 4 slots later) so CI waits seconds, not a cluster's 13 s.
    slotMs: positiveInteger(values['slot-ms'], smoke ? 20 : 400, 'slot-ms'),
    finalizedLag: positiveInteger(values['finalized-lag'], smoke ? 4 : 32, 'finalized-lag'),
    usdcBrl: values['usdc-brl'],
    ports: smoke || values['free-ports'] ? undefined : DEFAULT_PORTS,
  };
}
