/**
 * The one Idempotency-Key mechanism of every state-changing request (DESIGN.md §4). A route opts
 * in with `config: { idempotent: true }`; on it the header is optional. The first request with a
 * key inserts a row (the insert is the lock) and runs the handler inside `runWithRequestAnswer`
 * (src/db/request-answer.ts), so the service's transaction that makes the effect stores the
 * answer before it commits; answers no transaction stored (refusals, effect-free routes) are
 * stored before they are sent. A retry with the same key and the same request replays that
 * answer without running the handler; the same key with another request is 409
 * IDEMPOTENCY_CONFLICT; while the first is still running, 409 CONFLICT with `retry-after: 1`; a
 * key whose owner process died is taken over within seconds (idempotency-owner.ts). 5xx answers
 * are not stored (the row is deleted so the client may retry). See docs/architecture/idempotency.md,
 * "Idempotency".
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Db } from '../db/database.ts';
import { type RequestAnswer, type RequestAnswerRecorder, runWithRequestAnswer } from '../db/request-answer.ts';
import type { IdempotencyKeyRow } from './idempotency-tables.ts';
import { type AeadBox, createAeadBox } from '../lib/aead.ts';
import type { Clock } from '../lib/clock.ts';
import type { WorkerJob } from '../platform/worker-job.ts';
import { merchantIdOf } from './auth.ts';
import { AppError } from '../errors.ts';
import { createIdempotencyOwner, type IdempotencyOwner } from './idempotency-owner.ts';
import { createIdempotencyRepo, type IdempotencyRepo, type KeyHolder } from './idempotency-repo.ts';
import { errorResponses } from './schemas.ts';
import type { App } from './types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Honour the Idempotency-Key header on this route (src/http/idempotency.ts). `resume`
     * finishes, for a retry, an irreversible effect whose holder died or failed after recording
     * it (`recordEffect`), and gives the answer.
     */
    idempotent?: boolean | { resume(effect: string): Promise<RequestAnswer> };
  }
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** 1 to 255 printable ASCII characters (space to tilde). */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
/** How long a live process may hold a key before a retry takes it over anyway (it is stuck). */
export const DEFAULT_MAX_HOLD_MS = 60_000;

export interface IdempotencyStore {
  readonly repo: IdempotencyRepo;
  readonly clock: Clock;
  /** This process as the owner of the keys it holds, with its heartbeat. */
  readonly owner: IdempotencyOwner;
  readonly maxHoldMs: number;
  /** Stored answers are sealed (AES-256-GCM, bound to merchant and key): some carry a secret shown once, most personal data. */
  readonly answers: AeadBox;
  /** Deletes the keys created more than `ttlHours` ago, in batches; returns how many. */
  purgeExpired(ttlHours: number, options?: { batchSize?: number; signal?: AbortSignal }): Promise<number>;
}

export function createIdempotencyStore(deps: {
  db: Db;
  clock: Clock;
  /** 32 bytes (lib/aead.ts deriveKey) sealing the stored answers. */
  answersKey: Uint8Array;
  maxHoldMs?: number;
  owner?: { leaseMs?: number; beatMs?: number };
}): IdempotencyStore {
  const repo = createIdempotencyRepo(deps.db);
  return {
    repo,
    clock: deps.clock,
    owner: createIdempotencyOwner(deps.db, deps.owner),
    maxHoldMs: deps.maxHoldMs ?? DEFAULT_MAX_HOLD_MS,
    answers: createAeadBox(deps.answersKey),
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

/** The worker job that forgets keys older than the TTL (IDEMPOTENCY_KEY_TTL_HOURS). */
export function idempotencyCleanupJob(
  store: IdempotencyStore,
  options: { ttlHours: number; batchSize?: number; intervalMs?: number },
): WorkerJob {
  return {
    name: 'idempotency-keys-cleanup',
    intervalMs: options.intervalMs ?? 10 * 60_000,
    async run(signal) {
      await store.purgeExpired(options.ttlHours, { signal, ...(options.batchSize ? { batchSize: options.batchSize } : {}) });
    },
  };
}

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

const KEY_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x20-\\x7E]+$',
  description:
    'Optional. 1 to 255 printable ASCII characters, unique per merchant (a UUID is a good choice). A retry with the same key and the same request replays the first answer (2xx and 4xx; with header `idempotent-replayed: true`) without repeating the operation, also after a crash of the server; the same key with another request is 409 IDEMPOTENCY_CONFLICT; while the first request is still running, 409 CONFLICT with `Retry-After`. Keys are kept at least 24 hours.',
};

type RouteSchema = NonNullable<RouteOptions['schema']>;

