/**
 * Wallet ownership (issue 30, docs/architecture/compliance-policies.md): a receiver proves a
 * self-hosted wallet by signing a Sign In With Solana challenge with it (Ed25519, signature in
 * base58); challenges are single-use and expire; the merchant's wallet ownership policy decides
 * what a PAYIN to an unproven wallet does. Keys are made here with node:crypto.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestMerchant, expectErrorBody } from '../../helpers/app.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';
import { encodeBase58 } from '../../../src/lib/base58.ts';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** A self-hosted wallet: its address (base58 of the raw public key) and a signer of messages. */
function newWallet() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return { address: encodeBase58(raw), sign: (message: string) => encodeBase58(sign(null, Buffer.from(message, 'utf8'), privateKey)) };
}

describe('wallet ownership', () => {
  const t = ordersTest();
  const setPolicies = (merchant: TestMerchant, body: Json) =>
    t.ctx.app.inject({ method: 'PUT', url: `/api/v1/admin/merchants/${merchant.merchantId}/policies`, headers: admin, payload: { reason: 'compliance review', ...body } });
  const challenge = async (merchant: TestMerchant, receiverId: string, walletAddress: string) => {
    const response = await t.call('POST', `/receivers/${receiverId}/wallet-ownership/challenges`, merchant, { walletAddress });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Json;
  };
  const prove = (merchant: TestMerchant, receiverId: string, body: Json) => t.call('POST', `/receivers/${receiverId}/wallet-ownership/proofs`, merchant, body);
  const payin = (merchant: TestMerchant, body: Json) => t.call('POST', '/payin', merchant, body);

  it('a correct signature of the challenge proves the wallet, recorded and audited', async () => {
    const wallet = newWallet();
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant, { walletAddress: wallet.address });
    const issued = await challenge(merchant, receiver.id, wallet.address);
    expect(issued.message).toMatch(new RegExp(`^localhost:3000 wants you to sign in with your Solana account:\\n${wallet.address}\\n\\n`));
    expect(issued.message).toContain(`Request ID: ${issued.challengeId}`);
    expect(issued.message).toMatch(/\nNonce: [0-9a-f]{32}\n/);
    expect(Date.parse(issued.expiresAt) - t.clock.now().getTime()).toBe(10 * 60_000);

    const proved = await prove(merchant, receiver.id, { challengeId: issued.challengeId, signature: wallet.sign(issued.message) });
    expect(proved.statusCode, proved.body).toBe(201);
    expect(proved.json()).toMatchObject({ receiverId: receiver.id, walletAddress: wallet.address, method: 'SIWS_ED25519', challengeId: issued.challengeId, message: issued.message });
    const listed = (await t.call('GET', `/receivers/${receiver.id}/wallet-ownership`, merchant)).json();
    expect(listed.data).toEqual([{ walletAddress: wallet.address, method: 'SIWS_ED25519', provenAt: expect.any(String), proofId: proved.json().id }]);
    const audit = await t.ctx.database.db.selectFrom('admin_audit_log').selectAll().where('target_id', '=', receiver.id).where('action', '=', 'receiver.wallet_ownership_proven').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: `merchant:${merchant.merchantId}`, merchant_id: merchant.merchantId });
  });

  it('refuses a wrong signature (422), a reused challenge (409), an expired one (422) and another receiver’s (404)', async () => {
    const wallet = newWallet();
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant, { walletAddress: wallet.address });
    const other = await t.activeReceiver(merchant);
    const issued = await challenge(merchant, receiver.id, wallet.address);

    // Signed by another key, over other text, or not a signature at all: the challenge stays usable.
    const wrong = expectErrorBody(await prove(merchant, receiver.id, { challengeId: issued.challengeId, signature: newWallet().sign(issued.message) }), 422, 'WALLET_SIGNATURE_INVALID');
    expect(wrong.details).toMatchObject({ 'body.signature': 'does not verify' });
    expectErrorBody(await prove(merchant, receiver.id, { challengeId: issued.challengeId, signature: wallet.sign(`${issued.message}\n`) }), 422, 'WALLET_SIGNATURE_INVALID');
    expectErrorBody(await prove(merchant, receiver.id, { challengeId: issued.challengeId, signature: '0'.repeat(88) }), 422, 'WALLET_SIGNATURE_INVALID');
    // Another receiver's challenge is not found under this one.
    expectErrorBody(await prove(merchant, other.id, { challengeId: issued.challengeId, signature: wallet.sign(issued.message) }), 404, 'NOT_FOUND');

    const signature = wallet.sign(issued.message);
    expect((await prove(merchant, receiver.id, { challengeId: issued.challengeId, signature })).statusCode).toBe(201);
    expectErrorBody(await prove(merchant, receiver.id, { challengeId: issued.challengeId, signature }), 409, 'CHALLENGE_USED');

    const late = await challenge(merchant, receiver.id, wallet.address);
    t.clock.advance(10 * 60_000);
    expectErrorBody(await prove(merchant, receiver.id, { challengeId: late.challengeId, signature: wallet.sign(late.message) }), 422, 'CHALLENGE_EXPIRED');
  });

  it('two concurrent proofs of one challenge: one proves, the other is CHALLENGE_USED', async () => {
    const wallet = newWallet();
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant, { walletAddress: wallet.address });
    const issued = await challenge(merchant, receiver.id, wallet.address);
    const body = { challengeId: issued.challengeId, signature: wallet.sign(issued.message) };
    const answers = await Promise.all([prove(merchant, receiver.id, body), prove(merchant, receiver.id, body)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(await t.ctx.database.db.selectFrom('wallet_ownership_proofs').select('id').where('challenge_id', '=', issued.challengeId).execute()).toHaveLength(1);
  });

  it('REQUIRED: a PAYIN to an unproven wallet is 422 WALLET_OWNERSHIP_REQUIRED, to a proven one 201', async () => {
    const wallet = newWallet();
    const merchant = await t.merchant();
    expect((await setPolicies(merchant, { walletOwnershipPolicy: 'REQUIRED' })).statusCode).toBe(200);
    const receiver = await t.activeReceiver(merchant, { walletAddress: wallet.address });
    const refused = expectErrorBody(await payin(merchant, { receiverId: receiver.id, amountBrl: 10 }), 422, 'WALLET_OWNERSHIP_REQUIRED');
    expect(refused.message).toContain('/wallet-ownership/challenges');
    expect(refused.details).toMatchObject({ walletOwnershipPolicy: 'REQUIRED' });
    expect((await t.call('GET', '/orders', merchant)).json().total).toBe(0);

    const issued = await challenge(merchant, receiver.id, wallet.address);
    expect((await prove(merchant, receiver.id, { challengeId: issued.challengeId, signature: wallet.sign(issued.message) })).statusCode).toBe(201);
    const created = await payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('REQUIRED: the receiver’s managed wallet counts as proven', async () => {
    const merchant = await t.merchant();
    await setPolicies(merchant, { walletOwnershipPolicy: 'REQUIRED' });
    const receiver = await t.activeReceiver(merchant, { walletAddress: undefined, createManagedWallet: true });
    const created = await payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    expect(created.statusCode, created.body).toBe(201);
    expect((await t.call('GET', `/receivers/${receiver.id}/wallet-ownership`, merchant)).json().data).toEqual([
      { walletAddress: receiver.walletAddress, method: 'MANAGED', provenAt: expect.any(String), proofId: null },
    ]);
  });

  it('LIMITED: refuses above the cap, and needs a cap', async () => {
    const merchant = await t.merchant();
    expectErrorBody(await setPolicies(merchant, { walletOwnershipPolicy: 'LIMITED' }), 400, 'VALIDATION_ERROR');
    const set = await setPolicies(merchant, { walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: '100.00' });
    expect(set.json()).toMatchObject({ walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: 100 });
    const receiver = await t.activeReceiver(merchant, { walletAddress: newWallet().address });
    expect((await payin(merchant, { receiverId: receiver.id, amountBrl: 100 })).statusCode).toBe(201);
    const refused = expectErrorBody(await payin(merchant, { receiverId: receiver.id, amountBrl: 100.01 }), 422, 'WALLET_OWNERSHIP_REQUIRED');
    expect(refused.details).toMatchObject({ walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: 100 });
    const audit = await t.ctx.database.db.selectFrom('admin_audit_log').select('action').where('target_id', '=', merchant.merchantId).where('action', '<>', 'merchant.create').execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['merchant.unproven_wallet_limit_brl', 'merchant.wallet_ownership_policy']);
  });

  it("LIMITED caps the day's total per unproven wallet (São Paulo day), not one order; proven and other wallets apart", async () => {
    const merchant = await t.merchant();
    expect((await setPolicies(merchant, { walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: '100.00' })).statusCode).toBe(200);
    const wallet = newWallet();
    const receiver = await t.activeReceiver(merchant, { walletAddress: wallet.address });
    for (const amountBrl of [40, 40]) expect((await payin(merchant, { receiverId: receiver.id, amountBrl })).statusCode).toBe(201);
    // Each order is under the cap; the day's third would take the wallet to 120.
    const refused = expectErrorBody(await payin(merchant, { receiverId: receiver.id, amountBrl: 40 }), 422, 'WALLET_OWNERSHIP_REQUIRED');
    expect(refused.details).toMatchObject({ walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: 100, unprovenWalletUsedTodayBrl: 80 });
    expect((await payin(merchant, { receiverId: receiver.id, amountBrl: 20 })).statusCode).toBe(201);
    expectErrorBody(await payin(merchant, { receiverId: receiver.id, amountBrl: 1 }), 422, 'WALLET_OWNERSHIP_REQUIRED');

    // Another unproven wallet has a day of its own; a proven one is not capped.
    const other = await t.activeReceiver(merchant, { walletAddress: newWallet().address });
    expect((await payin(merchant, { receiverId: other.id, amountBrl: 100 })).statusCode).toBe(201);
    const issued = await challenge(merchant, receiver.id, wallet.address);
    expect((await prove(merchant, receiver.id, { challengeId: issued.challengeId, signature: wallet.sign(issued.message) })).statusCode).toBe(201);
    expect((await payin(merchant, { receiverId: receiver.id, amountBrl: 500 })).statusCode).toBe(201);

    // The next São Paulo day starts at 03:00 UTC: a new day for the unproven wallet.
    const third = await t.activeReceiver(merchant, { walletAddress: newWallet().address });
    expect((await payin(merchant, { receiverId: third.id, amountBrl: 100 })).statusCode).toBe(201);
    expectErrorBody(await payin(merchant, { receiverId: third.id, amountBrl: 1 }), 422, 'WALLET_OWNERSHIP_REQUIRED');
    t.clock.advance(24 * 3_600_000);
    expect((await payin(merchant, { receiverId: third.id, amountBrl: 100 })).statusCode).toBe(201);
  });

  it('LIMITED: concurrent PAYINs to one unproven wallet never pass the day\'s cap together', async () => {
    const merchant = await t.merchant();
    await setPolicies(merchant, { walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: '100.00' });
    const receiver = await t.activeReceiver(merchant, { walletAddress: newWallet().address });
    const answers = await Promise.all(Array.from({ length: 5 }, () => payin(merchant, { receiverId: receiver.id, amountBrl: 40 })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 422, 422, 422]);
    const usage = await t.ctx.database.db.selectFrom('unproven_wallet_daily_usage').select('amount_brl').where('merchant_id', '=', merchant.merchantId).execute();
    expect(usage.map((u) => Number(u.amount_brl))).toEqual([80]);
  });

  it("LIMITED: an order that expires unpaid gives its amount back to the wallet's day, once; one that reserved nothing gives nothing back", async () => {
    const merchant = await t.merchant();
    const wallet = newWallet();
    const receiver = await t.activeReceiver(merchant, { walletAddress: wallet.address });
    const usage = async () => (await t.ctx.database.db.selectFrom('unproven_wallet_daily_usage').select('amount_brl').where('wallet_address', '=', wallet.address).execute()).map((u) => Number(u.amount_brl));
    // Made under ALLOW: it reserved nothing on the wallet's day, so its expiry gives nothing back.
    const unreserved = (await payin(merchant, { receiverId: receiver.id, amountBrl: 50 })).json();
    await setPolicies(merchant, { walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: '100.00' });
    t.clock.advance(60_000);
    const first = (await payin(merchant, { receiverId: receiver.id, amountBrl: 60 })).json();
    t.clock.advance(60_000);
    expect((await payin(merchant, { receiverId: receiver.id, amountBrl: 40 })).statusCode).toBe(201);
    expectErrorBody(await payin(merchant, { receiverId: receiver.id, amountBrl: 1 }), 422, 'WALLET_OWNERSHIP_REQUIRED');

    t.clock.set(unreserved.expiresAt);
    await t.drive(1);
    expect((await t.call('GET', `/orders/${unreserved.id}`, merchant)).json().status).toBe('EXPIRED');
    expect(await usage()).toEqual([100]);
    expectErrorBody(await payin(merchant, { receiverId: receiver.id, amountBrl: 1 }), 422, 'WALLET_OWNERSHIP_REQUIRED');

    // The 60 expires: within what it gave back a new order fits, past it not.
    t.clock.set(first.expiresAt);
    await t.drive(1);
    expect((await t.call('GET', `/orders/${first.id}`, merchant)).json().status).toBe('EXPIRED');
    expect(await usage()).toEqual([40]);
    expect((await payin(merchant, { receiverId: receiver.id, amountBrl: 60 })).statusCode).toBe(201);
    const refused = expectErrorBody(await payin(merchant, { receiverId: receiver.id, amountBrl: 1 }), 422, 'WALLET_OWNERSHIP_REQUIRED');
    expect(refused.details).toMatchObject({ unprovenWalletUsedTodayBrl: 100 });
    // Given back once: a PIX arriving after its expiry is refunded and gives nothing back again.
    expect((await t.call('POST', `/sandbox/orders/${first.id}/pix-payment`, merchant, {})).json().status).toBe('REFUNDING');
    await t.drive();
    expect(await usage()).toEqual([100]);
  });

  it('ALLOW (default): an unproven wallet is paid as before', async () => {
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant, { walletAddress: newWallet().address });
    expect((await payin(merchant, { receiverId: receiver.id, amountBrl: 10 })).statusCode).toBe(201);
  });
});
