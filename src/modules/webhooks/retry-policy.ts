/**
 * What a receiver's answer means for the next attempt (Standard Webhooks' receiver signals):
 * 2xx done; `410 Gone` stops for good (the endpoint is disabled); `429` and `503` with
 * `Retry-After` set the next attempt's earliest time; anything else follows the retry schedule.
 * Scheduled delays carry jitter so that many deliveries failing together do not retry together.
 */

/** The longest wait a receiver's Retry-After may ask for (longer answers are capped). */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
/** Scheduled delays are stretched by up to this fraction, at random. */
export const RETRY_JITTER = 0.2;

/**
 * Retry-After as milliseconds from `now`: delta-seconds or an HTTP date (RFC 9110 §10.2.3);
 * undefined when absent or unreadable. Capped at MAX_RETRY_AFTER_MS; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (!Number.isFinite(at)) return undefined;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

export type Verdict =
  | { kind: 'succeeded' }
  /** 410 Gone: no more attempts, and the endpoint is disabled. */
  | { kind: 'gone' }
  | { kind: 'retry'; at: Date }
  | { kind: 'failed' };

/**
 * The outcome of an attempt: `retriesUsed` automatic retries have been spent of `schedule`
 * (seconds); `random` in [0, 1) draws the jitter (injected for tests).
 */
export function judgeAttempt(
  result: { ok: boolean; statusCode: number | null; retryAfter?: string | null },
  retriesUsed: number,
  schedule: number[],
  now: Date,
  random: () => number = Math.random,
): Verdict {
  if (result.ok) return { kind: 'succeeded' };
  if (result.statusCode === 410) return { kind: 'gone' };
  if (retriesUsed >= schedule.length) return { kind: 'failed' };
  const delayMs = schedule[retriesUsed]! * 1000 * (1 + RETRY_JITTER * random());
  const asked = result.statusCode === 429 || result.statusCode === 503 ? parseRetryAfter(result.retryAfter, now) : undefined;
  return { kind: 'retry', at: new Date(now.getTime() + Math.max(Math.round(delayMs), asked ?? 0)) };
}
