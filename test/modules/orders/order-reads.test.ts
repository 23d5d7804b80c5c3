/**
 * Every order read route, merchant and back office, for an order in each state the sandbox
 * reaches, MED claims included (issue 42: a claim's event made the timeline and the operator's
 * order answer 500). The routes are the GET operations of the app's own OpenAPI document whose
 * path names /orders or that filter by `orderId` (disputes, webhook deliveries), so a read route
 * added later is read here too without editing this file; and the month's operations register.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '../../../src/modules/orders/tables.ts';
import { ADMIN_TOKEN, type TestMerchant } from '../../helpers/app.ts';
import { type Json, ordersTest } from './helpers.ts';

type Operation = { parameters?: Array<{ in: string; name: string; required?: boolean }> };

describe('order reads in every state', () => {
  const t = ordersTest();
  let merchant: TestMerchant;
  /** Every order made, by a label naming its state. */
  const orders: Record<string, Json> = {};
  /** The claims made, by the label of their order. */
  const claims: Record<string, Json> = {};

  const ok = async (method: 'GET' | 'POST', url: string, body: Json = {}, status = 200) => {
    const response = await t.call(method, url, merchant, method === 'GET' ? undefined : body);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return response.json() as Json;
  };
  const sandbox = (order: Json, action: string, body: Json = {}) => ok('POST', `/sandbox/orders/${order.id}/${action}`, body);
  const claim = async (label: string) => {
    claims[label] = await ok('POST', `/sandbox/orders/${orders[label]!.id}/med-claim`, {}, 201);
  };
  const decide = async (label: string, outcome: string) => {
    claims[label] = await ok('POST', `/sandbox/disputes/${claims[label]!.id}/decision`, { outcome });
  };

  beforeAll(async () => {
    merchant = await t.merchant('Leituras');
    for (const [key, list] of Object.entries(await t.everyEnding(merchant))) list.forEach((order, i) => (orders[`${key} ${i}`] = order));
    const receiver = await t.activeReceiver(merchant);
    const payin = (amountBrl: number) => t.payin(merchant, { receiverId: receiver.id, amountBrl });

    // Claims after the tokens left: open, accepted (charged back), defended.
    for (const label of ['completed, claim open', 'completed, claim accepted', 'completed, claim defended']) {
      orders[label] = await payin(20);
      await sandbox(orders[label], 'pix-payment');
    }
    // Claims before the tokens left: the order is held; accepted it is refunded, rejected it goes on.
    for (const label of ['held, claim open', 'held, claim accepted', 'held, claim rejected']) {
      orders[label] = await payin(21);
      await sandbox(orders[label], 'pix-payment');
      await claim(label);
    }
    await t.drive();
    for (const label of ['completed, claim open', 'completed, claim accepted', 'completed, claim defended']) await claim(label);
    await decide('completed, claim accepted', 'ACCEPTED');
    claims['completed, claim defended'] = await ok('POST', `/disputes/${claims['completed, claim defended']!.id}/defense`, { justification: 'The payer is the receiver and the tokens reached their wallet' });
    await decide('held, claim accepted', 'ACCEPTED');
    await decide('held, claim rejected', 'REJECTED');
    await t.drive();

    // Stopped half-way: money in, nothing driven after it.
    orders['payin paid'] = await payin(22);
    await sandbox(orders['payin paid'], 'pix-payment');
    orders['payout deposited'] = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 2, sourceToken: 'USDC' });
    await sandbox(orders['payout deposited'], 'deposit');
  }, 120_000);

  it('reaches the states it means to', async () => {
    const now = async (label: string) => (await ok('GET', `/orders/${orders[label]!.id}`)).status;
    expect(await now('completed, claim open')).toBe('COMPLETED');
    expect(await now('completed, claim accepted')).toBe('COMPLETED');
    expect(await now('held, claim open')).toBe('PAYMENT_RECEIVED');
    expect(await now('held, claim accepted')).toBe('REFUNDED');
    expect(await now('held, claim rejected')).toBe('COMPLETED');
    expect(await now('payin paid')).toBe('PAYMENT_RECEIVED');
    expect(await now('payout deposited')).toBe('DEPOSIT_RECEIVED');
    expect(claims['completed, claim accepted']).toMatchObject({ status: 'ACCEPTED', outcome: 'CHARGED_BACK' });
    expect(claims['completed, claim defended']).toMatchObject({ status: 'DEFENDED' });
    expect(claims['held, claim rejected']).toMatchObject({ status: 'REJECTED' });
  });

  it('answers every GET route on orders, merchant and back office, without a 5xx', async () => {
    const document = (await t.ctx.app.inject({ url: '/api/v1/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const byOrderId = (operation: Operation) => (operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'orderId');
    const routes = Object.entries(document.paths).flatMap(([path, { get }]) => (get && (path.includes('/orders') || byOrderId(get)) ? [{ path, operation: get }] : []));
    // Those of today; more is fine (they are read below), fewer means the filter lost some.
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/orders', '/orders/{id}', '/orders/{id}/timeline', '/orders/export', '/admin/orders', '/admin/orders/{id}', '/admin/orders/stuck', '/disputes', '/admin/disputes', '/webhook/deliveries']),
    );

    for (const [label, order] of Object.entries(orders)) {
      // What a filter of each list can be set to for this order; a route's other parameters stay unset.
      const values: Record<string, string> = { id: order.id, orderId: order.id, status: order.status, type: order.type, q: order.id, merchantId: merchant.merchantId, receiverId: order.receiverId, externalId: order.externalId ?? '' };
      for (const { path, operation } of routes) {
        const params = operation.parameters ?? [];
        const url = path.replace(/\{(\w+)\}/g, (_all, name: string) => values[name]!);
        // A list of something else about an order (its claims, its deliveries) is filtered by the order alone: its `status` is not the order's.
        const own = byOrderId(operation) ? ['orderId', 'merchantId'] : Object.keys(values);
        const query = params.filter((p) => p.in === 'query' && values[p.name] && own.includes(p.name));
        const filtered = `${url}?${new URLSearchParams(query.map((p): [string, string] => [p.name, values[p.name]!]))}`;
        for (const target of query.length > 0 ? [url, filtered] : [url]) {
          const headers = path.startsWith('/admin/') ? { authorization: `Bearer ${ADMIN_TOKEN}` } : merchant.headers;
          const response = await t.ctx.app.inject({ method: 'GET', url: `/api/v1${target}`, headers });
          expect(response.statusCode, `${label}: GET ${target}: ${response.body.slice(0, 300)}`).toBe(200);
        }
      }
    }
    // The month's operations register holds the orders' confirmed movements, the claims' returns included.
    for (const format of ['csv', 'jsonl']) {
      const response = await t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/reports/operations?month=2026-11&format=${format}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.body).toContain(orders['completed, claim accepted']!.id);
    }
  }, 120_000);

  it("shows a claim in a disputed order's timeline, typed by the claim's status, on both sides", async () => {
    for (const [label, expected] of [
      ['completed, claim open', ['OPEN']],
      ['completed, claim accepted', ['OPEN', 'ACCEPTED']],
      ['completed, claim defended', ['OPEN', 'DEFENDED']],
      ['held, claim accepted', ['OPEN', 'ACCEPTED']],
      ['held, claim rejected', ['OPEN', 'REJECTED']],
    ] as const) {
      const order = orders[label]!;
      const merchantView = await ok('GET', `/orders/${order.id}/timeline`);
      expect((await ok('GET', `/disputes?orderId=${order.id}`)).data.map((d: Json) => d.id), label).toEqual([claims[label]!.id]);
      const admin = await t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${order.id}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(admin.statusCode, admin.body).toBe(200);
      for (const entries of [merchantView.entries as Json[], admin.json().timeline as Json[]]) {
        const disputes = entries.filter((e) => e.kind === 'DISPUTE').map((e) => e.dispute);
        expect(disputes.every((d) => d.disputeId === claims[label]!.id), label).toBe(true);
        expect(disputes[0], label).toMatchObject({ event: 'order.disputed', status: 'OPEN', defenseDeadline: claims[label]!.defenseDeadline });
        // Each claim event is an entry: the last one says where the claim stands.
        expect(new Set(disputes.map((d) => d.status)), label).toEqual(new Set(expected));
        expect(disputes.at(-1)!.status, label).toBe(claims[label]!.status);
        // The order's own status entries hold order statuses only, ending at the order's status.
        const statuses = entries.filter((e) => e.kind === 'STATUS').map((e) => e.status.status);
        expect(statuses.every((s) => (ORDER_STATUSES as readonly string[]).includes(s)), label).toBe(true);
        expect(statuses.at(-1), label).toBe(merchantView.status);
      }
    }
    const charged = (await ok('GET', `/orders/${orders['completed, claim accepted']!.id}/timeline`)).entries as Json[];
    expect(charged.filter((e) => e.kind === 'DISPUTE').at(-1)!.dispute.outcome).toBe('CHARGED_BACK');
  });
});
