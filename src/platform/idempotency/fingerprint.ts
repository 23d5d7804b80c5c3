/**
 * What makes two requests "the same request" for an Idempotency-Key: a SHA-256 of method, route
 * template, path parameters, query and the body as canonical JSON.
 */
import { createHash } from 'node:crypto';

type CanonicalStep = { text: string } | { value: unknown };

const hasToJson = (value: unknown): value is { toJSON(): unknown } =>
  value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function';

/**
 * JSON with object keys sorted at every depth, so key order never changes a fingerprint. A loop
 * over an explicit stack, not recursion: the value is the client's request. The output is the
 * recursive definition's, byte for byte (stored fingerprints must keep matching): arrays write
 * `undefined` as null, objects leave out undefined properties.
 */
export function canonicalJson(input: unknown): string {
  const out: string[] = [];
  const pending: CanonicalStep[] = [{ value: input }];
  // Steps are pushed in reverse, so they pop in writing order.
  const pushReversed = (steps: CanonicalStep[]) => {
    for (let i = steps.length - 1; i >= 0; i--) pending.push(steps[i]!);
  };
  while (pending.length > 0) {
    const step = pending.pop()!;
    if ('text' in step) {
      out.push(step.text);
      continue;
    }
    let value = step.value;
    while (hasToJson(value)) value = value.toJSON();
    if (Array.isArray(value)) {
      const steps: CanonicalStep[] = [{ text: '[' }];
      value.forEach((item, index) => {
        if (index > 0) steps.push({ text: ',' });
        steps.push(item === undefined ? { text: 'null' } : { value: item });
      });
      steps.push({ text: ']' });
      pushReversed(steps);
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .sort()
        .filter((key) => record[key] !== undefined);
      const steps: CanonicalStep[] = [{ text: '{' }];
      keys.forEach((key, index) => {
        steps.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` }, { value: record[key] });
      });
      steps.push({ text: '}' });
      pushReversed(steps);
    } else {
      out.push(JSON.stringify(value) ?? 'null');
    }
  }
  return out.join('');
}

/** What makes two requests "the same request": method, route template, path parameters, query and body. */
export function requestFingerprint(parts: { method: string; route: string; params: unknown; query: unknown; body: unknown }): string {
  const canonical = canonicalJson([parts.method, parts.route, parts.params ?? {}, parts.query ?? {}, parts.body ?? null]);
  return createHash('sha256').update(canonical).digest('hex');
}
