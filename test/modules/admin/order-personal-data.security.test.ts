/**
 * An order's personal data in the back office (issue 38 item 5, decision 0033): one order's payer
 * (GET /admin/orders/{id}) is masked for a role without `kyc.review` (VIEWER, OPERATIONS, FINANCE,
 * a person's or a service account's), the same way the KYC queue masks receivers; COMPLIANCE,
 * ADMIN and the admin token see it in clear, and each such opening is an audit entry (who, when,
 * which order) read back through GET /admin/audit-log. The lists (search, stuck) carry no
 * personal data for anyone, and `q` never finds an order by a document. Nor may a role without
 * `kyc.review` find a receiver by its document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';
import { SOLANA_WALLET, adminHeaders, callAs, createActiveReceiver, type Json } from '../../helpers/factories.ts';
import { type SignedInOperator, operatorsOf } from '../../helpers/operators.ts';
import type { OperatorRole } from '../../../src/modules/operators/roles.ts';
import { ISO_TIMESTAMP } from './helpers.ts';

const clock = new TestClock(new Date('2026-11-20T15:00:00.000Z'));
let ctx: TestContext;
let merchant: TestMerchant;
let receiverId: string;
const signedIn: Partial<Record<OperatorRole, SignedInOperator>> = {};
let secondAdmin: SignedInOperator;

type Reader = SignedInOperator | Record<string, string>;
const headersOf = (who: Reader) => ('cookie' in who && 'csrf' in who ? { cookie: who.cookie } : (who as Record<string, string>));
const get = (who: Reader, url: string) => ctx.app.inject({ method: 'GET', url: `/api/v1/admin${url}`, headers: headersOf(who) });

/** The audit entries of order openings for `orderId`, read as an auditor would (GET /admin/audit-log). */
async function openings(orderId: string): Promise<Json[]> {
  const response = await get(signedIn.ADMIN!, `/audit-log?action=order.personal_data_open&targetId=${orderId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** A PAYIN paid through the sandbox PSP by a payer of its own (not the receiver). */
async function paidPayin(): Promise<{ id: string; cpf: string; name: string }> {
  const created = await callAs(ctx, merchant, 'POST', '/payin', { receiverId, amountBrl: 25 });
  expect(created.statusCode, created.body).toBe(201);
  const payer = { cpf: randomCpf(), name: `Paula Pagadora ${randomCpf().slice(0, 4)}` };
  const paid = await callAs(ctx, merchant, 'POST', `/sandbox/orders/${created.json().id}/pix-payment`, { payer: { document: payer.cpf, name: payer.name } });
  expect(paid.statusCode, paid.body).toBe(200);
  return { id: created.json().id, ...payer };
}

const dictMask = (cpf: string) => `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
  merchant = await ctx.createMerchant('Pagamentos Sigilosos');
  receiverId = (await createActiveReceiver(ctx, merchant, { walletAddress: SOLANA_WALLET })).id;
  const operators = operatorsOf(ctx.app, clock, 'order-reads');
  for (const role of ['VIEWER', 'OPERATIONS', 'FINANCE', 'COMPLIANCE', 'ADMIN'] as const) signedIn[role] = await operators.signedIn(role);
  secondAdmin = await operators.signedIn('ADMIN');
});
afterAll(() => ctx?.close());

