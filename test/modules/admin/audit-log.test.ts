/**
 * The audit log across the platform for operators (GET /admin/audit-log) and its CSV export,
 * through the app: every merchant's and the platform's entries, newest first, each filter, keyset
 * pages, the file's columns, its formula guard and its cap; the merchant's own GET /audit-log
 * still reads its entries only.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trx } from '../../../src/db/database.ts';
import { recordAudit } from '../../../src/platform/audit/record.ts';
import type { MerchantAuditAction } from '../../../src/platform/audit/merchant-actions.ts';
import { type TestContext, TestClock, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { operatorsOf } from '../../helpers/operators.ts';
import { csvObjects } from '../../helpers/csv.ts';
import { callAs, callAsAdmin, type Json } from '../../helpers/factories.ts';
import { adminFixture, type MerchantBody } from './helpers.ts';

let ctx: TestContext;
const { admin, createViaApi } = adminFixture(() => ctx);
let a: MerchantBody;
let b: MerchantBody;
let aKey: { apiKey: string; apiSecret: string };
let between: string;

// Read as an operator: each request with the admin token would add its own admin_token.use entry.
let reader: { cookie: string };
const list = async (query = '') => {
  const response = await ctx.app.inject({ method: 'GET', url: `/api/v1/admin/audit-log${query}`, headers: reader });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { data: Json[]; nextCursor: string | null };
};
/** The actions, without the admin_token.use entries the set-up's requests left. */
const actionsOf = (page: { data: Json[] }) => page.data.map((entry) => entry.action).filter((action) => action !== 'admin_token.use');

beforeAll(async () => {
  const clock = new TestClock(new Date());
  ctx = await createTestContext({}, { clock });
  // COMPLIANCE: the export needs reports.export (a VIEWER's is refused: exports.security.test.ts).
  reader = { cookie: (await operatorsOf(ctx.app, clock, 'auditreader').signedIn('COMPLIANCE')).cookie };
  ({ merchant: a, credential: aKey } = await createViaApi('Audit Alpha'));
  expect((await admin('POST', `/merchants/${a.id}/credentials`)).statusCode).toBe(201);
  await sleep(5);
  between = new Date().toISOString();
  await sleep(5);
  ({ merchant: b } = await createViaApi('Audit Beta'));
  expect((await admin('POST', `/merchants/${b.id}/credentials`)).statusCode).toBe(201);
  expect((await admin('POST', `/merchants/${b.id}/disable`)).statusCode).toBe(200);
  // Text a person could have typed, as a spreadsheet would run it.
  await recordAudit(ctx.database.db as unknown as Trx, { actor: '=HYPERLINK("http://evil")', requestId: '+1' }, {
    // No code records it (a merchant's entry names one of MERCHANT_AUDIT_ACTIONS): written straight, for its text.
    action: 'test.formula' as MerchantAuditAction,
    targetType: 'receiver',
    targetId: '-2',
    merchantId: b.id,
    details: { reason: '@SUM(A1), "quoted"\nnext line' },
  });
});
afterAll(() => ctx?.close());

