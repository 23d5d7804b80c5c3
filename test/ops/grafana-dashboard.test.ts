/**
 * ops/grafana/exchange-dashboard.json cannot drift from the code: every panel's PromQL names only
 * metrics the service's GET /metrics declares (a process with both roles, as main.ts builds it,
 * every optional part on: test/helpers/service-metrics.ts), and filters only on labels those
 * metrics have.
 * docs/architecture/back-office.md, "Metrics and the Grafana dashboard".
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricNames, unknownLabels, unknownMetrics } from '../helpers/promql.ts';
import { type ServiceMetrics, scrapeServiceMetrics } from '../helpers/service-metrics.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const dashboard: Json = JSON.parse(readFileSync(new URL('../../ops/grafana/exchange-dashboard.json', import.meta.url), 'utf8'));
const panels: Json[] = dashboard.panels.filter((panel: Json) => panel.type !== 'row');
const exprs: string[] = panels.flatMap((panel) => panel.targets.map((target: Json) => target.expr as string));

describe('ops/grafana/exchange-dashboard.json', () => {
  let service: ServiceMetrics;

  beforeAll(async () => {
    service = await scrapeServiceMetrics();
  });
  afterAll(() => service?.close());

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

  it('covers what operators watch: HTTP, orders, webhooks, treasury, drift, auth failures, the sponsor, sweeps, stuck orders, MED claims, worker jobs, the price, the process', () => {
    const all = exprs.join('\n');
    for (const needed of [
      'http_request_duration_seconds_bucket',
      'status_code=~"5.."',
      'status_code="401"',
      'orders_by_status',
      'webhook_delivery_attempts_total',
      'webhook_delivery_attempt_duration_seconds_bucket',
      'treasury_balance',
      'treasury_drift',
      'sponsor_balance_sol',
      'deposit_sweeps_by_state',
      'orders_stuck',
      'disputes_unresolved',
      'disputes_next_defense_deadline_timestamp_seconds',
      'worker_job_lag_seconds',
      'price_age_seconds',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(all).toContain(needed);
    }
  });

  it('reads only metrics GET /metrics declares', () => {
    for (const expr of exprs) expect(metricNames(expr).length, expr).toBeGreaterThan(0);
    expect(unknownMetrics(exprs, service.declared)).toEqual([]);
  });

  it('filters and groups only on labels those metrics have', () => {
    expect(unknownLabels(exprs, service.labelsOf)).toEqual([]);
  });

  it('the name extraction ignores functions, strings, ranges and label lists', () => {
    expect(metricNames('histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{job=~"$job"}[$__rate_interval])))')).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricNames('sum(rate(a_total{x="y"}[5m])) / clamp_min(sum(rate(b_total[1h])), 1e-9)')).toEqual(['a_total', 'b_total']);
  });
});
