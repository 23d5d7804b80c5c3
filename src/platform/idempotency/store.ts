/**
 * The Idempotency-Key store (docs/architecture/idempotency.md): the keys' repo, this process as
 * the owner of the held keys it has in flight, and the box that seals stored answers.
 */
import type { Db } from '../../db/database.ts';
import { type AeadBox, createAeadBox } from '../../lib/aead.ts';

/** The purpose label of the key sealing stored answers, derived from WEBHOOK_SECRET_KEY. */
export const IDEMPOTENCY_ANSWERS_PURPOSE = 'idempotency-stored-answers';
import type { Clock } from '../../lib/clock.ts';
import { createIdempotencyOwner, type IdempotencyOwner } from './owner.ts';
import { createIdempotencyRepo, type IdempotencyRepo } from './repo.ts';

/** How long a live process may hold a key before a retry takes it over anyway (it is stuck). */
export const DEFAULT_MAX_HOLD_MS = 60_000;

export interface IdempotencyStore {
  readonly repo: IdempotencyRepo;
  readonly clock: Clock;
  /** This process as the owner of the held keys it has in flight, with its heartbeat. */
  readonly owner: IdempotencyOwner;
  readonly maxHoldMs: number;
  /** Seals an answer's text, bound to its merchant and key. */
  seal(key: { merchantId: string; key: string }, body: string): string;
  /** Opens a stored answer; throws when it cannot (the sealing key changed). */
  open(key: { merchantId: string; key: string }, sealed: string): string;
  /** Deletes the keys created more than `ttlHours` ago, in batches; returns how many. */
  purgeExpired(ttlHours: number, options?: { batchSize?: number; signal?: AbortSignal }): Promise<number>;
}

export function createIdempotencyStore(deps: {
  db: Db;
  clock: Clock;
  /** 32 bytes (lib/aead.ts deriveKey), or a box (its rotating one, lib/rotating-box.ts), sealing the stored answers: some carry a secret shown once, most personal data. */
  answersKey: Uint8Array | AeadBox;
  maxHoldMs?: number;
  owner?: { leaseMs?: number; beatMs?: number };
}): IdempotencyStore {
  const repo = createIdempotencyRepo(deps.db);
  const answers: AeadBox = deps.answersKey instanceof Uint8Array ? createAeadBox(deps.answersKey) : deps.answersKey;
  const boundTo = (key: { merchantId: string; key: string }) => `${key.merchantId}:${key.key}`;
  return {
    repo,
    clock: deps.clock,
    owner: createIdempotencyOwner(deps.db, deps.owner),
    maxHoldMs: deps.maxHoldMs ?? DEFAULT_MAX_HOLD_MS,
    seal: (key, body) => answers.seal(Buffer.from(body), boundTo(key)),
    open: (key, sealed) => answers.open(sealed, boundTo(key)).toString(),
    async purgeExpired(ttlHours, { batchSize = 1000, signal } = {}) {
      const cutoff = new Date(deps.clock.now().getTime() - ttlHours * 3_600_000);
      let total = 0;
      await repo.deleteSilentOwners();
      while (!signal?.aborted) {
        const deleted = await repo.deleteCreatedBefore(cutoff, batchSize);
        total += deleted;
        if (deleted < batchSize) break;
      }
      return total;
    },
  };
}