describe('GET /admin/audit-log', () => {
  it("lists every merchant's and the platform's entries, newest first, with the merchant each concerns", async () => {
    const page = await list();
    // The oldest: the reading operator's creation.
    expect(actionsOf(page)).toEqual(['test.formula', 'merchant.disable', 'credential.issue', 'merchant.create', 'credential.issue', 'merchant.create', 'operator.create']);
    expect(page.nextCursor).toBeNull();
    const issued = page.data.find((entry) => entry.action === 'credential.issue' && entry.merchantId === a.id)!;
    expect(issued).toEqual({
      id: expect.any(String),
      actor: 'admin-api@127.0.0.1',
      action: 'credential.issue',
      targetType: 'credential',
      targetId: expect.any(String),
      details: expect.objectContaining({ merchantId: a.id }),
      requestId: expect.any(String),
      merchantId: a.id,
      createdAt: expect.stringMatching(/Z$/),
    });
    // An operator's decision about a merchant itself is the platform's (no merchant_id).
    expect(page.data.find((entry) => entry.action === 'merchant.create' && entry.targetId === a.id)!.merchantId).toBeNull();
  });

  it('filters by actor, action, target, merchant and time, combined', async () => {
    expect(actionsOf(await list('?action=credential.issue'))).toEqual(['credential.issue', 'credential.issue']);
    expect(actionsOf(await list(`?merchantId=${a.id}`))).toEqual(['credential.issue']);
    expect(actionsOf(await list(`?merchantId=${b.id}`))).toEqual(['test.formula', 'credential.issue']);
    expect(actionsOf(await list(`?targetType=merchant&targetId=${b.id}`))).toEqual(['merchant.disable', 'merchant.create']);
    expect(actionsOf(await list(`?targetId=${a.id}`))).toEqual(['merchant.create']);
    expect(actionsOf(await list('?targetType=receiver'))).toEqual(['test.formula']);
    expect(actionsOf(await list(`?actor=${encodeURIComponent('=HYPERLINK("http://evil")')}`))).toEqual(['test.formula']);
    expect(actionsOf(await list(`?actor=admin-api@127.0.0.1&to=${between}`))).toEqual(['credential.issue', 'merchant.create']);
    expect((await list('?action=admin_token.use')).data.length).toBeGreaterThanOrEqual(5);
    expect(actionsOf(await list(`?from=${between}&action=merchant.create`))).toEqual(['merchant.create']);
    expect((await list('?action=nothing.like.this')).data).toEqual([]);
  });

  it('pages by keyset on the id: the pages together are the whole list, once each', async () => {
    const whole = (await list()).data.map((entry) => entry.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.data.length).toBeLessThanOrEqual(4);
      seen.push(...page.data.map((entry) => entry.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(whole);
  });

  it('refuses malformed filters (400)', async () => {
    for (const query of ['?limit=0', '?limit=101', '?cursor=nope', '?from=yesterday', '?merchantId=nope', '?unknown=1']) {
      expectErrorBody(await callAsAdmin(ctx, 'GET', `/audit-log${query}`), 400, 'VALIDATION_ERROR');
    }
    expectErrorBody(await callAsAdmin(ctx, 'GET', '/audit-log/export?limit=5'), 400, 'VALIDATION_ERROR');
  });

  it("leaves the merchant's own GET /audit-log as it was: its entries only, without merchantId", async () => {
    const response = await callAs(ctx, { 'x-api-key': aKey.apiKey, 'x-api-secret': aKey.apiSecret }, 'GET', '/audit-log');
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json();
    expect(actionsOf(page)).toEqual(['credential.issue']);
    expect(page.data[0]).not.toHaveProperty('merchantId');
  });
});

describe('GET /admin/audit-log/export', () => {
  it('is the listing as CSV: its columns, the same entries in the same order, details as JSON text, formulas neutralised', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/admin/audit-log/export', headers: reader });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers['x-export-truncated']).toBe('false');
    const { header, rows } = csvObjects(response.body);
    expect(header).toEqual(['id', 'createdAt', 'actor', 'action', 'targetType', 'targetId', 'merchantId', 'requestId', 'details']);
    const listed = (await list()).data;
    expect(rows.map((row) => row.id)).toEqual(listed.map((entry) => entry.id));
    const issued = listed.find((entry) => entry.action === 'credential.issue' && entry.merchantId === a.id)!;
    const row = rows.find((r) => r.id === issued.id)!;
    expect(row).toEqual({
      id: issued.id,
      createdAt: issued.createdAt,
      actor: 'admin-api@127.0.0.1',
      action: 'credential.issue',
      targetType: 'credential',
      targetId: issued.targetId,
      merchantId: a.id,
      requestId: issued.requestId,
      details: expect.any(String),
    });
    expect(JSON.parse(row.details!)).toEqual(issued.details);
    expect(rows.find((r) => r.action === 'merchant.create')!.merchantId).toBe('');

    const formula = rows.find((r) => r.action === 'test.formula')!;
    expect(formula).toMatchObject({ actor: `'=HYPERLINK("http://evil")`, targetId: "'-2", requestId: "'+1" });
    expect(JSON.parse(formula.details!)).toEqual({ reason: '@SUM(A1), "quoted"\nnext line' });
  });

  it('takes the listing filters', async () => {
    const { rows } = csvObjects((await callAsAdmin(ctx, 'GET', `/audit-log/export?merchantId=${b.id}&action=credential.issue`)).body);
    expect(rows.map((row) => row.action)).toEqual(['credential.issue']);
    const { header, rows: none } = csvObjects((await callAsAdmin(ctx, 'GET', '/audit-log/export?action=nothing')).body);
    expect(header).toHaveLength(9);
    expect(none).toEqual([]);
  });

  it('holds at most ORDER_EXPORT_MAX_ROWS entries, the newest, and says when more match', async () => {
    const capped = await ctx.buildApp({ ORDER_EXPORT_MAX_ROWS: '3', ORDER_EXPORT_PAGE_SIZE: '2' });
    const response = await capped.inject({ method: 'GET', url: '/api/v1/admin/audit-log/export', headers: { authorization: `Bearer ${ctx.config.adminToken}` } });
    expect(response.headers['x-export-truncated']).toBe('true');
    const { rows } = csvObjects(response.body);
    expect(rows.map((row) => row.id)).toEqual((await list('?limit=3')).data.map((entry) => entry.id));
    const exact = await capped.inject({ method: 'GET', url: `/api/v1/admin/audit-log/export?merchantId=${b.id}`, headers: { authorization: `Bearer ${ctx.config.adminToken}` } });
    expect(exact.headers['x-export-truncated']).toBe('false');
    expect(csvObjects(exact.body).rows).toHaveLength(2);
  });
});
