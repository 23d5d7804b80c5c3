import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from 'typebox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { requireMerchant } from '../../src/http/auth.ts';
import { createAuthFailureLimiter } from '../../src/http/auth-failures.ts';
import { AppError } from '../../src/errors.ts';
import { registerIdempotency } from '../../src/http/idempotency.ts';
import { canonicalJson } from '../../src/platform/idempotency/fingerprint.ts';
import { idempotencyCleanupJob } from '../../src/platform/idempotency/job.ts';
import { createIdempotencyStore, type IdempotencyStore } from '../../src/platform/idempotency/store.ts';
import { StrictObject } from '../../src/http/schemas.ts';
import type { App } from '../../src/http/types.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../helpers/app.ts';

const T0 = new Date('2026-11-22T12:00:00.000Z');
/** A short owner lease, so a dead owner's key is taken over within a test. */
const OWNER_LEASE_MS = 1_000;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function waitFor(condition: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('Idempotency-Key', () => {
  let ctx: TestContext;
  let app: App;
  let store: IdempotencyStore;
  let now = T0;
  const clock: Clock = { now: () => now };
  const calls = { things: 0, confirm: 0, refuse: 0, flaky: 0, gated: 0, slow: 0, plain: 0 };
  /** Each call of /probe/gated waits for the next of these, if any. */
  let holds: Array<Promise<void>> = [];
  let merchant: TestMerchant;
  let originalComplete: IdempotencyStore['repo']['complete'];
  let other: TestMerchant;

  const ThingBody = StrictObject({
    amount: Type.String(),
    meta: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  });

  beforeAll(async () => {
    ctx = await createTestContext();
    app = await ctx.buildApp({}, undefined, (probe) => {
      store = createIdempotencyStore({ db: ctx.database.db, clock, answersKey: randomBytes(32), owner: { leaseMs: OWNER_LEASE_MS, beatMs: 100 } });
      // The same arrangement as the merchant scope of src/app.ts: authenticate, then idempotency.
      void probe.register(async (scope: App) => {
        scope.addHook('onRequest', requireMerchant(probe.services.auth, createAuthFailureLimiter({ maxPerMinute: 0 })));
        registerIdempotency(scope, store);
        const created = (name: keyof typeof calls, extra: Record<string, unknown> = {}) => ({
          id: randomUUID(),
          call: calls[name],
          ...extra,
        });
        scope.post('/probe/things', { config: { idempotent: true }, schema: { body: ThingBody } }, async (request, reply) => {
          calls.things++;
          return reply.code(201).send(created('things', { amount: request.body.amount }));
        });
        scope.post(
          '/probe/things/:thingId/confirm',
          { config: { idempotent: true }, schema: { params: StrictObject({ thingId: Type.String() }), body: ThingBody } },
          async (request, reply) => {
            calls.confirm++;
            return reply.code(201).send(created('confirm', { thingId: request.params.thingId }));
          },
        );
        scope.post('/probe/refuse', { config: { idempotent: true }, schema: { body: ThingBody } }, async () => {
          calls.refuse++;
          throw new AppError('LIMIT_EXCEEDED', `over the daily limit (call ${calls.refuse})`, { limit: '100.00' });
        });
        scope.post('/probe/flaky', { config: { idempotent: true }, schema: { body: ThingBody } }, async (_request, reply) => {
          calls.flaky++;
          if (calls.flaky === 1) throw new Error('database connection lost');
          return reply.code(201).send(created('flaky'));
        });
        scope.post('/probe/gated', { config: { idempotent: true }, schema: { body: ThingBody } }, async (_request, reply) => {
          calls.gated++;
          const wait = holds.shift();
          if (wait) await wait;
          return reply.code(201).send(created('gated'));
        });
        scope.post('/probe/slow', { config: { idempotent: true }, schema: { body: ThingBody } }, async (_request, reply) => {
          calls.slow++;
          await sleep(100);
          return reply.code(201).send(created('slow'));
        });
        scope.post('/probe/plain', { schema: { body: ThingBody } }, async (_request, reply) => {
          calls.plain++;
          return reply.code(201).send(created('plain'));
        });
      });
    });
    originalComplete = store.repo.complete;
    merchant = await ctx.createMerchant('Idempotent Merchant');
    other = await ctx.createMerchant('Other Merchant');
  });
  afterAll(() => ctx.close());
  afterEach(() => {
    now = T0;
    holds = [];
    store.repo.complete = originalComplete;
  });

  const post = (url: string, body: unknown, key?: string, who: TestMerchant = merchant, extraHeaders: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: { ...who.headers, ...extraHeaders, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload: body as Record<string, unknown>,
    });

  const storedRow = (merchantId: string, key: string) =>
    ctx.database.db.selectFrom('idempotency_keys').selectAll().where('merchant_id', '=', merchantId).where('key', '=', key).executeTakeFirst();

  it('replays the first answer without running the handler again', async () => {
    const key = randomUUID();
    const first = await post('/probe/things', { amount: '10.00' }, key);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(calls.things).toBe(1);

    const second = await post('/probe/things', { amount: '10.00' }, key);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(calls.things).toBe(1);
    const row = await storedRow(merchant.merchantId, key);
    expect(row).toMatchObject({ state: 'COMPLETED', response_status: 201 });
    // Sealed at rest (answers may carry a secret shown once), bound to its merchant and key.
    expect(row!.response_body).not.toContain(first.json().id);
    expect(store.open({ merchantId: merchant.merchantId, key }, row!.response_body!)).toBe(first.body);
    expect(() => store.open({ merchantId: other.merchantId, key }, row!.response_body!)).toThrow();
  });

  it('the answer is stored before it is sent, so an immediate retry replays', async () => {
    // A slow database write: if the answer were sent before the write finished, the retry
    // would find the key still IN_PROGRESS.
    store.repo.complete = async (...args) => {
      await sleep(150);
      return originalComplete(...args);
    };
    const key = randomUUID();
    const first = await post('/probe/things', { amount: '10.50' }, key);
    const retry = await post('/probe/things', { amount: '10.50' }, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
  });

  it('keys belong to the merchant, not to the credential', async () => {
    const key = randomUUID();
    const first = await post('/probe/things', { amount: '11.00' }, key);
    const bearer = await ctx.bearerFor(merchant);
    const viaToken = await app.inject({
      method: 'POST',
      url: '/probe/things',
      headers: { ...bearer, 'idempotency-key': key },
      payload: { amount: '11.00' },
    });
    expect(viaToken.headers['idempotent-replayed']).toBe('true');
    expect(viaToken.body).toBe(first.body);
  });

  it('the order of keys in the body does not matter', async () => {
    const key = randomUUID();
    const before = calls.things;
    const first = await post('/probe/things', { amount: '12.00', meta: { a: 1, b: { c: 2, d: [3, { e: 4, f: 5 }] } } }, key);
    const reordered = await post('/probe/things', { meta: { b: { d: [3, { f: 5, e: 4 }], c: 2 }, a: 1 }, amount: '12.00' }, key);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(reordered.body).toBe(first.body);
    expect(calls.things).toBe(before + 1);
    // ...but array order does.
    const arrayOrder = await post('/probe/things', { amount: '12.00', meta: { a: 1, b: { c: 2, d: [{ e: 4, f: 5 }, 3] } } }, key);
    expectErrorBody(arrayOrder, 409, 'IDEMPOTENCY_CONFLICT');
  });

  it('canonical JSON sorts keys at every depth and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: null }], c: 'x' }, u: undefined })).toBe('{"a":{"c":"x","d":[2,{"y":null,"z":1}]},"b":1}');
  });

  it('the same key with another body is 409 IDEMPOTENCY_CONFLICT, and the first answer stays', async () => {
    const key = randomUUID();
    const first = await post('/probe/things', { amount: '13.00' }, key);
    const before = calls.things;
    const conflict = await post('/probe/things', { amount: '13.01' }, key);
    const body = expectErrorBody(conflict, 409, 'IDEMPOTENCY_CONFLICT');
    expect(body.message).toMatch(/different request/);
    expect(calls.things).toBe(before);
    const again = await post('/probe/things', { amount: '13.00' }, key);
    expect(again.body).toBe(first.body);
  });

  it('the same key on another route, or with other path parameters, is 409 IDEMPOTENCY_CONFLICT', async () => {
    const key = randomUUID();
    expect((await post('/probe/things', { amount: '14.00' }, key)).statusCode).toBe(201);
    expectErrorBody(await post('/probe/things/abc/confirm', { amount: '14.00' }, key), 409, 'IDEMPOTENCY_CONFLICT');
    expect(calls.confirm).toBe(0);

    const key2 = randomUUID();
    expect((await post('/probe/things/abc/confirm', { amount: '14.00' }, key2)).statusCode).toBe(201);
    expectErrorBody(await post('/probe/things/xyz/confirm', { amount: '14.00' }, key2), 409, 'IDEMPOTENCY_CONFLICT');
    expect((await post('/probe/things/abc/confirm', { amount: '14.00' }, key2)).headers['idempotent-replayed']).toBe('true');
    expect(calls.confirm).toBe(1);

    // Same body, no path parameters on either: only the route template differs.
    const key3 = randomUUID();
    const refusesBefore = calls.refuse;
    expect((await post('/probe/things', { amount: '14.00' }, key3)).statusCode).toBe(201);
    expectErrorBody(await post('/probe/refuse', { amount: '14.00' }, key3), 409, 'IDEMPOTENCY_CONFLICT');
    expect(calls.refuse).toBe(refusesBefore);
  });

  it("another merchant's identical key is an independent key", async () => {
    const key = randomUUID();
    const before = calls.things;
    const mine = await post('/probe/things', { amount: '15.00' }, key, merchant);
    const theirs = await post('/probe/things', { amount: '15.00' }, key, other);
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(calls.things).toBe(before + 2);
    expect((await post('/probe/things', { amount: '15.00' }, key, other)).body).toBe(theirs.body);
  });

  it('a 4xx answer is final and replayed, with the requestId of the replaying request', async () => {
    const key = randomUUID();
    const first = await post('/probe/refuse', { amount: '500.00' }, key);
    const firstBody = expectErrorBody(first, 422, 'LIMIT_EXCEEDED');
    expect(calls.refuse).toBe(1);

    const replay = await post('/probe/refuse', { amount: '500.00' }, key);
    const replayBody = expectErrorBody(replay, 422, 'LIMIT_EXCEEDED');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replayBody.requestId).not.toBe(firstBody.requestId);
    expect({ ...replayBody, requestId: 'x' }).toEqual({ ...firstBody, requestId: 'x' });
    expect(replayBody.message).toBe('over the daily limit (call 1)');
    expect(calls.refuse).toBe(1);
  });

  it('an answer that cannot be stored (the pool timed out) frees the key: the retry runs anew, no 409', async () => {
    store.repo.complete = async () => {
      store.repo.complete = originalComplete;
      throw new Error('timeout exceeded when trying to connect');
    };
    const key = randomUUID();
    const first = await post('/probe/things', { amount: '16.50' }, key);
    expect(first.statusCode).toBe(201);
    expect(await storedRow(merchant.merchantId, key)).toBeUndefined();
    const before = calls.things;
    const retry = await post('/probe/things', { amount: '16.50' }, key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(calls.things).toBe(before + 1);
  });

  it('a 5xx answer is not stored: the retry runs the handler', async () => {
    const key = randomUUID();
    expectErrorBody(await post('/probe/flaky', { amount: '16.00' }, key), 500, 'INTERNAL_ERROR');
    expect(calls.flaky).toBe(1);
    expect(await storedRow(merchant.merchantId, key)).toBeUndefined();

    const retry = await post('/probe/flaky', { amount: '16.00' }, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(calls.flaky).toBe(2);
    const replay = await post('/probe/flaky', { amount: '16.00' }, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(retry.body);
    expect(calls.flaky).toBe(2);
  });

  it('a body that fails validation is a plain 400 and stores nothing', async () => {
    const key = randomUUID();
    const before = calls.things;
    expectErrorBody(await post('/probe/things', { amount: 17 }, key), 400, 'VALIDATION_ERROR');
    expect(await storedRow(merchant.merchantId, key)).toBeUndefined();
    const valid = await post('/probe/things', { amount: '17.00' }, key);
    expect(valid.statusCode).toBe(201);
    expect(valid.headers['idempotent-replayed']).toBeUndefined();
    expect(calls.things).toBe(before + 1);
  });

  it('a malformed key is 400 VALIDATION_ERROR naming the header, and the handler does not run', async () => {
    const before = calls.things;
    for (const bad of ['', 'k'.repeat(256), 'clé', 'tab\there', 'nul\u0000']) {
      const response = await post('/probe/things', { amount: '18.00' }, bad);
      const body = expectErrorBody(response, 400, 'VALIDATION_ERROR');
      expect(Object.keys(body.details ?? {}), JSON.stringify(bad)).toEqual(['headers.idempotency-key']);
    }
    expect(calls.things).toBe(before);
    for (const good of ['k'.repeat(255), 'a', ' ~!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~ ']) {
      expect((await post('/probe/things', { amount: '18.00' }, good)).statusCode, good).toBe(201);
    }
    expect(calls.things).toBe(before + 3);
  });

  it('without a key the handler runs every time', async () => {
    const before = calls.things;
    const a = await post('/probe/things', { amount: '19.00' });
    const b = await post('/probe/things', { amount: '19.00' });
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().id).not.toBe(a.json().id);
    expect(calls.things).toBe(before + 2);
  });

  it('routes that did not opt in ignore the header', async () => {
    const key = randomUUID();
    const before = calls.plain;
    const a = await post('/probe/plain', { amount: '20.00' }, key);
    const b = await post('/probe/plain', { amount: '20.00' }, key);
    const c = await post('/probe/plain', { amount: '20.00' }, 'k'.repeat(300));
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([201, 201, 201]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(calls.plain).toBe(before + 3);
  });

  it('while the first request runs, a retry is 409 CONFLICT with retry-after; afterwards it replays', async () => {
    const key = randomUUID();
    const gate = deferred();
    holds = [gate.promise];
    const before = calls.gated;
    const first = post('/probe/gated', { amount: '21.00' }, key);
    await waitFor(() => calls.gated === before + 1, 'the first handler');

    const retry = await post('/probe/gated', { amount: '21.00' }, key);
    const body = expectErrorBody(retry, 409, 'CONFLICT');
    expect(body.message).toBe('a request with this Idempotency-Key is in progress; retry later');
    expect(retry.headers['retry-after']).toBe('1');
    // A different request with the key is still a conflict of requests, not "in progress".
    expectErrorBody(await post('/probe/gated', { amount: '21.01' }, key), 409, 'IDEMPOTENCY_CONFLICT');
    expect(calls.gated).toBe(before + 1);

    gate.resolve();
    const firstResponse = await first;
    expect(firstResponse.statusCode).toBe(201);
    const replay = await post('/probe/gated', { amount: '21.00' }, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(firstResponse.body);
    expect(calls.gated).toBe(before + 1);
  });

  /** Makes the holder of `key` look like a process that beat once and died. */
  const killOwnerOf = async (key: string) => {
    const deadOwner = randomUUID();
    await ctx.database.db.insertInto('idempotency_owners').values({ id: deadOwner, heartbeat_at: new Date() }).execute();
    await ctx.database.db.updateTable('idempotency_keys').set({ owner_id: deadOwner }).where('merchant_id', '=', merchant.merchantId).where('key', '=', key).execute();
  };

  it('a live owner keeps its key past the owner lease: its heartbeat says it is still running', async () => {
    const key = randomUUID();
    const gate = deferred();
    holds = [gate.promise];
    const before = calls.gated;
    const running = post('/probe/gated', { amount: '21.50' }, key);
    await waitFor(() => calls.gated === before + 1, 'the first handler');
    await sleep(OWNER_LEASE_MS * 1.5);
    expectErrorBody(await post('/probe/gated', { amount: '21.50' }, key), 409, 'CONFLICT');
    gate.resolve();
    expect((await running).statusCode).toBe(201);
    expect(calls.gated).toBe(before + 1);
  });

  it('a key whose owner died is taken over by a retry within the owner lease', async () => {
    const key = randomUUID();
    const gate = deferred();
    holds = [gate.promise];
    const before = calls.gated;
    const stuck = post('/probe/gated', { amount: '22.00' }, key);
    await waitFor(() => calls.gated === before + 1, 'the first handler');
    await killOwnerOf(key);
    const diedAt = Date.now();

    let takeover = await post('/probe/gated', { amount: '22.00' }, key);
    expectErrorBody(takeover, 409, 'CONFLICT');
    while (takeover.statusCode === 409 && Date.now() - diedAt < OWNER_LEASE_MS * 3) {
      await sleep(100);
      takeover = await post('/probe/gated', { amount: '22.00' }, key);
    }
    const waited = Date.now() - diedAt;
    expect(takeover.statusCode).toBe(201);
    expect(takeover.headers['idempotent-replayed']).toBeUndefined();
    expect(waited).toBeGreaterThanOrEqual(OWNER_LEASE_MS - 50);
    expect(waited).toBeLessThan(OWNER_LEASE_MS + 1_000);
    expect(calls.gated).toBe(before + 2);

    // The presumed-dead request finally answers its own client, but the key keeps the taker's answer.
    gate.resolve();
    expect((await stuck).statusCode).toBe(201);
    const replay = await post('/probe/gated', { amount: '22.00' }, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(takeover.body);
  });

  it('a live request held past the maximum hold is taken over (it is stuck)', async () => {
    const key = randomUUID();
    const gate = deferred();
    holds = [gate.promise];
    const before = calls.gated;
    const stuck = post('/probe/gated', { amount: '22.25' }, key);
    await waitFor(() => calls.gated === before + 1, 'the first handler');
    await ctx.database.db
      .updateTable('idempotency_keys')
      .set({ locked_at: new Date(Date.now() - store.maxHoldMs - 5_000) })
      .where('merchant_id', '=', merchant.merchantId)
      .where('key', '=', key)
      .execute();
    const takeover = post('/probe/gated', { amount: '22.25' }, key);
    await waitFor(() => calls.gated === before + 2, 'the taker');
    gate.resolve();
    expect((await takeover).statusCode).toBe(201);
    expect((await stuck).statusCode).toBe(201);
  });

  it('a taken-over request that finishes first does not store its answer over the taker', async () => {
    const key = randomUUID();
    const stuckGate = deferred();
    const takerGate = deferred();
    holds = [stuckGate.promise, takerGate.promise];
    const before = calls.gated;
    const stuck = post('/probe/gated', { amount: '22.50' }, key);
    await waitFor(() => calls.gated === before + 1, 'the first handler');
    await killOwnerOf(key);
    await sleep(OWNER_LEASE_MS + 100);
    const taker = post('/probe/gated', { amount: '22.50' }, key);
    await waitFor(() => calls.gated === before + 2, 'the taker');

    stuckGate.resolve();
    expect((await stuck).statusCode).toBe(201);
    expect(await storedRow(merchant.merchantId, key)).toMatchObject({ state: 'IN_PROGRESS' });
    takerGate.resolve();
    const takerResponse = await taker;
    const replay = await post('/probe/gated', { amount: '22.50' }, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(takerResponse.body);
  });

  it('identical requests at the same instant run the handler once', async () => {
    const key = randomUUID();
    const before = calls.slow;
    const responses = await Promise.all(Array.from({ length: 5 }, () => post('/probe/slow', { amount: '23.00' }, key)));
    expect(calls.slow).toBe(before + 1);

    const original = responses.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(original).toHaveLength(1);
    for (const response of responses) {
      if (response === original[0]) continue;
      if (response.statusCode === 409) {
        expectErrorBody(response, 409, 'CONFLICT');
      } else {
        expect(response.headers['idempotent-replayed']).toBe('true');
        expect(response.body).toBe(original[0]!.body);
      }
    }
    expect((await post('/probe/slow', { amount: '23.00' }, key)).body).toBe(original[0]!.body);
    expect(calls.slow).toBe(before + 1);
  });

  it('documents the optional header and the 409 on opted-in routes only', () => {
    const doc = app.swagger() as unknown as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; required?: boolean }>; responses: Record<string, unknown> }>>;
    };
    const things = doc.paths['/probe/things']!.post!;
    const header = things.parameters?.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    expect(header).toMatchObject({ name: 'idempotency-key', required: false });
    expect(things.responses).toHaveProperty('409');
    const plain = doc.paths['/probe/plain']!.post!;
    expect(plain.parameters?.some((p) => p.name.toLowerCase() === 'idempotency-key') ?? false).toBe(false);
    expect(plain.responses).not.toHaveProperty('409');
  });

  describe('cleanup', () => {
    it('the worker job deletes keys older than the TTL, in batches, and only those', async () => {
      const owner = await ctx.createMerchant('Cleanup Merchant');
      now = new Date(T0.getTime() - 10 * 3_600_000);
      for (const key of ['old-1', 'old-2', 'old-3']) expect((await post('/probe/things', { amount: '24.00' }, key, owner)).statusCode).toBe(201);
      now = new Date(T0.getTime() - 2 * 3_600_000);
      expect((await post('/probe/things', { amount: '24.00' }, 'recent', owner)).statusCode).toBe(201);

      // 24 h after the old keys plus a minute; the recent one is 22 h old.
      now = new Date(T0.getTime() + 14 * 3_600_000 + 60_000);
      const keys = async () =>
        (await ctx.database.db.selectFrom('idempotency_keys').select('key').where('merchant_id', '=', owner.merchantId).orderBy('key').execute()).map(
          (row) => row.key,
        );
      expect(await keys()).toEqual(['old-1', 'old-2', 'old-3', 'recent']);

      const job = idempotencyCleanupJob(store, { ttlHours: 24, batchSize: 2 });
      expect(job.name).toBe('idempotency-keys-cleanup');
      await job.run(new AbortController().signal);
      expect(await keys()).toEqual(['recent']);

      // A forgotten key is a new key; the kept one still replays.
      const before = calls.things;
      expect((await post('/probe/things', { amount: '24.00' }, 'old-1', owner)).headers['idempotent-replayed']).toBeUndefined();
      expect((await post('/probe/things', { amount: '24.00' }, 'recent', owner)).headers['idempotent-replayed']).toBe('true');
      expect(calls.things).toBe(before + 1);
    });

    it('purges in batches until nothing old is left', async () => {
      const owner = await ctx.createMerchant('Batch Merchant');
      now = new Date(T0.getTime() - 48 * 3_600_000);
      for (let i = 0; i < 5; i++) await post('/probe/things', { amount: '25.00' }, `batch-${i}`, owner);
      now = T0;
      expect(await store.purgeExpired(24, { batchSize: 2 })).toBeGreaterThanOrEqual(5);
      const left = await ctx.database.db.selectFrom('idempotency_keys').select('key').where('merchant_id', '=', owner.merchantId).execute();
      expect(left).toEqual([]);
    });

    it('IDEMPOTENCY_KEY_TTL_HOURS defaults to 24 and cannot be shorter', () => {
      expect(loadConfig({}).idempotencyKeyTtlHours).toBe(24);
      expect(loadConfig({ IDEMPOTENCY_KEY_TTL_HOURS: '72' }).idempotencyKeyTtlHours).toBe(72);
      expect(() => loadConfig({ IDEMPOTENCY_KEY_TTL_HOURS: '12' })).toThrow(/IDEMPOTENCY_KEY_TTL_HOURS/);
    });
  });
});
