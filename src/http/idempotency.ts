/**
 * The HTTP side of Idempotency-Keys (docs/architecture/idempotency.md); the mechanism is
 * src/platform/idempotency/. A route opts in with `config: { idempotent: ... }` (its mode,
 * claim.ts); on it the header is optional. The hook validates the key, fingerprints the request,
 * answers a key already used (replay, or 409 IDEMPOTENCY_CONFLICT for another request), and puts
 * the claim on `request.idempotency` for the route to pass to its service. In-transaction routes
 * write nothing before the handler: their service's transaction inserts the key with its answer,
 * and a concurrent duplicate that loses the key's unique constraint replays the winner. Held
 * routes insert the key IN_PROGRESS first (409 CONFLICT with retry-after while in flight; a dead
 * holder is taken over). 5xx answers are never stored.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../errors.ts';
import { IdempotentRequest, type IdempotentRouteOption, KeyAlreadyUsed, type KeyedRequest, modeOf, type RequestAnswer } from '../platform/idempotency/claim.ts';
import { requestFingerprint } from '../platform/idempotency/fingerprint.ts';
import type { IdempotencyStore } from '../platform/idempotency/store.ts';
import type { IdempotencyKeyRow } from '../platform/idempotency/tables.ts';
import { merchantIdOf } from './auth.ts';
import { errorResponses } from './schemas.ts';
import type { App } from './types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honour the Idempotency-Key header on this route, in the mode named (src/platform/idempotency/claim.ts). */
    idempotent?: IdempotentRouteOption;
    /**
     * `person`: a session's keys on this route belong to its user, not the merchant, so another
     * person of the merchant cannot replay this one's answer (a TOTP secret, a temporary password).
     */
    idempotencyKeySpace?: 'merchant' | 'person';
  }
  interface FastifyRequest {
    /** The request's claim on its Idempotency-Key: undefined without a key or on a route that did not opt in. */
    idempotency?: IdempotentRequest;
  }
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** 1 to 255 printable ASCII characters (space to tilde). */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

const KEY_RULES =
  'Optional. 1 to 255 printable ASCII characters, unique per merchant (a UUID is a good choice). A retry with the same key and the same request replays the first answer (2xx and 4xx; with header `idempotent-replayed: true`) without repeating the operation, also after a crash of the server; the same key with another request is 409 IDEMPOTENCY_CONFLICT; ';
const keySchema = (mode: 'in-transaction' | 'held') => ({
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x20-\\x7E]+$',
  description: `${KEY_RULES}${
    mode === 'held'
      ? 'while the first request is still running, 409 CONFLICT with `Retry-After`.'
      : 'a request sent while the first is still running waits for it and replays its answer.'
  } Keys are kept at least 24 hours.`,
});

type RouteSchema = NonNullable<RouteOptions['schema']>;

/** Documents the header (optional, never strict about other headers) and the 409 on the route. */
function withIdempotencyDocs(schema: RouteSchema | undefined, mode: 'in-transaction' | 'held'): RouteSchema {
  const headers = (schema?.headers ?? { type: 'object' }) as { properties?: Record<string, unknown> };
  const errors = errorResponses(400, 409);
  return {
    ...schema,
    // Lowercase: with our own validator compiler Fastify does not lowercase header schemas, and
    // request.headers names are lowercase; an 'Idempotency-Key' property would never be checked.
    headers: { ...headers, type: 'object', properties: { ...headers.properties, [IDEMPOTENCY_KEY_HEADER]: keySchema(mode) } },
    response: { 400: errors[400], 409: errors[409], ...(schema?.response as Record<string, unknown> | undefined) },
  };
}

/** Keys of admin requests (no merchant) live under the nil UUID. */
const ADMIN_KEY_SPACE = '00000000-0000-0000-0000-000000000000';

const toArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

const idempotencyConflict = () =>
  new AppError(
    'IDEMPOTENCY_CONFLICT',
    'This Idempotency-Key was already used with a different request (another body, route or parameters); use a new key for a new request',
  );

const keyOutlivedItsRecord = () =>
  new AppError(
    'IDEMPOTENCY_CONFLICT',
    'This Idempotency-Key was used by an earlier request whose record has expired, and what that request created (its PIX charge or deposit address) is named by the key; use a new Idempotency-Key for a new request',
  );

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';

/**
 * An error after which a request with the same key may have committed first: the service found
 * the key used, a unique violation (the key's, or an index the duplicates share: an order's
 * charge or deposit address), or a refusal (a duplicate can fill a limit or use a quote first).
 */
const mayHaveLostTheKey = (err: unknown) =>
  err instanceof KeyAlreadyUsed || isUniqueViolation(err) || (err instanceof AppError && err.statusCode < 500);

