/**
 * The operators' KYC review (GET /admin/receivers, GET /admin/receivers/{id}/kyc) through the
 * app: the queue across merchants, the longest waiting first, its filters and keyset pages; a
 * receiver's file with its submissions and the history of what operators decided about it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { callAs, callAsAdmin, createReceiver, type Json } from '../../helpers/factories.ts';
import { SOME_ID } from './helpers.ts';

const T0 = new Date('2026-11-20T12:00:00.000Z');
const HOUR = 3_600_000;
const clock = new TestClock(T0);
let ctx: TestContext;
let a: TestMerchant;
let b: TestMerchant;
const ids: Record<string, string> = {};

const documents = [{ type: 'ID_FRONT', reference: 's3://kyc/front.jpg' }, { type: 'SELFIE', reference: 's3://kyc/selfie.jpg' }];

async function submitAt(merchant: TestMerchant, receiverId: string, at: number) {
  clock.set(new Date(T0.getTime() + at));
  const response = await callAs(ctx, merchant, 'POST', `/receivers/${receiverId}/kyc`, { birthDate: '1990-05-17', motherName: 'Ana Silva', documents });
  expect(response.statusCode, response.body).toBe(200);
}

const queue = async (query = '') => {
  const response = await callAsAdmin(ctx, 'GET', `/receivers${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { data: Json[]; nextCursor: string | null };
};
const idsOf = (page: { data: Json[] }) => page.data.map((item) => item.receiver.id);

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
  a = await ctx.createMerchant('Alpha Pagamentos');
  b = await ctx.createMerchant('Beta Câmbio');
  for (const [name, merchant] of [['a1', a], ['a2', a], ['a3', a], ['a4', a], ['b1', b], ['b2', b]] as const) {
    ids[name] = (await createReceiver(ctx, merchant, { name: `Receiver ${name}` })).id;
  }
  // Submitted at T0 (b1), +1h (a2), +2h (a1), +3h (a3, then under review), +4h (a4, then approved); b2 never.
  await submitAt(b, ids.b1!, 0);
  await submitAt(a, ids.a2!, HOUR);
  await submitAt(a, ids.a1!, 2 * HOUR);
  await submitAt(a, ids.a3!, 3 * HOUR);
  expect((await callAsAdmin(ctx, 'POST', `/receivers/${ids.a3}/kyc/start-review`)).statusCode).toBe(200);
  await submitAt(a, ids.a4!, 4 * HOUR);
  clock.set(new Date(T0.getTime() + 5 * HOUR));
});
afterAll(() => ctx?.close());

describe('GET /admin/receivers (the KYC queue)', () => {
  it('lists the receivers awaiting a decision (SUBMITTED, UNDER_REVIEW) of every merchant, the longest waiting first', async () => {
    const page = await queue();
    expect(idsOf(page)).toEqual([ids.b1, ids.a2, ids.a1, ids.a3, ids.a4]);
    expect(page.nextCursor).toBeNull();
    const [first] = page.data;
    expect(first).toEqual({
      receiver: expect.objectContaining({ id: ids.b1, merchantId: b.merchantId, name: 'Receiver b1', kycStatus: 'SUBMITTED', kycSubmittedAt: T0.toISOString() }),
      merchantId: b.merchantId,
      merchantName: 'Beta Câmbio',
      kycSubmittedAt: T0.toISOString(),
      waitingSeconds: 5 * 3600,
    });
    expect(page.data.map((item) => item.waitingSeconds)).toEqual([5, 4, 3, 2, 1].map((h) => h * 3600));
    expect(page.data.find((item) => item.receiver.id === ids.a3)!.receiver.kycStatus).toBe('UNDER_REVIEW');
  });

  it('filters by merchant and by KYC status; a receiver that never submitted waits since its creation', async () => {
    expect(idsOf(await queue(`?merchantId=${a.merchantId}`))).toEqual([ids.a2, ids.a1, ids.a3, ids.a4]);
    expect(idsOf(await queue(`?merchantId=${b.merchantId}`))).toEqual([ids.b1]);
    expect(idsOf(await queue('?kycStatus=UNDER_REVIEW'))).toEqual([ids.a3]);
    const pending = await queue('?kycStatus=PENDING');
    expect(idsOf(pending)).toEqual([ids.b2]);
    // Its creation time is the database's (not the test clock): the wait is counted from it.
    expect(pending.data[0]).toMatchObject({ kycSubmittedAt: null, waitingSeconds: expect.any(Number), merchantName: 'Beta Câmbio' });
    expect(idsOf(await queue(`?kycStatus=APPROVED&merchantId=${a.merchantId}`))).toEqual([]);
  });

  it('pages by keyset: nextCursor until the last page, no receiver twice or missing', async () => {
    const first = await queue('?limit=2');
    expect(idsOf(first)).toEqual([ids.b1, ids.a2]);
    expect(first.nextCursor).toBe(ids.a2);
    const second = await queue(`?limit=2&cursor=${first.nextCursor}`);
    expect(idsOf(second)).toEqual([ids.a1, ids.a3]);
    const third = await queue(`?limit=2&cursor=${second.nextCursor}`);
    expect(idsOf(third)).toEqual([ids.a4]);
    expect(third.nextCursor).toBeNull();
  });

  it('refuses a bad filter, a page over 100 and a cursor that names no receiver (400)', async () => {
    for (const query of ['?kycStatus=DONE', '?limit=0', '?limit=101', '?merchantId=nope', '?cursor=nope', '?other=1', `?cursor=${SOME_ID}`]) {
      expectErrorBody(await callAsAdmin(ctx, 'GET', `/receivers${query}`), 400, 'VALIDATION_ERROR');
    }
  });
});

describe('GET /admin/receivers/{id}/kyc (the file a reviewer decides on)', () => {
  it('shows the receiver, its submissions newest first, and the approval made through POST /admin/receivers/{id}/kyc/approve', async () => {
    const approved = await callAsAdmin(ctx, 'POST', `/receivers/${ids.a4}/kyc/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    const response = await callAsAdmin(ctx, 'GET', `/receivers/${ids.a4}/kyc`);
    expect(response.statusCode, response.body).toBe(200);
    const file = response.json();
    expect(file.receiver).toMatchObject({ id: ids.a4, merchantId: a.merchantId, kycStatus: 'APPROVED', status: 'ACTIVE' });
    expect(file.merchantName).toBe('Alpha Pagamentos');
    expect(file.submissions).toEqual([
      { id: expect.any(String), submittedAt: new Date(T0.getTime() + 4 * HOUR).toISOString(), birthDate: '1990-05-17', incorporationDate: null, motherName: 'Ana Silva', documents, previousRejectionReason: null },
    ]);
    expect(file.history).toEqual([
      {
        id: expect.any(String),
        actor: 'admin-api@127.0.0.1',
        action: 'receiver.kyc_approve',
        targetType: 'receiver',
        targetId: ids.a4,
        details: { merchantId: a.merchantId, from: 'SUBMITTED', to: 'APPROVED' },
        requestId: approved.headers['x-request-id'],
        merchantId: null,
        createdAt: expect.any(String),
      },
    ]);
    // Decided: out of the queue.
    expect(idsOf(await queue())).not.toContain(ids.a4);
  });

  it('after a rejection and a resubmission: both submissions, and the history oldest first', async () => {
    expect((await callAsAdmin(ctx, 'POST', `/receivers/${ids.a1}/kyc/reject`, { reason: 'Blurry selfie' })).statusCode).toBe(200);
    await submitAt(a, ids.a1!, 6 * HOUR);
    expect((await callAsAdmin(ctx, 'POST', `/receivers/${ids.a1}/kyc/start-review`)).statusCode).toBe(200);
    const file = (await callAsAdmin(ctx, 'GET', `/receivers/${ids.a1}/kyc`)).json();
    expect(file.submissions.map((s: Json) => s.previousRejectionReason)).toEqual(['Blurry selfie', null]);
    expect(file.history.map((h: Json) => h.action)).toEqual(['receiver.kyc_reject', 'receiver.kyc_start_review']);
    expect(file.history[0].details).toMatchObject({ reason: 'Blurry selfie', from: 'SUBMITTED', to: 'REJECTED' });
    // Resubmitted: now the last of the queue.
    expect(idsOf(await queue()).at(-1)).toBe(ids.a1);
  });

  it('a receiver with nothing submitted or decided has empty lists; an unknown receiver is 404, a malformed id 400', async () => {
    const file = (await callAsAdmin(ctx, 'GET', `/receivers/${ids.b2}/kyc`)).json();
    expect(file).toMatchObject({ submissions: [], history: [], merchantName: 'Beta Câmbio' });
    expectErrorBody(await callAsAdmin(ctx, 'GET', `/receivers/${SOME_ID}/kyc`), 404, 'NOT_FOUND');
    expectErrorBody(await callAsAdmin(ctx, 'GET', '/receivers/not-a-uuid/kyc'), 400, 'VALIDATION_ERROR');
  });
});
