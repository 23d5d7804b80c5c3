/**
 * Creations whose services store an Idempotency-Key's answer in their own transaction
 * (ARCHITECTURE.md "Idempotency"): the answer lost after the commit (the service throws once the
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

  const count = async (table: 'receivers' | 'webhook_endpoints' | 'api_credentials' | 'merchants') =>
    Number((await ctx.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  const cases = [
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
      const rowsBefore = await count(c.table);
      c.crash();
      expect((await c.send(key, body)).statusCode).toBe(500);
      expect(await count(c.table)).toBe(rowsBefore + 1);
      const retry = await c.send(key, body);
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toBeTypeOf('object');
      expect(await count(c.table)).toBe(rowsBefore + 1);
      const again = await c.send(key, body);
      expect(again.body).toBe(retry.body);
    });
  }
});
