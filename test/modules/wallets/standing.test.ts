/**
 * Issue 15: a receiver's wallet signs only while the receiver could transact (KYC APPROVED,
 * status ACTIVE), on both signing endpoints; otherwise 422 KYC_NOT_APPROVED or RECEIVER_NOT_ACTIVE,
 * recorded, nothing signed or sent. The standing is read on every request, so a receiver suspended
 * or blocked after its wallet row was cached is refused at its next request, not after the cache's
 * WALLET_KEY_CACHE_SECONDS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { buildTransaction, memo } from './helpers.ts';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';

type Endpoint = 'sign-transaction' | 'sign-and-send-transaction';
const ENDPOINTS: Endpoint[] = ['sign-transaction', 'sign-and-send-transaction'];

describe('managed wallets: the receiver must be KYC APPROVED and ACTIVE to sign', () => {
  let f: WalletsFixture;
  const operator = { actor: 'test' };

  beforeAll(async () => {
    f = await createWalletsFixture();
  });
  afterAll(() => f.ctx.close());

  const post = (endpoint: Endpoint, receiver: { id: string; walletAddress: string }, app = f.ctx.app) =>
    app.inject({
      method: 'POST',
      url: `/api/v1/receivers/${receiver.id}/wallet/${endpoint}`,
      headers: f.merchant.headers,
      payload: { transaction: buildTransaction(f.sponsor, [memo(receiver.walletAddress, `standing ${Math.random()}`)]) },
    });
  const auditOf = (receiverId: string) =>
    f.ctx.database.db.selectFrom('wallet_sign_requests').select(['operation', 'outcome', 'reason']).where('receiver_id', '=', receiverId).orderBy('created_at').orderBy('id').execute();

  it.each(ENDPOINTS)('%s: an approved, ACTIVE receiver signs (the happy path)', async (endpoint) => {
    const response = await post(endpoint, f.receiver);
    expect(response.statusCode, response.body).toBe(200);
  });

  it.each(ENDPOINTS)('%s: KYC PENDING is 422 KYC_NOT_APPROVED, recorded, nothing signed or sent', async (endpoint) => {
    const pending = await f.createReceiver({ createManagedWallet: true });
    expect(pending).toMatchObject({ kycStatus: 'PENDING', status: 'PENDING' });
    const sponsorBefore = await f.balance(f.sponsor);
    const body = expectErrorBody(await post(endpoint, pending), 422, 'KYC_NOT_APPROVED');
    expect(body.details).toEqual({ kycStatus: 'PENDING' });
    expect(await f.balance(f.sponsor)).toBe(sponsorBefore);
    expect(await auditOf(pending.id)).toEqual([{ operation: endpoint === 'sign-transaction' ? 'SIGN' : 'SIGN_AND_SEND', outcome: 'REJECTED', reason: 'KYC_NOT_APPROVED' }]);
  });

  it.each(ENDPOINTS)('%s: KYC REJECTED is 422 KYC_NOT_APPROVED', async (endpoint) => {
    const rejected = await f.createReceiver({ createManagedWallet: true });
    expect(await f.decideKyc(rejected.id, 'REJECT')).toMatchObject({ kycStatus: 'REJECTED' });
    expect(expectErrorBody(await post(endpoint, rejected), 422, 'KYC_NOT_APPROVED').details).toEqual({ kycStatus: 'REJECTED' });
  });

  it.each(ENDPOINTS)('%s: SUSPENDED and BLOCKED are 422 RECEIVER_NOT_ACTIVE', async (endpoint) => {
    const receiver = await f.createSigningReceiver();
    await f.ctx.app.services.receivers.changeStatus(receiver.id, 'suspend', operator);
    expect(expectErrorBody(await post(endpoint, receiver), 422, 'RECEIVER_NOT_ACTIVE').details).toEqual({ status: 'SUSPENDED' });
    await f.ctx.app.services.receivers.changeStatus(receiver.id, 'block', operator);
    expect(expectErrorBody(await post(endpoint, receiver), 422, 'RECEIVER_NOT_ACTIVE').details).toEqual({ status: 'BLOCKED' });
  });

  it('a receiver suspended after its wallet was cached is refused at once on both endpoints, and signs again once reactivated', async () => {
    // An app whose wallet-row cache outlives the test: a refusal can only come from the standing read per request.
    const app = await f.ctx.buildApp({ WALLET_KEY_CACHE_SECONDS: '3600' });
    const receiver = await f.createSigningReceiver();
    for (const endpoint of ENDPOINTS) expect((await post(endpoint, receiver, app)).statusCode).toBe(200);

    await f.ctx.app.services.receivers.changeStatus(receiver.id, 'suspend', operator);
    for (const endpoint of ENDPOINTS) expectErrorBody(await post(endpoint, receiver, app), 422, 'RECEIVER_NOT_ACTIVE');

    await f.ctx.app.services.receivers.changeStatus(receiver.id, 'reactivate', operator);
    for (const endpoint of ENDPOINTS) expect((await post(endpoint, receiver, app)).statusCode).toBe(200);
    expect((await auditOf(receiver.id)).map((row) => row.reason ?? row.outcome)).toEqual(['SIGNED', 'SENT', 'RECEIVER_NOT_ACTIVE', 'RECEIVER_NOT_ACTIVE', 'SIGNED', 'SENT']);
  });

  it("another merchant's receiver is still 404, whatever its standing", async () => {
    const theirs = await f.createReceiver({ createManagedWallet: true }, f.other);
    for (const endpoint of ENDPOINTS) expectErrorBody(await post(endpoint, theirs), 404, 'NOT_FOUND');
  });

  it("the merchant's own wallet has no receiver and no standing rule", async () => {
    const own = (await f.call('GET', '/merchant/wallet')).json().address as string;
    const response = await f.call('POST', '/merchant/wallet/sign-transaction', { transaction: buildTransaction(own, [memo(own, 'own')]) });
    expect(response.statusCode, response.body).toBe(200);
  });
});
