/**
 * ops/grafana/exchange-dashboard.json cannot drift from the code: every panel's PromQL names only
 * metrics the service's GET /metrics declares (a process with both roles, as main.ts builds it, on
 * a treasury on chain so the treasury gauges exist), and filters only on labels those metrics have.
 * docs/architecture/back-office.md, "Metrics and the Grafana dashboard".
 */
import { readFileSync } from 'node:fs';
import type { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import type { App } from '../../src/http/types.ts';
import { createWorkerJobs } from '../../src/jobs.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createServices } from '../../src/services.ts';
import { testConfig } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/database.ts';
import { fakeTreasury } from '../modules/treasury/helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const dashboard: Json = JSON.parse(readFileSync(new URL('../../ops/grafana/exchange-dashboard.json', import.meta.url), 'utf8'));
const panels: Json[] = dashboard.panels.filter((panel: Json) => panel.type !== 'row');
const exprs: string[] = panels.flatMap((panel) => panel.targets.map((target: Json) => target.expr as string));

/** PromQL words that are not metric names. */
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan']);
/** Labels Prometheus adds at scrape (job, instance) or the histogram's own (le). */
const SCRAPE_LABELS = new Set(['job', 'instance', 'le']);
const HISTOGRAM_SUFFIX = /_(bucket|sum|count)$/;

/** The metric names an expression reads: identifiers outside strings, matchers, ranges and label lists, not called as functions. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [...bare.matchAll(/(?<![\w$.])([a-zA-Z_:][\w:]*)(?![\w:])(?!\s*\()/g)].map((m) => m[1]!);
  return [...new Set(names.filter((name) => !KEYWORDS.has(name.toLowerCase())))];
}

/** Each selector's metric name and the label names it filters or groups on. */
function labelUses(expr: string): Array<{ metric: string; labels: string[] }> {
  const uses: Array<{ metric: string; labels: string[] }> = [];
  for (const match of expr.matchAll(/([a-zA-Z_:][\w:]*)\{([^}]*)\}/g)) {
    uses.push({ metric: match[1]!, labels: [...match[2]!.matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]!) });
  }
  const grouped = [...expr.matchAll(/\bby\s*\(([^)]*)\)/g)].flatMap((m) => m[1]!.split(',').map((label) => label.trim()));
  const metrics = metricNames(expr);
  // A `by (…)` label must exist on at least one metric of the expression.
  for (const label of grouped) uses.push({ metric: metrics.join('|'), labels: [label] });
  return uses;
}

describe('ops/grafana/exchange-dashboard.json', () => {
  let app: App;
  let registry: Registry;
  let close: () => Promise<void>;
  /** `# TYPE name type` of GET /metrics. */
  const declared = new Map<string, string>();

  beforeAll(async () => {
    const database = await openTestDatabase();
    const config = testConfig();
    const metrics = createMetrics();
    registry = metrics.registry;
    const services = await createServices({ config, db: database.db, clock: systemClock, metrics, treasuryReader: fakeTreasury({ SOL: '1', USDC: '10' }).reader });
    app = await buildApp({ config, db: database.db, services, metrics });
    // Building the worker's jobs registers their metrics, as main.ts does with both roles.
    createWorkerJobs(services, config, metrics);
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
    };
    const response = await app.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(200);
    for (const match of response.body.matchAll(/^# TYPE (\S+) (\S+)$/gm)) declared.set(match[1]!, match[2]!);
  });
  afterAll(() => close?.());

  it('is a Grafana dashboard with a Prometheus data source chosen at import', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.uid).toMatch(/^[\w-]{1,40}$/);
    expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' })]);
    const variables = dashboard.templating.list as Json[];
    expect(variables.find((v) => v.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus', current: { value: '${DS_PROMETHEUS}' } });
    for (const panel of panels) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
    }
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
    // Every panel inside the 24-column grid.
    for (const { gridPos, title } of panels) expect(gridPos.x + gridPos.w, title).toBeLessThanOrEqual(24);
  });

  it('covers what operators watch: HTTP, orders, webhooks, treasury, drift, auth failures, the process', () => {
    const all = exprs.join('\n');
    for (const needed of ['http_request_duration_seconds_bucket', 'status_code=~"5.."', 'status_code="401"', 'orders_by_status', 'webhook_delivery_attempts_total', 'webhook_delivery_attempt_duration_seconds_bucket', 'treasury_balance', 'treasury_drift', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(all).toContain(needed);
    }
  });

  it('reads only metrics GET /metrics declares', () => {
    const names = exprs.map((expr) => ({ expr, names: metricNames(expr) }));
    for (const { expr, names: found } of names) expect(found.length, expr).toBeGreaterThan(0);
    const unknown = names
      .flatMap(({ names: found }) => found)
      .filter((name) => !declared.has(name) && !(HISTOGRAM_SUFFIX.test(name) && declared.get(name.replace(HISTOGRAM_SUFFIX, '')) === 'histogram'));
    expect([...new Set(unknown)]).toEqual([]);
  });

  it('filters and groups only on labels those metrics have', () => {
    const labelsOf = (metric: string): string[] => {
      const instance = registry.getSingleMetric(metric.replace(HISTOGRAM_SUFFIX, '')) ?? registry.getSingleMetric(metric);
      return ((instance as unknown as { labelNames?: string[] } | undefined)?.labelNames ?? []).slice();
    };
    const wrong: string[] = [];
    for (const expr of exprs) {
      for (const { metric, labels } of labelUses(expr)) {
        const known = new Set(metric.split('|').flatMap(labelsOf));
        for (const label of labels) if (!SCRAPE_LABELS.has(label) && !known.has(label)) wrong.push(`${label} on ${metric}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the name extraction ignores functions, strings, ranges and label lists', () => {
    expect(metricNames('histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{job=~"$job"}[$__rate_interval])))')).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricNames('sum(rate(a_total{x="y"}[5m])) / clamp_min(sum(rate(b_total[1h])), 1e-9)')).toEqual(['a_total', 'b_total']);
  });
});
