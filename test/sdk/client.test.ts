/**
 * The SDK's hand-written layer against the started service: token exchange and refresh,
 * idempotency keys on writes and their replay, retries that keep the key, typed errors (a timeout too), and
 * iteration across pages.
 */
import { createPrivateKey, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExchangeClient,
  type ClientOptions,
  ExchangeApiError,
  ExchangeNetworkError,
  ExchangeTimeoutError,
  PAGE_SIZE_PARAM,
  type Receiver,
} from '../../sdk/src/index.ts';
import { randomCpf } from '../helpers/documents.ts';
import { START_WAIT_MS, freePort } from '../helpers/processes.ts';
import { type SdkService, startSdkService } from './service.ts';

interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  status?: number;
  replayed?: string | null;
}

/** A fetch that records every request (and its answer's status) before passing it on. */
function recordingFetch(sent: Sent[], intercept?: (request: Request, entry: Sent) => Promise<Response | undefined>): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const entry: Sent = { method: request.method, url: new URL(request.url), headers: new Headers(request.headers) };
    sent.push(entry);
    const response = (await intercept?.(request.clone(), entry)) ?? (await fetch(request));
    entry.status = response.status;
    entry.replayed = response.headers.get('idempotent-replayed');
    return response;
  };
}

const receiverBody = (name = 'Ana Lima') => ({
  type: 'PF' as const,
  document: randomCpf(),
  name,
  email: 'ana@example.com',
  walletAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
  limits: { nightTransactionsEnabled: true },
});