/** Documents the header (optional, never strict about other headers) and the 409 on the route. */
function withIdempotencyDocs(schema: RouteSchema | undefined): RouteSchema {
  const headers = (schema?.headers ?? { type: 'object' }) as { properties?: Record<string, unknown> };
  const errors = errorResponses(400, 409);
  return {
    ...schema,
    // Lowercase: with our own validator compiler Fastify does not lowercase header schemas, and
    // request.headers names are lowercase; an 'Idempotency-Key' property would never be checked.
    headers: { ...headers, type: 'object', properties: { ...headers.properties, [IDEMPOTENCY_KEY_HEADER]: KEY_SCHEMA } },
    response: { 400: errors[400], 409: errors[409], ...(schema?.response as Record<string, unknown> | undefined) },
  };
}

interface Hold extends KeyHolder {
  settled: boolean;
  /** The effect's transaction stored the answer (recordAnswer). */
  recorded: boolean;
  /** An irreversible effect was recorded (recordEffect): a failure gives the key up, never frees it. */
  effectRecorded: boolean;
}

/** Keys of admin requests (no merchant) live under the nil UUID. */
const ADMIN_KEY_SPACE = '00000000-0000-0000-0000-000000000000';

const toArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

const takenOver = () =>
  new AppError('CONFLICT', 'this request took too long and a retry with its Idempotency-Key took it over; retry to get its answer');

/**
 * Makes every route of `scope` (and its children) registered from now on with
 * `config: { idempotent: true }` honour Idempotency-Key. Call it inside an authenticated scope,
 * before the routes: keys belong to `request.merchantAuth.merchantId` (admin requests share one
 * key space of their own).
 */
