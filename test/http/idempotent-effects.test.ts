/**
 * Creations whose services store an Idempotency-Key's answer in their own transaction
 * (docs/architecture/idempotency.md): the answer lost after the commit (the service throws once the
 * row exists: the client gets a 500, as if the process had died) is replayed by the retry, and
 * the retry creates nothing. Order creation has its own test (test/modules/orders/idempotent-creation.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomCpf } from '../helpers/documents.ts';
import { ADMIN_TOKEN, type TestContext, type TestMerchant, createTestContext } from '../helpers/app.ts';

describe('an answer lost after the commit is replayed, nothing is created twice', () => {
  let ctx: TestContext;
  let merchant: TestMerchant;
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

  beforeAll(async () => {
    ctx = await createTestContext({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    merchant = await ctx.createMerchant('Lost Answers');
  });
  afterAll(() => ctx.close());

  /** The next call of `service[method]` commits, then fails before answering. */
  function crashAfterCommit(service: object, method: string) {
    const target = service as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const original = target[method]!;
    target[method] = async (...args: unknown[]) => {
      target[method] = original;
      await original(...args);
      throw new Error('the process died after the commit, before answering');
    };
  }

  const count = async (table: 'receivers' | 'webhook_endpoints' | 'api_credentials' | 'merchants' | 'quotes' | 'webhook_endpoint_secrets' | 'webhook_deliveries') =>
    Number((await ctx.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  const post = (url: string) => (key: string, body: Record<string, unknown>) =>
    ctx.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { ...merchant.headers, 'idempotency-key': key }, payload: body });
  /** An endpoint of the merchant (to an address nothing answers) and one FAILED delivery to it. */
  async function endpointWithFailedDelivery() {
    const endpoint = (await post('/webhook/endpoints')(`endpoint-${Math.random()}`, { url: 'http://127.0.0.1:9/hooks' })).json();
    const delivery = (await post(`/webhook/endpoints/${endpoint.id}/test`)(`ping-${Math.random()}`, {})).json();
    await ctx.database.db.updateTable('webhook_deliveries').set({ status: 'FAILED', next_attempt_at: null }).where('id', '=', delivery.id).execute();
    return { endpointId: endpoint.id as string, deliveryId: delivery.id as string };
  }
  let fixture: { endpointId: string; deliveryId: string };

  const cases: Array<{
    name: string;
    table: Parameters<typeof count>[0];
    status?: number;
    creates?: number;
    setUp?: () => Promise<void>;
    crash: () => void;
    send: (key: string, body: Record<string, unknown>) => Promise<{ statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown }>;
    body: () => Record<string, unknown>;
  }> = [
    {
      name: 'POST /quotes',
      table: 'quotes',
      crash: () => crashAfterCommit(ctx.app.services.quotes, 'quote'),
      send: post('/quotes'),
      body: () => ({ type: 'PAYIN', amountBrl: 150 }),
    },
    {
      name: 'POST /webhook/endpoints/{id}/rotate-secret',
      table: 'webhook_endpoint_secrets',
      status: 200,
      setUp: async () => void (fixture = await endpointWithFailedDelivery()),
      crash: () => crashAfterCommit(ctx.app.services.webhooks, 'rotateSecret'),
      send: (key, body) => post(`/webhook/endpoints/${fixture.endpointId}/rotate-secret`)(key, body),
      body: () => ({}),
    },
    {
      name: 'POST /webhook/endpoints/{id}/test',
      table: 'webhook_deliveries',
      status: 202,
      setUp: async () => void (fixture = await endpointWithFailedDelivery()),
      crash: () => crashAfterCommit(ctx.app.services.webhooks, 'sendTest'),
      send: (key, body) => post(`/webhook/endpoints/${fixture.endpointId}/test`)(key, body),
      body: () => ({}),
    },
    {
      name: 'POST /webhook/deliveries/{id}/redeliver',
      table: 'webhook_deliveries',
      status: 202,
      creates: 0,
      setUp: async () => void (fixture = await endpointWithFailedDelivery()),
      crash: () => crashAfterCommit(ctx.app.services.webhooks, 'redeliver'),
      send: (key, body) => post(`/webhook/deliveries/${fixture.deliveryId}/redeliver`)(key, body),
      body: () => ({}),
    },
    {
      name: 'POST /webhook/endpoints/{id}/recover',
      table: 'webhook_deliveries',
      status: 202,
      creates: 0,
      setUp: async () => void (fixture = await endpointWithFailedDelivery()),
      crash: () => crashAfterCommit(ctx.app.services.webhooks, 'recover'),
      send: (key, body) => post(`/webhook/endpoints/${fixture.endpointId}/recover`)(key, body),
      body: () => ({ since: '2020-01-01T00:00:00Z' }),
    },
    {
      name: 'POST /receivers',
      table: 'receivers' as const,
      crash: () => crashAfterCommit(ctx.app.services.receivers, 'create'),
      send: (key: string, body: Record<string, unknown>) =>
        ctx.app.inject({ method: 'POST', url: '/api/v1/receivers', headers: { ...merchant.headers, 'idempotency-key': key }, payload: body }),
      body: () => ({ type: 'PF', document: randomCpf(), name: 'Rita Lopes', email: 'rita@example.com', createManagedWallet: true }),
    },
    {
      name: 'POST /webhook/endpoints',
      table: 'webhook_endpoints' as const,
      crash: () => crashAfterCommit(ctx.app.services.webhooks, 'createEndpoint'),
      send: (key: string, body: Record<string, unknown>) =>
        ctx.app.inject({ method: 'POST', url: '/api/v1/webhook/endpoints', headers: { ...merchant.headers, 'idempotency-key': key }, payload: body }),
      body: () => ({ url: 'http://127.0.0.1:9/hooks' }),
    },
    {
      name: 'POST /admin/merchants/:id/credentials',
      table: 'api_credentials' as const,
      crash: () => crashAfterCommit(ctx.app.services.merchants, 'issueCredential'),
      send: (key: string) =>
        ctx.app.inject({ method: 'POST', url: `/api/v1/admin/merchants/${merchant.merchantId}/credentials`, headers: { ...admin, 'idempotency-key': key } }),
      body: () => ({}),
    },
    {
      name: 'POST /admin/merchants',
      table: 'merchants' as const,
      crash: () => crashAfterCommit(ctx.app.services.merchants, 'createMerchant'),
      send: (key: string, body: Record<string, unknown>) =>
        ctx.app.inject({ method: 'POST', url: '/api/v1/admin/merchants', headers: { ...admin, 'idempotency-key': key }, payload: body }),
      body: () => ({ name: 'Created Once' }),
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const key = `lost-${c.name}`;
      const body = c.body();
      await c.setUp?.();
      const rowsBefore = await count(c.table);
      const created = c.creates ?? 1;
      c.crash();
      expect((await c.send(key, body)).statusCode).toBe(500);
      expect(await count(c.table)).toBe(rowsBefore + created);
      const retry = await c.send(key, body);
      expect(retry.statusCode, retry.body).toBe(c.status ?? 201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toBeTypeOf('object');
      expect(await count(c.table)).toBe(rowsBefore + created);
      const again = await c.send(key, body);
      expect(again.body).toBe(retry.body);
    });
  }
});