describe('SDK client on a started service', () => {
  let svc: SdkService;
  let credentials: { apiKey: string; apiSecret: string };
  const client = (options: Partial<ClientOptions> = {}) => createExchangeClient({ baseUrl: svc.baseUrl, auth: credentials, retry: { baseDelayMs: 10 }, ...options });

  beforeAll(async () => {
    svc = await startSdkService();
    const { apiKey, apiSecret } = await svc.createMerchant('Client Merchant');
    credentials = { apiKey, apiSecret };
  }, START_WAIT_MS + 60_000);

  afterAll(() => svc?.stop());

  describe('authentication', () => {
    it('sends x-api-key and x-api-secret when given key and secret', async () => {
      const sent: Sent[] = [];
      const merchant = await client({ fetch: recordingFetch(sent) }).merchant.get();
      expect(merchant.name).toBe('Client Merchant');
      expect(sent[0]!.headers.get('x-api-key')).toBe(credentials.apiKey);
      expect(sent[0]!.headers.get('x-api-secret')).toBe(credentials.apiSecret);
      expect(sent[0]!.headers.has('authorization')).toBe(false);
    });

    it('exchanges key and secret for a bearer token, reuses it, and refreshes it shortly before it expires', async () => {
      const sent: Sent[] = [];
      let now = Date.now();
      const sdk = client({ auth: { ...credentials, useBearerToken: true }, fetch: recordingFetch(sent), now: () => now, refreshMarginSeconds: 60 });
      await sdk.merchant.get();
      await sdk.merchant.get();
      const calls = sent.filter((s) => s.url.pathname.endsWith('/merchant'));
      expect(sdk.tokens!.exchanges).toBe(1);
      expect(calls.map((c) => c.headers.get('authorization'))).toEqual([expect.stringMatching(/^Bearer /), calls[0]!.headers.get('authorization')]);
      expect(calls[0]!.headers.has('x-api-secret')).toBe(false);

      now += (900 - 60 - 1) * 1000; // one second before the refresh point: still the same token
      await sdk.merchant.get();
      expect(sdk.tokens!.exchanges).toBe(1);
      now += 2000; // past it: a new token before the request
      await sdk.merchant.get();
      expect(sdk.tokens!.exchanges).toBe(2);
      const last = sent.filter((s) => s.url.pathname.endsWith('/merchant')).at(-1)!;
      expect(last.headers.get('authorization')).not.toBe(calls[0]!.headers.get('authorization'));
      expect(last.status).toBe(200);
    });

    it("reads the merchant's policies with merchant.policies(), GET /merchant/policies", async () => {
      const sent: Sent[] = [];
      const sdk = client({ fetch: recordingFetch(sent) });
      const merchant = await sdk.merchant.get();
      const policies = await sdk.merchant.policies();
      expect(policies).toMatchObject({ merchantId: merchant.id, destinationPolicy: 'RECEIVER_ONLY', payerPolicy: 'ANY', walletOwnershipPolicy: 'ALLOW', unprovenWalletLimitBrl: null });
      expect(sent.at(-1)).toMatchObject({ method: 'GET', status: 200 });
      expect(sent.at(-1)!.url.pathname).toMatch(/\/merchant\/policies$/);
    });

    it('on a 401 answering an expired token, gets a new one once and repeats the write with the same key', async () => {
      // A token the service itself would have issued, signed with its key, but expired: what a
      // client whose clock runs behind holds while believing it fresh.
      const exchange = await fetch(`${svc.baseUrl}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
      const real = ((await exchange.json()) as { accessToken: string }).accessToken;
      const claims = decodeJwt(real);
      const nowSeconds = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({ ...claims, iat: nowSeconds - 1000, exp: nowSeconds - 100, jti: randomUUID() })
        .setProtectedHeader(decodeProtectedHeader(real) as { alg: string })
        .sign(createPrivateKey(await svc.jwtPrivateKeyPem()));

      const sent: Sent[] = [];
      let forged = false;
      const sdk = client({
        auth: { ...credentials, useBearerToken: true },
        fetch: recordingFetch(sent, async (request) => {
          if (!request.url.endsWith('/auth/token') || forged) return undefined;
          forged = true;
          return Response.json({ accessToken: expired, tokenType: 'Bearer', expiresIn: 900 });
        }),
      });
      const receiver = await sdk.receivers.create(receiverBody());
      expect(receiver.id).toBeTruthy();

      const writes = sent.filter((s) => s.method === 'POST' && s.url.pathname.endsWith('/receivers'));
      expect(writes.map((w) => w.status)).toEqual([401, 201]);
      expect(writes[0]!.headers.get('authorization')).toBe(`Bearer ${expired}`);
      expect(writes[1]!.headers.get('authorization')).not.toBe(`Bearer ${expired}`);
      expect(writes[1]!.headers.get('idempotency-key')).toBe(writes[0]!.headers.get('idempotency-key'));
      expect(sdk.tokens!.exchanges).toBe(2);
    });

    it('does not loop on a 401 that a new token does not cure: ExchangeApiError UNAUTHORIZED', async () => {
      const sdk = client({ auth: { apiKey: credentials.apiKey, apiSecret: 'sk_wrong', useBearerToken: true } });
      const error = await sdk.merchant.get().catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ExchangeApiError);
      expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    });

    it('uses a bearer token given as is', async () => {
      const exchange = await fetch(`${svc.baseUrl}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
      const { accessToken } = (await exchange.json()) as { accessToken: string };
      expect((await client({ auth: { token: accessToken } }).merchant.get()).name).toBe('Client Merchant');
      const refused = await client({ auth: { token: `${accessToken}x` } }).merchant.get().catch((err: unknown) => err);
      expect(refused).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    });
  });

  describe('idempotency', () => {
    it('puts a fresh Idempotency-Key on every write by default, none on reads', async () => {
      const sent: Sent[] = [];
      const sdk = client({ fetch: recordingFetch(sent) });
      const first = await sdk.receivers.create(receiverBody());
      await sdk.receivers.update(first.id, { name: 'Ana Lima Souza' });
      await sdk.receivers.get(first.id);
      const keys = sent.map((s) => s.headers.get('idempotency-key'));
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).not.toBe(keys[0]);
      expect(keys[2]).toBeNull();
    });

    it('replays the first answer to a write sent again with the same key; another body with it is 409', async () => {
      const key = `sdk-test-${randomUUID()}`;
      const body = receiverBody('Replay Person');
      const sent: Sent[] = [];
      const sdk = client({ fetch: recordingFetch(sent) });
      const first = await sdk.receivers.create(body, { idempotencyKey: key });
      const again = await sdk.receivers.create(body, { idempotencyKey: key });
      expect(again).toEqual(first);
      expect(sent.map((s) => [s.headers.get('idempotency-key'), s.replayed])).toEqual([
        [key, null],
        [key, 'true'],
      ]);
      const conflict = await sdk.receivers.create({ ...body, name: 'Someone Else' }, { idempotencyKey: key }).catch((err: unknown) => err);
      expect(conflict).toBeInstanceOf(ExchangeApiError);
      expect(conflict).toMatchObject({ status: 409, code: 'IDEMPOTENCY_CONFLICT' });
    });

    it('retries a write whose answer was lost with the same key: the service ran it once', async () => {
      const receiver = await client().receivers.create(receiverBody('Lost Answer'));
      await client().sandbox.decideKyc(receiver.id, { decision: 'APPROVE' });
      const sent: Sent[] = [];
      let lost = false;
      const sdk = client({
        fetch: recordingFetch(sent, async (request) => {
          if (lost || !request.url.endsWith('/payin')) return undefined;
          lost = true;
          await fetch(request); // the service runs it...
          throw new TypeError('fetch failed: socket hang up'); // ...and the answer never arrives
        }),
      });
      const payin = await sdk.payins.create({ receiverId: receiver.id, amountBrl: 50 });
      const writes = sent.filter((s) => s.url.pathname.endsWith('/payin'));
      expect(writes).toHaveLength(2);
      expect(writes[1]!.headers.get('idempotency-key')).toBe(writes[0]!.headers.get('idempotency-key'));
      expect(writes[1]!.replayed).toBe('true');
      const orders = await client().orders.listPage({ receiverId: receiver.id });
      expect(orders.data.map((o) => o.id)).toEqual([payin.id]);
    });
  });

  describe('errors', () => {
    it('throws ExchangeApiError with the Error object on invalid input', async () => {
      const sent: Sent[] = [];
      const error = await client({ fetch: recordingFetch(sent) })
        .receivers.create({ type: 'PF', document: '123', name: 'A', email: 'not-an-email' })
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ExchangeApiError);
      const apiError = error as ExchangeApiError;
      expect(apiError.status).toBe(400);
      expect(apiError.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(apiError.details).some((field) => field.startsWith('body.'))).toBe(true);
      expect(apiError.requestId).toMatch(/.+/);
      expect(apiError.message).toContain('VALIDATION_ERROR');
      expect(sent).toHaveLength(1); // a 400 is final: not retried
    });

    it('throws ExchangeApiError NOT_FOUND for an unknown order', async () => {
      const error = await client().orders.get(randomUUID()).catch((err: unknown) => err);
      expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    });

    it('throws ExchangeNetworkError, not ExchangeApiError, when nothing answers', async () => {
      const closed = `http://127.0.0.1:${await freePort()}/api/v1`;
      const error = await createExchangeClient({ baseUrl: closed, auth: credentials, retry: { maxRetries: 1, baseDelayMs: 1 } })
        .merchant.get()
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ExchangeNetworkError);
      expect(error).not.toBeInstanceOf(ExchangeApiError);
      expect((error as ExchangeNetworkError).url).toBe(`${closed}/merchant`);
    });

    it('gives up on an attempt unanswered within retry.timeoutMs, retries a write with the same key, then throws ExchangeTimeoutError', async () => {
      // A server that takes the request and never answers.
      const keys: Array<string | undefined> = [];
      const silent = createServer((request) => void keys.push(request.headers['idempotency-key'] as string | undefined));
      silent.listen(0, '127.0.0.1');
      await once(silent, 'listening');
      try {
        const baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/v1`;
        const sdk = createExchangeClient({ baseUrl, auth: credentials, retry: { maxRetries: 1, baseDelayMs: 1, timeoutMs: 200 } });
        const error = await sdk.receivers.create(receiverBody()).catch((err: unknown) => err);
        expect(error).toBeInstanceOf(ExchangeTimeoutError);
        expect(error).toBeInstanceOf(ExchangeNetworkError);
        expect(error).toMatchObject({ timeoutMs: 200, message: `POST ${baseUrl}/receivers: no answer within 200 ms` });
        expect(keys).toHaveLength(2);
        expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
        expect(keys[1]).toBe(keys[0]);
      } finally {
        silent.closeAllConnections();
        silent.close();
      }
    });
  });

  describe('iteration', () => {
    it('walks the orders across several keyset pages, newest first, each once', async () => {
      const sdk = client();
      const receiver = await sdk.receivers.create(receiverBody('Many Orders'));
      await sdk.sandbox.decideKyc(receiver.id, { decision: 'APPROVE' });
      const created: string[] = [];
      for (let i = 0; i < 7; i += 1) created.push((await sdk.payins.create({ receiverId: receiver.id, amountBrl: 10 + i })).id);

      const sent: Sent[] = [];
      const listing = client({ fetch: recordingFetch(sent) }).orders.list({ receiverId: receiver.id }, 3);
      const seen: string[] = [];
      for await (const order of listing) seen.push(order.id);
      expect(seen).toEqual([...created].reverse());
      const pages = sent.map((s) => s.url.searchParams);
      expect(pages).toHaveLength(3);
      expect(pages.map((p) => p.get('startingAfter'))).toEqual([null, seen[2], seen[5]]);
      expect(pages.every((p) => p.get('limit') === '3' && p.get('receiverId') === receiver.id)).toBe(true);
    }, 60_000);

    it('walks the receivers across numbered pages, and the ledger lists with the shared page-size parameter', async () => {
      const { apiKey, apiSecret } = await svc.createMerchant('Pages Merchant');
      const sent: Sent[] = [];
      const sdk = client({ auth: { apiKey, apiSecret }, fetch: recordingFetch(sent) });
      const made: Receiver[] = [];
      for (let i = 0; i < 5; i += 1) made.push(await sdk.receivers.create(receiverBody(`Receiver ${i}`)));
      sent.length = 0;

      const all = await sdk.receivers.list({}, 2).toArray();
      expect(all.map((r) => r.id).sort()).toEqual(made.map((r) => r.id).sort());
      expect(sent.map((s) => s.url.searchParams.get('page'))).toEqual(['1', '2', '3']);
      expect(sent.every((s) => s.url.searchParams.get(PAGE_SIZE_PARAM) === '2')).toBe(true);

      const pages: number[] = [];
      for await (const page of sdk.receivers.list({ type: 'PF' }, 4).pages()) pages.push(page.length);
      expect(pages).toEqual([4, 1]);

      sent.length = 0;
      expect(await sdk.ledger.entries().toArray()).toEqual([]);
      expect(await sdk.ledger.settlements().toArray()).toEqual([]);
      const balances = await sdk.ledger.balances();
      expect(balances).toMatchObject({ unsettledFeesBrl: '0.00', chargebacksOwedBrl: '0.00', settlements: { count: 0, totalBrl: '0.00', lastAt: null }, excessDepositsHeld: [] });
      expect(balances.inFlight.map((stage) => stage.count)).toEqual([0, 0, 0, 0, 0]);
      expect(sent.map((s) => [s.url.pathname.replace(/.*\/api\/v1/, ''), s.status, s.url.searchParams.get(PAGE_SIZE_PARAM)])).toEqual([
        ['/ledger/entries', 200, '100'],
        ['/ledger/settlements', 200, '100'],
        ['/ledger/balances', 200, null],
      ]);
    }, 60_000);
  });
});