export function registerIdempotency(scope: App, store: IdempotencyStore): void {
  const { repo, clock, owner, maxHoldMs, answers } = store;
  const boundTo = (holder: { merchantId: string; key: string }) => `${holder.merchantId}:${holder.key}`;
  const seal = (holder: KeyHolder, body: string) => answers.seal(Buffer.from(body), boundTo(holder));
  const holds = new WeakMap<FastifyRequest, Hold>();
  const limits = { ownerLeaseMs: owner.leaseMs, maxHoldMs };

  const inProgress = (reply: FastifyReply) => {
    reply.header('retry-after', '1');
    return new AppError('CONFLICT', 'a request with this Idempotency-Key is in progress; retry later');
  };

  const hold = (request: FastifyRequest, holder: KeyHolder) => {
    owner.hold();
    holds.set(request, { ...holder, settled: false, recorded: false, effectRecorded: false });
  };

  async function preHandler(request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (key === undefined) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      // The route's header schema says the same; this guards a route whose schema replaced it.
      throw new AppError('VALIDATION_ERROR', 'Request validation failed', {
        [`headers.${IDEMPOTENCY_KEY_HEADER}`]: 'must be 1 to 255 printable ASCII characters',
      });
    }
    const merchantId = request.merchantAuth ? merchantIdOf(request) : ADMIN_KEY_SPACE;
    const route = request.routeOptions.url ?? request.url;
    const fingerprint = requestFingerprint({ method: request.method, route, params: request.params, query: request.query, body: request.body });

    // A row can vanish between our insert and our read (its holder failed): then the next
    // insert wins or loses afresh.
    for (let attempt = 0; attempt < 3; attempt++) {
      const holder = { merchantId, key, lockToken: randomUUID() };
      if (await repo.insert({ ...holder, fingerprint, method: request.method, route, ownerId: owner.id, requestId: request.id, now: clock.now() })) {
        return hold(request, holder);
      }
      const row = await repo.find(merchantId, key);
      if (!row) continue;
      if (row.fingerprint !== fingerprint) {
        throw new AppError(
          'IDEMPOTENCY_CONFLICT',
          'This Idempotency-Key was already used with a different request (another body, route or parameters); use a new key for a new request',
        );
      }
      if (row.state === 'COMPLETED') return replay(request, reply, row);
      const taken = await repo.takeOver(holder, row.lock_token, limits, { ownerId: owner.id, requestId: request.id });
      if (!taken) throw inProgress(reply);
      request.log.warn({ previousRequestId: row.request_id }, 'took over an Idempotency-Key whose holder is gone');
      hold(request, holder);
      if (taken.effect !== null) return resume(request, reply, taken.effect);
      return;
    }
    throw inProgress(reply);
  }

  /** The previous holder recorded an irreversible effect: finish it instead of running the handler. */
  async function resume(request: FastifyRequest, reply: FastifyReply, effect: string) {
    const option = request.routeOptions.config.idempotent;
    if (typeof option !== 'object') throw new Error(`route ${request.routeOptions.url} recorded an effect but cannot resume it`);
    holds.get(request)!.effectRecorded = true;
    const answer = await option.resume(effect);
    return reply.code(answer.status).send(answer.body);
  }

  function replay(request: FastifyRequest, reply: FastifyReply, row: IdempotencyKeyRow) {
    const status = row.response_status ?? 500;
    let body: string;
    try {
      body = answers.open(row.response_body ?? '', boundTo({ merchantId: row.merchant_id, key: row.key })).toString();
    } catch (err) {
      request.log.error({ err }, 'the stored answer of an Idempotency-Key cannot be opened (its key changed?)');
      throw new AppError('CONFLICT', 'The stored answer of this Idempotency-Key cannot be read; use a new key');
    }
    // The Error object's requestId must equal this answer's x-request-id (DESIGN.md §4); the rest
    // of the stored body is replayed byte for byte.
    if (status >= 400 && row.response_content_type?.includes('json')) body = withRequestId(body, request.id);
    request.log.info({ originalRequestId: row.request_id, statusCode: status }, 'idempotent replay');
    reply.code(status).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    if (row.response_content_type) reply.header('content-type', row.response_content_type);
    return reply.send(body);
  }

  /** What the services' transactions call (src/db/request-answer.ts) for the request of `held`. */
  function recorderFor(held: Hold, reply: FastifyReply): RequestAnswerRecorder {
    return {
      async record(executor, answer) {
        // The route's own serializer: the stored text is the text the route sends.
        const body = answer.body === undefined ? '' : String(reply.serializeInput(answer.body as Record<string, unknown>, String(answer.status)));
        const stored = { status: answer.status, contentType: 'application/json; charset=utf-8', body: seal(held, body) };
        if (!(await repo.complete(executor, held, stored, clock.now()))) throw takenOver();
        held.recorded = true;
      },
      async recordEffect(executor, effect) {
        if (!(await repo.recordEffect(executor, held, effect))) throw takenOver();
        held.effectRecorded = true;
      },
    };
  }

  async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const held = holds.get(request);
    if (!held || held.settled) return payload;
    settle(held);
    const status = reply.statusCode;
    // A 5xx (or a 429 from inside the handler) is not an answer to keep: free the key so the
    // client can retry (a row the effect's transaction completed is not freed: the release is
    // conditioned on IN_PROGRESS). So is an answer we cannot store as text (a stream).
    const storable = typeof payload === 'string' || payload === undefined || payload === null;
    if (status >= 500 || status === 429 || !storable) {
      await releaseQuietly(request, held);
      return payload;
    }
    if (held.recorded) return payload;
    const contentType = reply.getHeader('content-type');
    try {
      const response = { status, contentType: typeof contentType === 'string' ? contentType : null, body: seal(held, (payload as string | null | undefined) ?? '') };
      if (!(await repo.complete(repo.db, held, response, clock.now()))) request.log.warn('Idempotency-Key was taken over by a retry; this answer is not stored');
    } catch (err) {
      // Only answers without an effect, or with a naturally idempotent one, are stored here
      // (docs/architecture/idempotency.md), so running them again is harmless: free the key for the
      // retry at once rather than leave it IN_PROGRESS under a live owner (409s until the hold ends).
      request.log.error({ err }, 'could not store the answer of an idempotent request; the key is freed');
      await releaseQuietly(request, held);
    }
    return payload;
  }

  /** onSend did not run (the connection closed first, or the reply was hijacked): free the key. */
  async function onResponse(request: FastifyRequest) {
    const held = holds.get(request);
    if (!held || held.settled) return;
    settle(held);
    await releaseQuietly(request, held);
  }

  function settle(held: Hold) {
    held.settled = true;
    owner.letGo();
  }

  async function releaseQuietly(request: FastifyRequest, held: Hold) {
    try {
      // After an irreversible effect the key is given up, not freed: the retry finishes the effect.
      await (held.effectRecorded ? repo.abandon(held) : repo.release(held));
    } catch (err) {
      request.log.error({ err }, 'could not release an Idempotency-Key; a retry takes it over once this process stops beating');
    }
  }

  scope.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.schema = withIdempotencyDocs(route.schema);
    // First among the route's own preHandlers (after the scope's: authentication, rate limit).
    route.preHandler = [preHandler, ...toArray(route.preHandler)] as RouteOptions['preHandler'];
    route.onSend = [...toArray(route.onSend), onSend] as RouteOptions['onSend'];
    route.onResponse = [...toArray(route.onResponse), onResponse] as RouteOptions['onResponse'];
    // The handler runs with its request's recorder, for the service's transaction to find.
    const handler = route.handler as (this: unknown, request: FastifyRequest, reply: FastifyReply) => unknown;
    route.handler = function idempotentHandler(this: unknown, request: FastifyRequest, reply: FastifyReply) {
      const held = holds.get(request);
      return held ? runWithRequestAnswer(recorderFor(held, reply), () => handler.call(this, request, reply)) : handler.call(this, request, reply);
    } as RouteOptions['handler'];
  });
  scope.addHook('onClose', async () => owner.stop());
}

function withRequestId(body: string, requestId: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && typeof (parsed as { requestId?: unknown }).requestId === 'string') {
      return JSON.stringify({ ...parsed, requestId });
    }
  } catch {
    // Not JSON after all: replay as stored.
  }
  return body;
}