describe("an order's payer is masked without kyc.review", () => {
  it('VIEWER, OPERATIONS and FINANCE see the document masked and no name, and nothing is recorded', async () => {
    const order = await paidPayin();
    for (const role of ['VIEWER', 'OPERATIONS', 'FINANCE'] as const) {
      const detail = await get(signedIn[role]!, `/orders/${order.id}`);
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json().payer).toEqual({ documentType: 'CPF', document: dictMask(order.cpf), name: '***' });
      expect(detail.body).not.toContain(order.cpf);
      expect(detail.body).not.toContain(order.name);
    }
    expect(await openings(order.id)).toEqual([]);
  });

  it('a VIEWER service account reads masked too, orders and receivers alike', async () => {
    const order = await paidPayin();
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/service-accounts',
      headers: { cookie: signedIn.ADMIN!.cookie, 'x-csrf-token': signedIn.ADMIN!.csrf },
      payload: { name: 'dashboards', role: 'VIEWER' },
    });
    expect(created.statusCode, created.body).toBe(201);
    // It works once another ADMIN than its creator approves it (decision 0031).
    const asOperator = (who: SignedInOperator, url: string, payload: Json) =>
      ctx.app.inject({ method: 'POST', url: `/api/v1/admin${url}`, headers: { cookie: who.cookie, 'x-csrf-token': who.csrf }, payload });
    const proposed = await asOperator(signedIn.ADMIN!, '/approvals', { action: 'SERVICE_ACCOUNT_ACTIVATE', targetId: created.json().serviceAccount.id, reason: 'dashboards read the back office' });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const approved = await asOperator(secondAdmin, `/approvals/${proposed.json().id}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    const bot = { authorization: `Bearer ${created.json().token}` };
    const detail = await get(bot, `/orders/${order.id}`);
    expect(detail.json().payer).toEqual({ documentType: 'CPF', document: dictMask(order.cpf), name: '***' });
    const receiver = await get(bot, `/receivers/${receiverId}`);
    expect(receiver.json()).toMatchObject({ document: expect.stringMatching(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/), email: '***' });
    expect(await openings(order.id)).toEqual([]);
  });
});

describe("an order's payer in clear is recorded", () => {
  it('COMPLIANCE and ADMIN see it in clear, each opening an audit entry: who, when, which order', async () => {
    const order = await paidPayin();
    for (const role of ['COMPLIANCE', 'ADMIN'] as const) {
      const detail = await get(signedIn[role]!, `/orders/${order.id}`);
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json().payer).toEqual({ documentType: 'CPF', document: order.cpf, name: order.name });
    }
    const entries = await openings(order.id);
    expect(entries.map((entry) => entry.actor)).toEqual([`operator:${signedIn.ADMIN!.id}`, `operator:${signedIn.COMPLIANCE!.id}`]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        action: 'order.personal_data_open',
        targetType: 'order',
        targetId: order.id,
        createdAt: expect.stringMatching(ISO_TIMESTAMP),
        requestId: expect.any(String),
        details: { merchantId: merchant.merchantId, fields: ['payer'] },
      });
    }
    // The entry names the order, never the person.
    expect(JSON.stringify(entries)).not.toContain(order.cpf);
  });

  it('the admin token sees it in clear and its opening is recorded under the token', async () => {
    const order = await paidPayin();
    const detail = await get(adminHeaders, `/orders/${order.id}`);
    expect(detail.json().payer).toEqual({ documentType: 'CPF', document: order.cpf, name: order.name });
    expect(await openings(order.id)).toEqual([expect.objectContaining({ actor: expect.stringMatching(/^admin-api@/), targetId: order.id })]);
  });

  it('an order without a payer, or an unknown one, records nothing', async () => {
    const unpaid = await callAs(ctx, merchant, 'POST', '/payin', { receiverId, amountBrl: 26 });
    const detail = await get(signedIn.COMPLIANCE!, `/orders/${unpaid.json().id}`);
    expect(detail.json().payer).toBeNull();
    expect(await openings(unpaid.json().id)).toEqual([]);
    const unknown = '00000000-0000-7000-8000-000000000042';
    expectErrorBody(await get(signedIn.COMPLIANCE!, `/orders/${unknown}`), 404, 'NOT_FOUND');
    expect(await openings(unknown)).toEqual([]);
  });
});

describe('the order lists carry no personal data', () => {
  it('search and stuck rows hold no payer for anyone, and a document finds no order', async () => {
    const order = await paidPayin();
    clock.advance(120_000); // paid, never driven: in transit for two minutes, so stuck at one
    for (const url of [`/orders?merchantId=${merchant.merchantId}`, '/orders/stuck?olderThanMinutes=1']) {
      const listed = await get(signedIn.ADMIN!, url);
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json().data.map((row: Json) => row.id)).toContain(order.id);
      expect(listed.body).not.toContain(order.cpf);
      expect(listed.body).not.toContain(order.name);
    }
    expect((await get(signedIn.ADMIN!, `/orders?q=${order.cpf}`)).json().data).toEqual([]);
  });
});

describe('a receiver found by its document', () => {
  it('only by a role with kyc.review: a masked answer would still confirm whose CPF it is', async () => {
    const receiver = (await callAs(ctx, merchant, 'GET', `/receivers/${receiverId}`)).json();
    for (const role of ['VIEWER', 'OPERATIONS', 'FINANCE'] as const) {
      expectErrorBody(await get(signedIn[role]!, `/receivers?document=${receiver.document}`), 403, 'FORBIDDEN');
      expect((await get(signedIn[role]!, '/receivers')).statusCode).toBe(200);
    }
    const found = await get(signedIn.COMPLIANCE!, `/receivers?document=${receiver.document}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.map((item: Json) => item.receiver.id)).toEqual([receiverId]);
  });
});
