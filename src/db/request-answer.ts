/**
 * The answer of an idempotent request, written by the transaction that makes its effect
 * (docs/architecture/idempotency.md). The HTTP layer (src/http/idempotency.ts) runs the
 * handler of a request that carries an Idempotency-Key inside `runWithRequestAnswer`; a service
 * then calls `recordAnswer(trx, ...)` as the last statement of its effect's transaction, so a
 * crash leaves either nothing (the retry runs anew) or the effect and its answer (the retry
 * replays it). Without a key (or outside a request) every function here is a no-op, so a
 * request without a key costs exactly what it did.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './database.ts';

/** A route's answer: status code and the body it sends (serialized by the route's own schema). */
export interface RequestAnswer {
  status: number;
  body: unknown;
}

/** Implemented by the HTTP layer for one request holding an Idempotency-Key. */
export interface RequestAnswerRecorder {
  /**
   * Stores `answer` as the request's final answer through `executor` (the effect's transaction).
   * Throws when the key is no longer this request's (a retry took it over): the transaction
   * then rolls back, so the effect is never made twice.
   */
  record(executor: Db, answer: RequestAnswer): Promise<void>;
  /**
   * Stores, before an effect that no transaction can undo (a broadcast), what a retry needs to
   * finish it instead of repeating it (e.g. the signed transaction's bytes). Throws like record.
   */
  recordEffect(executor: Db, effect: string): Promise<void>;
}

const current = new AsyncLocalStorage<RequestAnswerRecorder>();

/** Runs `fn` (a route handler) with `recorder` as the recorder of its answer. */
export function runWithRequestAnswer<T>(recorder: RequestAnswerRecorder, fn: () => T): T {
  return current.run(recorder, fn);
}

/** True when the current request carries an Idempotency-Key whose answer must be recorded. */
export function answerIsRecorded(): boolean {
  return current.getStore() !== undefined;
}

/**
 * Stores the current request's answer in `trx`: call it last in the transaction of the effect.
 * `answer` is only evaluated when the request carries a key.
 */
export async function recordAnswer(trx: Db, answer: () => RequestAnswer | Promise<RequestAnswer>): Promise<void> {
  const recorder = current.getStore();
  if (recorder) await recorder.record(trx, await answer());
}

/** Stores what a retry needs to finish an irreversible effect; call it just before making it. */
export async function recordEffect(db: Db, effect: () => string): Promise<void> {
  const recorder = current.getStore();
  if (recorder) await recorder.recordEffect(db, effect());
}
