/**
 * ops/prometheus/alerts.yml cannot drift from the code: every rule is well formed (a severity, a
 * summary, a description, a runbook section of docs/operations/alerts.md that exists), the rules
 * cover what issue 40 asks to page on, and every expression names only metrics, and filters or
 * groups only on labels, that the service's GET /metrics exports (a process with both roles, every
 * optional part on: test/helpers/service-metrics.ts). A rule on a metric renamed or never exported
 * would never fire, silently: that is what this test is for.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { metricNames, unknownLabels, unknownMetrics } from '../helpers/promql.ts';
import { type ServiceMetrics, scrapeServiceMetrics } from '../helpers/service-metrics.ts';

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const rulesFile = parse(readFileSync(new URL('../../ops/prometheus/alerts.yml', import.meta.url), 'utf8')) as { groups: Array<{ name: string; rules: Rule[] }> };
const rules = rulesFile.groups.flatMap((group) => group.rules);
const exprs = rules.map((rule) => rule.expr);
const guide = readFileSync(new URL('../../docs/operations/alerts.md', import.meta.url), 'utf8');

/** GitHub's anchor of every heading of the guide. */
const anchors = new Set([...guide.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-')));

describe('ops/prometheus/alerts.yml', () => {
  let service: ServiceMetrics;
  let exported: Map<string, string>;
  const labelsOf = (metric: string) => service.labelsOf(metric);

  beforeAll(async () => {
    service = await scrapeServiceMetrics();
    exported = new Map(service.declared);
  });
  afterAll(() => service?.close());

  it('holds alerting rules only, each named once, with a severity, a summary, a description and a runbook section that exists', () => {
    expect(rules.length).toBeGreaterThan(0);
    const names = rules.map((rule) => rule.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of rules) {
      expect(rule.alert, JSON.stringify(rule)).toMatch(/^[A-Z][A-Za-z]+$/);
      expect(rule.record).toBeUndefined();
      expect(rule.expr.trim().length, rule.alert).toBeGreaterThan(0);
      if (rule.for !== undefined) expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      expect(['critical', 'warning'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toMatch(/\S{3}/);
      expect(rule.annotations?.description, rule.alert).toMatch(/\S{3}/);
      const [file, anchor] = (rule.annotations?.runbook ?? '').split('#');
      expect(file, rule.alert).toBe('docs/operations/alerts.md');
      expect(anchor, rule.alert).toBe(rule.alert!.toLowerCase());
      expect(anchors.has(anchor!), `${rule.alert}: no section "## ${rule.alert}" in docs/operations/alerts.md`).toBe(true);
    }
  });

  it('pages on what issue 40 names: treasury drift, low treasury or sponsor, sweeps, stuck orders, webhooks, a job not running, a dispute deadline, the PSP or RPC failing', () => {
    const alerts = new Set(rules.map((rule) => rule.alert));
    for (const needed of ['TreasuryDrift', 'TreasuryLowBalance', 'SponsorLowBalance', 'DepositSweepsStalled', 'DepositSweepFailed', 'OrdersStuck', 'WebhookDeliveriesFailing', 'WorkerJobNotRunning', 'DisputeDefenseDeadlineNear', 'DependencyDown', 'ProviderErrors']) {
      expect(alerts, needed).toContain(needed);
    }
  });

  it('every expression has balanced brackets and reads at least one metric', () => {
    for (const expr of exprs) {
      let depth = 0;
      for (const char of expr.replace(/"(?:[^"\\]|\\.)*"/g, '""')) {
        depth += '([{'.includes(char) ? 1 : ')]}'.includes(char) ? -1 : 0;
        expect(depth, expr).toBeGreaterThanOrEqual(0);
      }
      expect(depth, expr).toBe(0);
      expect(metricNames(expr).length, expr).toBeGreaterThan(0);
    }
  });

  it('names only metrics the service exports', () => {
    expect(unknownMetrics(exprs, exported)).toEqual([]);
  });

  it('filters and groups only on labels those metrics have', () => {
    expect(unknownLabels(exprs, labelsOf)).toEqual([]);
  });

  it('the checks catch a wrong name and a wrong label', () => {
    // A misspelt metric, a histogram suffix on a gauge, a metric of the other branch misspelt.
    const wrong = ['max by (currency) (treasury_drift_unexplaned) == 1', 'sponsor_balance_sol_bucket > 0', 'rate(provider_call_total[5m]) > 0'];
    expect(unknownMetrics(wrong, exported)).toEqual(['treasury_drift_unexplaned', 'sponsor_balance_sol_bucket', 'provider_call_total']);
    // The real rules with one name changed fail too.
    const mutated = exprs.map((expr) => expr.replace('worker_job_lag_seconds', 'worker_jobs_lag_seconds'));
    expect(unknownMetrics(mutated, exported)).toEqual(['worker_jobs_lag_seconds']);
    expect(unknownLabels(['max by (job) (worker_job_lag_seconds{jobname="x"})', 'max by (currenci) (treasury_low_balance)'], labelsOf)).toEqual(['jobname on worker_job_lag_seconds', 'currenci on treasury_low_balance']);
  });

  it('the name extraction ignores functions, strings, ranges, offsets, durations and label lists', () => {
    expect(metricNames('max(deposit_sweeps_by_state{state="FAILED"}) > max(deposit_sweeps_by_state{state="FAILED"} offset 1h)')).toEqual(['deposit_sweeps_by_state']);
    expect(metricNames('min(disputes_next_defense_deadline_timestamp_seconds) - time() < 24 * 3600')).toEqual(['disputes_next_defense_deadline_timestamp_seconds']);
    expect(metricNames('histogram_quantile(0.95, sum by (le, provider) (rate(provider_call_duration_seconds_bucket[5m]))) > 5')).toEqual(['provider_call_duration_seconds_bucket']);
  });
});
