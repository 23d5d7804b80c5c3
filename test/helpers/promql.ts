/**
 * Just enough PromQL reading to check that what operators run against the service (the Grafana
 * dashboard's panels, the alert rules) names metrics and labels the service exports: the metric
 * names an expression reads, and the labels each selector filters or groups on. Not a parser: it
 * knows strings, matchers, ranges, label lists, function calls and keywords, which is what our
 * expressions use.
 */

/** PromQL words that are not metric names. */
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan']);
/** Labels Prometheus adds at scrape (job, instance) or the histogram's own (le). */
export const SCRAPE_LABELS = new Set(['job', 'instance', 'le']);
export const HISTOGRAM_SUFFIX = /_(bucket|sum|count)$/;

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
export function labelUses(expr: string): Array<{ metric: string; labels: string[] }> {
  const uses: Array<{ metric: string; labels: string[] }> = [];
  for (const match of expr.matchAll(/([a-zA-Z_:][\w:]*)\{([^}]*)\}/g)) {
    uses.push({ metric: match[1]!, labels: [...match[2]!.matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]!) });
  }
  const grouped = [...expr.matchAll(/\b(?:by|on)\s*\(([^)]*)\)/g)].flatMap((m) => m[1]!.split(',').map((label) => label.trim()).filter(Boolean));
  const metrics = metricNames(expr);
  // A `by (…)` or `on (…)` label must exist on at least one metric of the expression.
  for (const label of grouped) uses.push({ metric: metrics.join('|'), labels: [label] });
  return uses;
}

/** `# TYPE name type` of a text exposition: what the service declares. */
export function declaredMetrics(exposition: string): Map<string, string> {
  return new Map([...exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
}

/** The names the expressions read that `declared` does not hold (a histogram's _bucket, _sum and _count are its own). */
export function unknownMetrics(exprs: string[], declared: ReadonlyMap<string, string>): string[] {
  const unknown = exprs
    .flatMap(metricNames)
    .filter((name) => !declared.has(name) && !(HISTOGRAM_SUFFIX.test(name) && declared.get(name.replace(HISTOGRAM_SUFFIX, '')) === 'histogram'));
  return [...new Set(unknown)];
}

/** "label on metric" for every label the expressions filter or group on that none of its metrics has. */
export function unknownLabels(exprs: string[], labelsOf: (metric: string) => readonly string[]): string[] {
  const wrong: string[] = [];
  for (const expr of exprs) {
    for (const { metric, labels } of labelUses(expr)) {
      const known = new Set(metric.split('|').flatMap((name) => labelsOf(name.replace(HISTOGRAM_SUFFIX, '')).concat(labelsOf(name))));
      for (const label of labels) if (!SCRAPE_LABELS.has(label) && !known.has(label)) wrong.push(`${label} on ${metric}`);
    }
  }
  return [...new Set(wrong)];
}
