/**
 * Personal data leaves only by permission and always on record (issue 38 item 5): the bulk
 * exports of the back office (GET /admin/reports/operations, GET /admin/audit-log/export) need
 * `reports.export` (COMPLIANCE, ADMIN), every export and every KYC file opened is an audit entry
 * visible in GET /admin/audit-log (who, when, what filter), and a merchant's own orders export is
 * in its audit log (GET /audit-log).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { callAs, createReceiver, type Json } from '../../helpers/factories.ts';
import { type SignedInOperator, operatorsOf } from '../../helpers/operators.ts';
import type { OperatorRole } from '../../../src/modules/operators/roles.ts';
import { ISO_TIMESTAMP } from './helpers.ts';

const clock = new TestClock(new Date('2026-11-20T12:00:00.000Z'));
let ctx: TestContext;
let merchant: TestMerchant;
let receiverId: string;
const signedIn: Partial<Record<OperatorRole, SignedInOperator>> = {};

const EXPORTS = ['/reports/operations?month=2026-11', '/reports/operations?month=2026-11&format=jsonl', '/audit-log/export?action=merchant.create'];

const get = (who: SignedInOperator, url: string) => ctx.app.inject({ method: 'GET', url: `/api/v1/admin${url}`, headers: { cookie: who.cookie } });

async function auditEntries(query: string): Promise<Json[]> {
  const response = await get(signedIn.ADMIN!, `/audit-log?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
  merchant = await ctx.createMerchant('Exporta Pagamentos');
  receiverId = (await createReceiver(ctx, merchant, { name: 'Maria Exportada' })).id;
  const operators = operatorsOf(ctx.app, clock, 'exports');
  for (const role of ['VIEWER', 'OPERATIONS', 'FINANCE', 'COMPLIANCE', 'ADMIN'] as const) signedIn[role] = await operators.signedIn(role);
});
afterAll(() => ctx?.close());

describe('bulk exports of personal data need reports.export', () => {
  it.each(EXPORTS)('GET /admin%s: VIEWER, OPERATIONS and FINANCE are refused 403, with nothing recorded', async (url) => {
    for (const role of ['VIEWER', 'OPERATIONS', 'FINANCE'] as const) {
      const refused = await get(signedIn[role]!, url);
      expectErrorBody(refused, 403, 'FORBIDDEN');
      expect(refused.json().details).toEqual({ reason: 'ROLE_NOT_ALLOWED', permission: 'reports.export' });
      expect(await auditEntries(`actor=operator:${signedIn[role]!.id}&targetType=report`)).toEqual([]);
    }
  });

  it('the session tells who may export', async () => {
    const permissionsOf = async (role: OperatorRole) => (await get(signedIn[role]!, '/auth/sessions/current')).json().permissions as string[];
    expect(await permissionsOf('COMPLIANCE')).toContain('reports.export');
    expect(await permissionsOf('ADMIN')).toContain('reports.export');
    expect(await permissionsOf('VIEWER')).not.toContain('reports.export');
  });

  it('COMPLIANCE exports the operations report, and the export is in the audit log: who, when, which month and format', async () => {
    const compliance = signedIn.COMPLIANCE!;
    const response = await get(compliance, '/reports/operations?month=2026-11&format=jsonl');
    expect(response.statusCode, response.body).toBe(200);
    const [entry, ...others] = await auditEntries('action=report.export');
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      actor: `operator:${compliance.id}`,
      action: 'report.export',
      targetType: 'report',
      targetId: 'operations-2026-11',
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
      requestId: expect.any(String),
      details: { report: 'operations', filter: { month: '2026-11', format: 'jsonl' } },
    });
  });

  it('a refused month is not recorded as an export', async () => {
    expectErrorBody(await get(signedIn.ADMIN!, '/reports/operations?month=2026-13'), 400, 'VALIDATION_ERROR');
    expect((await auditEntries('action=report.export')).map((e) => e.targetId)).not.toContain('operations-2026-13');
  });

  it('ADMIN exports the audit log, and that export is recorded with its filters (its own first line)', async () => {
    const admin = signedIn.ADMIN!;
    const response = await get(admin, `/audit-log/export?actor=operator:${admin.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const [entry] = await auditEntries('action=audit_log.export');
    expect(entry).toMatchObject({ actor: `operator:${admin.id}`, targetType: 'audit_log', targetId: null, details: { filter: { actor: `operator:${admin.id}` } } });
    expect(response.body.split('\r\n')[1]).toContain(entry!.id);
  });
});

describe('opening a KYC file is recorded', () => {
  it('any operator with read opens it, and each opening is an entry: who, when, which receiver', async () => {
    const viewer = signedIn.VIEWER!;
    const opened = await get(viewer, `/receivers/${receiverId}/kyc`);
    expect(opened.statusCode, opened.body).toBe(200);
    const entries = await auditEntries(`action=receiver.kyc_file_open&targetId=${receiverId}`);
    expect(entries).toEqual([
      expect.objectContaining({ actor: `operator:${viewer.id}`, targetType: 'kyc_file', targetId: receiverId, createdAt: expect.stringMatching(ISO_TIMESTAMP), details: { merchantId: merchant.merchantId } }),
    ]);
    // The file's own history stays the decisions about the receiver.
    expect(opened.json().history).toEqual([]);
  });

  it('an unknown receiver is 404 and records nothing', async () => {
    const unknown = '00000000-0000-4000-8000-000000000099';
    expectErrorBody(await get(signedIn.VIEWER!, `/receivers/${unknown}/kyc`), 404, 'NOT_FOUND');
    expect(await auditEntries(`action=receiver.kyc_file_open&targetId=${unknown}`)).toEqual([]);
  });
});

describe('the paged reads of receivers mask personal data without kyc.review', () => {
  it('VIEWER, OPERATIONS and FINANCE see the document masked and contacts hidden; COMPLIANCE and ADMIN see them', async () => {
    const whole = (await get(signedIn.COMPLIANCE!, `/receivers/${receiverId}`)).json();
    expect(whole.document).toMatch(/^\d{11}$/);
    const masked = `***.${whole.document.slice(3, 6)}.${whole.document.slice(6, 9)}-**`;
    const queueUrl = `/receivers?merchantId=${merchant.merchantId}&kycStatus=${whole.kycStatus}`;
    for (const role of ['VIEWER', 'OPERATIONS', 'FINANCE'] as const) {
      const one = await get(signedIn[role]!, `/receivers/${receiverId}`);
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json()).toMatchObject({ id: receiverId, name: 'Maria Exportada', document: masked, email: '***' });
      expect(one.body).not.toContain(whole.document);
      const queue = await get(signedIn[role]!, queueUrl);
      expect(queue.json().data.map((item: Json) => item.receiver.document)).toEqual([masked]);
      expect(queue.body).not.toContain(whole.document);
    }
    expect((await get(signedIn.ADMIN!, queueUrl)).json().data[0].receiver).toMatchObject({ document: whole.document, email: whole.email });
  });
});

describe("a merchant's orders export", () => {
  it("is recorded in the merchant's audit log with the key that exported and the filters", async () => {
    const response = await callAs(ctx, merchant, 'GET', '/orders/export?status=COMPLETED');
    expect(response.statusCode, response.body).toBe(200);
    const log = await callAs(ctx, merchant, 'GET', '/audit-log?action=orders.export');
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().data).toEqual([
      expect.objectContaining({ actor: expect.stringMatching(new RegExp(`^merchant:${merchant.merchantId}:credential:`)), action: 'orders.export', targetType: 'orders', details: { filter: { status: 'COMPLETED' } } }),
    ]);
  });
});
