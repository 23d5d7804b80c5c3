/**
 * The one Idempotency-Key mechanism of every creating POST (DESIGN.md §4). A route opts in with
 * `config: { idempotent: true }`; on it the header is optional. The first request with a key
 * inserts a row (the insert is the lock), runs the handler and stores the answer before it is
 * sent; a retry with the same key and the same request replays that answer without running the
 * handler; the same key with another request is 409 IDEMPOTENCY_CONFLICT; while the first is
 * still running, 409 CONFLICT with `retry-after: 1`. 5xx answers are not stored (the row is
 * deleted so the client may retry). See docs/ARCHITECTURE.md, "Idempotency".
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Db } from '../db/database.ts';
import type { IdempotencyKeyRow } from './idempotency-tables.ts';
import type { Clock } from '../lib/clock.ts';
import type { WorkerJob } from '../lib/worker-job.ts';
import { merchantIdOf } from './auth.ts';
import { AppError } from '../errors.ts';
import { createIdempotencyRepo, type IdempotencyRepo } from './idempotency-repo.ts';
import { errorResponses } from './schemas.ts';
import type { App } from './types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honour the Idempotency-Key header on this route (src/http/idempotency.ts). */
    idempotent?: boolean;
  }
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** 1 to 255 printable ASCII characters (space to tilde). */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
/** How long an IN_PROGRESS row protects a request that may still be running. */
export const DEFAULT_LEASE_MS = 60_000;

export interface IdempotencyStore {
  readonly repo: IdempotencyRepo;
  readonly clock: Clock;
  readonly leaseMs: number;
  /** Deletes the keys created more than `ttlHours` ago, in batches; returns how many. */
  purgeExpired(ttlHours: number, options?: { batchSize?: number; signal?: AbortSignal }): Promise<number>;
}

export function createIdempotencyStore(deps: { db: Db; clock: Clock; leaseMs?: number }): IdempotencyStore {
  const repo = createIdempotencyRepo(deps.db);
  return {
    repo,
    clock: deps.clock,
    leaseMs: deps.leaseMs ?? DEFAULT_LEASE_MS,
    async purgeExpired(ttlHours, { batchSize = 1000, signal } = {}) {
      const cutoff = new Date(deps.clock.now().getTime() - ttlHours * 3_600_000);
      let total = 0;
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
    'Optional. 1 to 255 printable ASCII characters, unique per merchant (a UUID is a good choice). A retry with the same key and the same request replays the first answer (2xx and 4xx; with header `idempotent-replayed: true`) without repeating the operation; the same key with another request is 409 IDEMPOTENCY_CONFLICT; while the first request is still running, 409 CONFLICT with `Retry-After`. Keys are kept at least 24 hours.',
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

interface Hold {
  merchantId: string;
  key: string;
  lockToken: string;
  settled: boolean;
}

const toArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * Makes every route of `scope` (and its children) registered from now on with
 * `config: { idempotent: true }` honour Idempotency-Key. Call it inside an authenticated scope,
 * before the routes: keys belong to `request.merchantAuth.merchantId`.
 */
export function registerIdempotency(scope: App, store: IdempotencyStore): void {
  const { repo, clock, leaseMs } = store;
  const holds = new WeakMap<FastifyRequest, Hold>();

  const inProgress = (reply: FastifyReply) => {
    reply.header('retry-after', '1');
    return new AppError('CONFLICT', 'a request with this Idempotency-Key is in progress; retry later');
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
    const merchantId = merchantIdOf(request);
    const route = request.routeOptions.url ?? request.url;
    const fingerprint = requestFingerprint({ method: request.method, route, params: request.params, query: request.query, body: request.body });

    // A row can vanish between our insert and our read (its holder failed, or it expired):
    // then the next insert wins or loses afresh.
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = clock.now();
      const lockToken = randomUUID();
      if (await repo.insert({ merchantId, key, fingerprint, method: request.method, route, lockToken, requestId: request.id, now })) {
        holds.set(request, { merchantId, key, lockToken, settled: false });
        return;
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
      if (row.locked_at.getTime() > now.getTime() - leaseMs) throw inProgress(reply);
      // The holder has not finished within the lease: its process presumably died mid-request.
      const next = { lockToken, requestId: request.id, now };
      if (await repo.takeOver(merchantId, key, row.lock_token, new Date(now.getTime() - leaseMs), next)) {
        request.log.warn({ previousRequestId: row.request_id }, 'took over an Idempotency-Key whose request did not finish within the lease');
        holds.set(request, { merchantId, key, lockToken, settled: false });
        return;
      }
    }
    throw inProgress(reply);
  }

  function replay(request: FastifyRequest, reply: FastifyReply, row: IdempotencyKeyRow) {
    const status = row.response_status ?? 500;
    let body = row.response_body ?? '';
    // The Error object's requestId must equal this answer's x-request-id (DESIGN.md §4); the rest
    // of the stored body is replayed byte for byte.
    if (status >= 400 && row.response_content_type?.includes('json')) body = withRequestId(body, request.id);
    request.log.info({ originalRequestId: row.request_id, statusCode: status }, 'idempotent replay');
    reply.code(status).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    if (row.response_content_type) reply.header('content-type', row.response_content_type);
    return reply.send(body);
  }

  async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const hold = holds.get(request);
    if (!hold || hold.settled) return payload;
    hold.settled = true;
    const status = reply.statusCode;
    // A 5xx (or a 429 from inside the handler) is not an answer to keep: free the key so the
    // client can retry. So is an answer we cannot store as text (a stream).
    const storable = typeof payload === 'string' || payload === undefined || payload === null;
    if (status >= 500 || status === 429 || !storable) {
      await releaseQuietly(request, hold);
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    try {
      const stored = await repo.complete(
        hold.merchantId,
        hold.key,
        hold.lockToken,
        { status, contentType: typeof contentType === 'string' ? contentType : null, body: (payload as string | null | undefined) ?? '' },
        clock.now(),
      );
      if (!stored) request.log.warn('Idempotency-Key was taken over by a retry after the lease; this answer is not stored');
    } catch (err) {
      // The handler has run: answer it anyway. The row stays IN_PROGRESS, so retries get 409
      // until the lease ends and one of them takes the key over.
      request.log.error({ err }, 'could not store the answer of an idempotent request');
    }
    return payload;
  }

  /** onSend did not run (the connection closed first, or the reply was hijacked): free the key. */
  async function onResponse(request: FastifyRequest) {
    const hold = holds.get(request);
    if (!hold || hold.settled) return;
    hold.settled = true;
    await releaseQuietly(request, hold);
  }

  async function releaseQuietly(request: FastifyRequest, hold: Hold) {
    try {
      await repo.release(hold.merchantId, hold.key, hold.lockToken);
    } catch (err) {
      request.log.error({ err }, 'could not release an Idempotency-Key; it is freed when its lease ends');
    }
  }

  scope.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.schema = withIdempotencyDocs(route.schema);
    // First among the route's own preHandlers (after the scope's: authentication, rate limit).
    route.preHandler = [preHandler, ...toArray(route.preHandler)] as RouteOptions['preHandler'];
    route.onSend = [...toArray(route.onSend), onSend] as RouteOptions['onSend'];
    route.onResponse = [...toArray(route.onResponse), onResponse] as RouteOptions['onResponse'];
  });
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
