/**
 * A request's claim on its Idempotency-Key, as the HTTP hook (src/http/idempotency.ts) hands it
 * to a route, and the route to the service that makes the effect: an argument, never ambient
 * state. The service stores the answer with `complete(trx, answer)` as the last statement of the
 * effect's transaction, so a crash leaves the effect with its answer or neither.
 *
 * The two modes (docs/architecture/idempotency.md "Modes"), and the one place that says which
 * route uses which is each route's `config.idempotent`:
 * - `in-transaction`: no row exists before the effect. The effect's transaction inserts the key
 *   COMPLETED with its sealed answer: one commit per keyed write. Concurrent duplicates meet on
 *   the key's primary key: the loser's insert waits for the winner's commit, raises a unique
 *   violation (its transaction rolls back) and the hook replays the winner's answer. Only for a
 *   service whose every effect is in that transaction, or is made repeatable by the key (the
 *   PIX charge of an order: its txid is derived from merchant and key).
 * - `held` (`idempotent: true`, the default): the key is inserted IN_PROGRESS before the handler
 *   runs (its own commit); a duplicate meanwhile is 409 CONFLICT with retry-after; the answer is
 *   stored by the effect's transaction (`complete`, conditioned on the holder's lock token) or
 *   when sent; a holder that died is taken over (owner.ts heartbeat). The only mode for an
 *   irreversible effect outside any transaction (a broadcast: `recordEffect`, then resume).
 */
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { completedRow, type KeyHolder, type StoredResponse } from './repo.ts';
import type { IdempotencyStore } from './store.ts';
import type { IdempotencyKeysTable } from './tables.ts';

export type IdempotencyMode = 'in-transaction' | 'held';

/** A route's answer: status code and the body it sends (serialized by the route's own schema). */
export interface RequestAnswer {
  status: number;
  body: unknown;
}

/** What a route declares in `config.idempotent` (true: held, without resume). */
export type IdempotentRouteOption =
  | true
  | {
      mode: 'in-transaction';
      /**
       * `service`: the hook does not look the key up; the service's first read does (orders'
       * context read joins the key, so a keyed order costs the round trips of an unkeyed one) and
       * throws `KeyAlreadyUsed` when it exists, for the hook to answer.
       */
      lookup?: 'hook' | 'service';
    }
  | {
      mode: 'held';
      /** Finishes, for a retry, an irreversible effect whose holder died or failed after recording it (`recordEffect`), and gives the answer. */
      resume?(effect: string): Promise<RequestAnswer>;
    };

export const modeOf = (option: IdempotentRouteOption): IdempotencyMode => (option === true ? 'held' : option.mode);

/** The identity of a keyed request, as stored with its answer. */
export interface KeyedRequest {
  merchantId: string;
  key: string;
  fingerprint: string;
  method: string;
  route: string;
  requestId: string;
}

/** Thrown by a service whose own read found the request's key already used (lookup: 'service'): the hook replays or refuses. */
export class KeyAlreadyUsed extends Error {
  constructor() {
    super('this Idempotency-Key was already used');
    this.name = 'KeyAlreadyUsed';
  }
}

const JSON_CONTENT = 'application/json; charset=utf-8';

export const takenOver = () =>
  new AppError('CONFLICT', 'this request took too long and a retry with its Idempotency-Key took it over; retry to get its answer');

/** A request holding an Idempotency-Key: what services receive to store the answer with their effect. */
export class IdempotentRequest implements KeyedRequest {
  readonly merchantId: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly method: string;
  readonly route: string;
  readonly requestId: string;
  readonly mode: IdempotencyMode;
  /** Held mode: the token every write of the holder is conditioned on. */
  readonly lockToken: string | undefined;
  /** The answer is stored (by the effect's transaction, or when sent). */
  answered = false;
  /** Held mode: an irreversible effect was recorded, so a failure gives the key up, never frees it. */
  effectRecorded = false;

  private readonly store: IdempotencyStore;
  /** The route's own serializer: the stored text is the text the route sends. */
  private readonly serialize: (answer: RequestAnswer) => string;

  constructor(request: KeyedRequest, store: IdempotencyStore, serialize: (answer: RequestAnswer) => string, lockToken?: string) {
    this.store = store;
    this.serialize = serialize;
    this.merchantId = request.merchantId;
    this.key = request.key;
    this.fingerprint = request.fingerprint;
    this.method = request.method;
    this.route = request.route;
    this.requestId = request.requestId;
    this.mode = lockToken === undefined ? 'in-transaction' : 'held';
    this.lockToken = lockToken;
  }

  get holder(): KeyHolder {
    if (this.lockToken === undefined) throw new Error('an in-transaction key has no holder');
    return { merchantId: this.merchantId, key: this.key, lockToken: this.lockToken };
  }

  /** The answer's text as stored: sealed, bound to merchant and key. */
  sealed(text: string) {
    return { status: 0, contentType: JSON_CONTENT, body: this.store.seal(this, text) };
  }

  /**
   * The key's row, COMPLETED with `answer`, for a statement of the caller's own: the caller's
   * statement must raise on its unique violation (23505), never skip it.
   */
  completedRow(answer: RequestAnswer): Insertable<IdempotencyKeysTable> {
    return this.completedRowOf({ ...this.sealed(this.serialize(answer)), status: answer.status });
  }

  /** The key's row, COMPLETED with an answer already sealed. */
  completedRowOf(response: StoredResponse): Insertable<IdempotencyKeysTable> {
    if (this.mode !== 'in-transaction') throw new Error('only an in-transaction key is inserted with its answer');
    return completedRow(this, response, this.store.clock.now());
  }

  /** The caller's own statement inserted `completedRow`, and committed. */
  markAnswered(): void {
    this.answered = true;
  }

  /**
   * Stores `answer` through `trx`, the effect's transaction: call it last. In-transaction mode
   * inserts the key (a concurrent duplicate makes it raise: the effect rolls back); held mode
   * completes this holder's row, and throws when a retry took it over (the effect rolls back, so
   * it is never made twice).
   */
  async complete(trx: Db, answer: RequestAnswer): Promise<void> {
    if (this.mode === 'in-transaction') {
      await this.store.repo.insertCompleted(trx, this.completedRow(answer));
    } else {
      const stored = { ...this.sealed(this.serialize(answer)), status: answer.status };
      if (!(await this.store.repo.complete(trx, this.holder, stored, this.store.clock.now()))) throw takenOver();
    }
    this.answered = true;
  }

  /**
   * Held mode only: stores, before an effect no transaction can undo (a broadcast), what a retry
   * needs to finish it instead of repeating it (the signed bytes). Throws like `complete`.
   */
  async recordEffect(db: Db, effect: string): Promise<void> {
    if (!(await this.store.repo.recordEffect(db, this.holder, effect))) throw takenOver();
    this.effectRecorded = true;
  }
}