/**
 * Makes every route of `scope` (and its children) registered from now on with
 * `config: { idempotent }` honour Idempotency-Key. Call it inside an authenticated scope, before
 * the routes: keys belong to `request.merchantAuth.merchantId` (admin requests share one key
 * space of their own).
 */
export function registerIdempotency(scope: App, store: IdempotencyStore): void {
  const { repo, clock, owner, maxHoldMs } = store;
  const limits = { ownerLeaseMs: owner.leaseMs, maxHoldMs };

  const inProgress = (reply: FastifyReply) => {
    reply.header('retry-after', '1');
    return new AppError('CONFLICT', 'a request with this Idempotency-Key is in progress; retry later');
  };

  /** The route's own serializer: the stored text is the text the route sends. */
  const serializerOf = (reply: FastifyReply) => (answer: RequestAnswer) =>
    answer.body === undefined ? '' : String(reply.serializeInput(answer.body as Record<string, unknown>, String(answer.status)));

  function keyedRequest(request: FastifyRequest): KeyedRequest | undefined {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (key === undefined) return undefined;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      // The route's header schema says the same; this guards a route whose schema replaced it.
      throw new AppError('VALIDATION_ERROR', 'Request validation failed', {
        [`headers.${IDEMPOTENCY_KEY_HEADER}`]: 'must be 1 to 255 printable ASCII characters',
      });
    }
    const person = request.routeOptions.config.idempotencyKeySpace === 'person' ? request.merchantAuth?.user?.id : undefined;
    // An operator's or service account's keys are theirs alone (an answer may hold a service account's token); the admin token's share one space.
    const auth = request.operatorAuth;
    const operator = auth?.method === 'session' ? auth.operatorId : auth?.method === 'service-account' ? auth.serviceAccountId : undefined;
    const merchantId = person ?? (request.merchantAuth ? merchantIdOf(request) : (operator ?? ADMIN_KEY_SPACE));
    const route = request.routeOptions.url ?? request.url;
    const fingerprint = requestFingerprint({ method: request.method, route, params: request.params, query: request.query, body: request.body });
    return { merchantId, key, fingerprint, method: request.method, route, requestId: request.id };
  }

  /** A key already used: the same request replays its answer, another is 409. */
  function answerUsedKey(request: FastifyRequest, reply: FastifyReply, fingerprint: string, row: IdempotencyKeyRow) {
    if (row.fingerprint !== fingerprint) throw idempotencyConflict();
    if (row.state === 'COMPLETED') return replay(request, reply, row);
    throw inProgress(reply);
  }

  async function preHandler(request: FastifyRequest, reply: FastifyReply) {
    const keyed = keyedRequest(request);
    if (!keyed) return;
    const option = request.routeOptions.config.idempotent!;
    if (modeOf(option) === 'in-transaction') {
      const row = typeof option === 'object' && 'lookup' in option && option.lookup === 'service' ? undefined : await repo.find(keyed.merchantId, keyed.key);
      if (row) return answerUsedKey(request, reply, keyed.fingerprint, row);
      request.idempotency = new IdempotentRequest(keyed, store, serializerOf(reply));
      return;
    }

    // Held. A row can vanish between our insert and our read (its holder failed): then the next
    // insert wins or loses afresh.
    for (let attempt = 0; attempt < 3; attempt++) {
      const lockToken = randomUUID();
      if (await repo.insert({ ...keyed, lockToken, ownerId: owner.id, now: clock.now() })) {
        return hold(request, new IdempotentRequest(keyed, store, serializerOf(reply), lockToken));
      }
      const row = await repo.find(keyed.merchantId, keyed.key);
      if (!row) continue;
      if (row.fingerprint !== keyed.fingerprint || row.state === 'COMPLETED') return answerUsedKey(request, reply, keyed.fingerprint, row);
      const claim = new IdempotentRequest(keyed, store, serializerOf(reply), lockToken);
      const taken = await repo.takeOver(claim.holder, row.lock_token, limits, { ownerId: owner.id, requestId: request.id });
      if (!taken) throw inProgress(reply);
      request.log.warn({ previousRequestId: row.request_id }, 'took over an Idempotency-Key whose holder is gone');
      hold(request, claim);
      if (taken.effect !== null) return resume(request, reply, claim, taken.effect);
      return;
    }
    throw inProgress(reply);
  }

  function hold(request: FastifyRequest, claim: IdempotentRequest) {
    owner.hold();
    request.idempotency = claim;
  }

  /** The previous holder recorded an irreversible effect: finish it instead of running the handler. */
  async function resume(request: FastifyRequest, reply: FastifyReply, claim: IdempotentRequest, effect: string) {
    const option = request.routeOptions.config.idempotent;
    if (typeof option !== 'object' || option.mode !== 'held' || !option.resume) {
      throw new Error(`route ${request.routeOptions.url} recorded an effect but cannot resume it`);
    }
    claim.effectRecorded = true;
    const answer = await option.resume(effect);
    return reply.code(answer.status).send(answer.body);
  }

  function replay(request: FastifyRequest, reply: FastifyReply, row: IdempotencyKeyRow) {
    const status = row.response_status ?? 500;
    let body: string;
    try {
      body = store.open({ merchantId: row.merchant_id, key: row.key }, row.response_body ?? '');
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

  /**
   * In-transaction mode: the handler failed in a way a concurrent duplicate can cause (its
   * unique violation, or a refusal after the duplicate reserved or inserted first). If a request
   * with this key committed meanwhile, its answer is this one's too.
   */
  async function afterFailure(request: FastifyRequest, reply: FastifyReply, claim: IdempotentRequest, err: unknown) {
    if (claim.mode !== 'in-transaction' || claim.answered || !mayHaveLostTheKey(err)) throw err;
    const row = await repo.find(claim.merchantId, claim.key);
    // A unique violation with no key row: no duplicate committed, the key's own earlier request
    // did (its charge or deposit address, named by the key) and its record has since expired.
    if (!row) throw isUniqueViolation(err) ? keyOutlivedItsRecord() : err;
    claim.answered = true;
    return answerUsedKey(request, reply, claim.fingerprint, row);
  }

  async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const claim = request.idempotency;
    if (!claim || settled.has(claim)) return payload;
    settle(claim);
    if (claim.answered) return payload;
    const status = reply.statusCode;
    // A 5xx (or a 429 from inside the handler) is not an answer to keep: a held key is freed so
    // the client can retry (a row the effect's transaction completed is not freed: the release is
    // conditioned on IN_PROGRESS). So is an answer we cannot store as text (a stream).
    const storable = typeof payload === 'string' || payload === undefined || payload === null;
    if (status >= 500 || status === 429 || !storable) {
      if (claim.mode === 'held') await releaseQuietly(request, claim);
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    const response = { ...claim.sealed((payload as string | null | undefined) ?? ''), status, contentType: typeof contentType === 'string' ? contentType : null };
    try {
      if (claim.mode === 'in-transaction') {
        // An answer no transaction stored (a refusal, or an effect-free answer): stored unless a
        // concurrent request with the key stored its own first (rare: that one's answer stays).
        if (!(await repo.insertCompletedUnlessTaken(claim.completedRowOf(response)))) request.log.warn('a concurrent request with this Idempotency-Key stored its answer first; this answer is not stored');
      } else if (!(await repo.complete(repo.db, claim.holder, response, clock.now()))) {
        request.log.warn('Idempotency-Key was taken over by a retry; this answer is not stored');
      }
    } catch (err) {
      // Only answers without an effect, or with a naturally idempotent one, are stored here
      // (docs/architecture/idempotency.md), so running them again is harmless: a held key is
      // freed for the retry at once rather than left IN_PROGRESS under a live owner.
      request.log.error({ err }, 'could not store the answer of an idempotent request; the key is freed');
      if (claim.mode === 'held') await releaseQuietly(request, claim);
    }
    return payload;
  }

  /** onSend did not run (the connection closed first, or the reply was hijacked): free a held key. */
  async function onResponse(request: FastifyRequest) {
    const claim = request.idempotency;
    if (!claim || settled.has(claim)) return;
    settle(claim);
    if (claim.mode === 'held' && !claim.answered) await releaseQuietly(request, claim);
  }

  const settled = new WeakSet<IdempotentRequest>();
  function settle(claim: IdempotentRequest) {
    settled.add(claim);
    if (claim.mode === 'held') owner.letGo();
  }

  async function releaseQuietly(request: FastifyRequest, claim: IdempotentRequest) {
    try {
      // After an irreversible effect the key is given up, not freed: the retry finishes the effect.
      await (claim.effectRecorded ? repo.abandon(claim.holder) : repo.release(claim.holder));
    } catch (err) {
      request.log.error({ err }, 'could not release an Idempotency-Key; a retry takes it over once this process stops beating');
    }
  }

  scope.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.schema = withIdempotencyDocs(route.schema, modeOf(route.config.idempotent));
    // First among the route's own preHandlers (after the scope's: authentication, rate limit).
    route.preHandler = [preHandler, ...toArray(route.preHandler)] as RouteOptions['preHandler'];
    route.onSend = [...toArray(route.onSend), onSend] as RouteOptions['onSend'];
    route.onResponse = [...toArray(route.onResponse), onResponse] as RouteOptions['onResponse'];
    if (modeOf(route.config.idempotent) !== 'in-transaction') return;
    const handler = route.handler as (this: unknown, request: FastifyRequest, reply: FastifyReply) => unknown;
    route.handler = async function inTransactionHandler(this: unknown, request: FastifyRequest, reply: FastifyReply) {
      try {
        return await handler.call(this, request, reply);
      } catch (err) {
        if (!request.idempotency) throw err;
        return afterFailure(request, reply, request.idempotency, err);
      }
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
