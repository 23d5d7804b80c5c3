/**
 * What the service's GET /metrics declares when every optional part is on: a process with both
 * roles as main.ts builds it (the worker's jobs built, so their metrics are registered), the
 * orders' chain on a Solana node (the treasury and the sponsor on chain, read by fakes: the node
 * itself is never called, no job runs), the deposit sweeps, and an HTTP price source. The Grafana
 * dashboard's test and the alert rules' test check their expressions against it.
 */
import type { Registry } from 'prom-client';
import { buildApp } from '../../src/app.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import { createWorkerJobs } from '../../src/jobs.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createServices } from '../../src/services.ts';
import { TREASURY_ADDRESS, fakeTreasury } from '../modules/treasury/helpers.ts';
import { testConfig } from './app.ts';
import { openTestDatabase } from './database.ts';
import { startPriceServer } from './price-server.ts';
import { declaredMetrics } from './promql.ts';

export interface ServiceMetrics {
  /** `# TYPE` of every metric GET /metrics declares: name → type. */
  declared: Map<string, string>;
  /** A declared metric's label names (none for an unknown one). */
  labelsOf(metric: string): string[];
  registry: Registry;
  close(): Promise<void>;
}

export async function scrapeServiceMetrics(): Promise<ServiceMetrics> {
  const database = await openTestDatabase();
  const prices = await startPriceServer();
  const config = testConfig({
    CHAIN_PROVIDER: 'solana-rpc',
    // Nothing listens there: building the services calls no node, and no job runs here.
    SOLANA_RPC_URL: 'http://127.0.0.1:9',
    CHAIN_TOKEN_MINTS: `USDC:${TREASURY_ADDRESS}`,
    PRICE_SOURCE: 'http',
    PRICE_URL: prices.url,
  });
  const metrics = createMetrics();
  const services = await createServices({
    config,
    db: database.db,
    clock: systemClock,
    metrics,
    treasuryReader: fakeTreasury({ SOL: '1', USDC: '10' }).reader,
    sponsorReader: fakeTreasury({ SOL: '1' }).reader,
  });
  const app = await buildApp({ config, db: database.db, services, metrics });
  // Building the worker's jobs registers their metrics, as main.ts does with both roles.
  createWorkerJobs(services, config, metrics);
  await app.ready();
  const close = async () => {
    await app.close();
    await prices.close();
    await database.close();
  };
  const response = await app.inject({ url: '/metrics' });
  if (response.statusCode !== 200) {
    await close();
    throw new Error(`GET /metrics answered ${response.statusCode}: ${response.body}`);
  }
  const labelsOf = (metric: string): string[] => ((metrics.registry.getSingleMetric(metric) as unknown as { labelNames?: string[] } | undefined)?.labelNames ?? []).slice();
  return { declared: declaredMetrics(response.body), labelsOf, registry: metrics.registry, close };
}
