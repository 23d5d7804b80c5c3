/**
 * Money goes only to the receiver (issue 24, finding 5): under the merchant's RECEIVER_ONLY
 * destination policy (the default) a PAYOUT pays only the receiver's own PIX key and a PAYIN
 * transfers only to the receiver's own wallet; an operator may set ANY (audited); renaming an
 * APPROVED receiver sends it back to KYC review. On the sandbox PSP, whose DICT is fed by
 * POST /sandbox/pix-keys.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestMerchant, expectErrorBody } from '../../helpers/app.ts';
import { formatCpfText, randomCnpj, randomCpf } from '../../helpers/documents.ts';
import { type Json, WALLET, ordersTest } from './helpers.ts';
import { checkPayoutKey } from '../../../src/modules/orders/creation/destination-rules.ts';
import { openAuditDetails } from '../../../src/platform/audit/sealed-details.ts';

const FOREIGN_WALLET = 'So11111111111111111111111111111111111111112';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('destination policy RECEIVER_ONLY (default)', () => {
  const t = ordersTest();
  const payout = (merchant: TestMerchant, receiver: Json, key: Json) =>
    t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC', ...key });
  const registerKey = async (merchant: TestMerchant, body: Json) => {
    const response = await t.call('POST', '/sandbox/pix-keys', merchant, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Json;
  };
  const ordersOf = async (merchant: TestMerchant) => (await t.call('GET', '/orders', merchant)).json().total as number;
  const setPolicy = (merchantId: string, destinationPolicy: string, headers: Record<string, string> = admin) =>
    t.ctx.app.inject({ method: 'PUT', url: `/api/v1/admin/merchants/${merchantId}/destination-policy`, headers, payload: { destinationPolicy, reason: 'marketplace pays sellers' } });

  it('refuses a PAYOUT to another person’s CPF key (422), creating nothing', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const refused = await payout(merchant, receiver, { pixKey: randomCpf(), pixKeyType: 'CPF' });
    const body = expectErrorBody(refused, 422, 'PIX_KEY_NOT_OWNED_BY_RECEIVER');
    expect(body.details).toMatchObject({ 'body.pixKey': expect.any(String), destinationPolicy: 'RECEIVER_ONLY' });
    // A CNPJ key that is not the (PF) receiver's document either.
    expectErrorBody(await payout(merchant, receiver, { pixKey: randomCnpj(), pixKeyType: 'CNPJ' }), 422, 'PIX_KEY_NOT_OWNED_BY_RECEIVER');
    expect(await ordersOf(merchant)).toBe(0);
  });

  it('accepts the receiver’s own CPF key, formatted or bare', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const created = await payout(merchant, receiver, { pixKey: formatCpfText(receiver.document), pixKeyType: 'CPF' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().pixKey).toBe(receiver.document);
  });

  it('accepts an EMAIL key the PSP’s lookup shows held by the receiver, refuses one held by someone else or unknown', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const own = `own-${receiver.id}@example.com`;
    const foreign = `other-${receiver.id}@example.com`;
    expect(await registerKey(merchant, { key: own.toUpperCase(), keyType: 'EMAIL', document: formatCpfText(receiver.document) })).toEqual({ key: own, keyType: 'EMAIL', holderDocument: receiver.document });
    await registerKey(merchant, { key: foreign, keyType: 'EMAIL', document: randomCpf() });

    const accepted = await payout(merchant, receiver, { pixKey: own, pixKeyType: 'EMAIL' });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const refused = expectErrorBody(await payout(merchant, receiver, { pixKey: foreign, pixKeyType: 'EMAIL' }), 422, 'PIX_KEY_NOT_OWNED_BY_RECEIVER');
    // Never says who holds the key (the request id is left out: a UUID's last group may be 12 digits).
    expect(JSON.stringify({ ...refused, requestId: undefined })).not.toMatch(/\d{11}/);
    expectErrorBody(await payout(merchant, receiver, { pixKey: `unknown-${receiver.id}@example.com`, pixKeyType: 'EMAIL' }), 422, 'PIX_KEY_NOT_OWNED_BY_RECEIVER');
    // A key that moves to another holder is refused from then on.
    await registerKey(merchant, { key: own, keyType: 'EMAIL', document: randomCpf() });
    expectErrorBody(await payout(merchant, receiver, { pixKey: own, pixKeyType: 'EMAIL' }), 422, 'PIX_KEY_NOT_OWNED_BY_RECEIVER');
  });

  it('the sandbox DICT refuses registering a document key or a bad document (400)', async () => {
    const { merchant } = await t.merchantWithReceiver();
    expectErrorBody(await t.call('POST', '/sandbox/pix-keys', merchant, { key: 'a@example.com', keyType: 'EMAIL', document: '12345678900' }), 400, 'VALIDATION_ERROR');
    expectErrorBody(await t.call('POST', '/sandbox/pix-keys', merchant, { key: randomCpf(), keyType: 'CPF', document: randomCpf() }), 400, 'VALIDATION_ERROR');
  });

  it('refuses a PAYIN to a wallet that is not the receiver’s (422); accepts its own and its managed wallet', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const refused = await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 50, destinationWallet: FOREIGN_WALLET });
    expect(expectErrorBody(refused, 422, 'DESTINATION_NOT_RECEIVER_WALLET').details).toHaveProperty(['body.destinationWallet']);
    expect(await ordersOf(merchant)).toBe(0);
    expect((await t.payin(merchant, { receiverId: receiver.id, amountBrl: 50, destinationWallet: WALLET })).destinationWallet).toBe(WALLET);

    const managed = await t.activeReceiver(merchant, { walletAddress: undefined, createManagedWallet: true });
    expect(managed.hasManagedWallet).toBe(true);
    expect((await t.payin(merchant, { receiverId: managed.id, amountBrl: 50, destinationWallet: managed.walletAddress })).destinationWallet).toBe(managed.walletAddress);
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: managed.id, amountBrl: 50, destinationWallet: WALLET }), 422, 'DESTINATION_NOT_RECEIVER_WALLET');
  });

  it('policy ANY, set only by an operator and audited, allows a foreign key and wallet', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    expect((await setPolicy(merchant.merchantId, 'ANY', merchant.headers)).statusCode).toBe(403); // a merchant's own credentials are not the admin token
    const set = await setPolicy(merchant.merchantId, 'ANY');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ merchantId: merchant.merchantId, destinationPolicy: 'ANY' });
    const audit = await t.ctx.database.db.selectFrom('admin_audit_log').selectAll().where('target_id', '=', merchant.merchantId).where('action', '=', 'merchant.destination_policy').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toEqual({ from: 'RECEIVER_ONLY', to: 'ANY', reason: 'marketplace pays sellers' });
    expect(audit[0]!.actor).toMatch(/^admin-api@/);

    expect((await payout(merchant, receiver, { pixKey: randomCpf(), pixKeyType: 'CPF' })).statusCode).toBe(201);
    expect((await payout(merchant, receiver, { pixKey: `nobody-${receiver.id}@example.com`, pixKeyType: 'EMAIL' })).statusCode).toBe(201);
    expect((await t.payin(merchant, { receiverId: receiver.id, amountBrl: 50, destinationWallet: FOREIGN_WALLET })).destinationWallet).toBe(FOREIGN_WALLET);

    // Back to RECEIVER_ONLY: refused again; the same policy again is no change and no audit record.
    expect((await setPolicy(merchant.merchantId, 'RECEIVER_ONLY')).json().destinationPolicy).toBe('RECEIVER_ONLY');
    await setPolicy(merchant.merchantId, 'RECEIVER_ONLY');
    expect(await t.ctx.database.db.selectFrom('admin_audit_log').select('id').where('target_id', '=', merchant.merchantId).where('action', '=', 'merchant.destination_policy').execute()).toHaveLength(2);
    expectErrorBody(await payout(merchant, receiver, { pixKey: randomCpf(), pixKeyType: 'CPF' }), 422, 'PIX_KEY_NOT_OWNED_BY_RECEIVER');
    const read = await t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/merchants/${merchant.merchantId}/destination-policy`, headers: admin });
    expect(read.json().destinationPolicy).toBe('RECEIVER_ONLY');
    // One row, one answer: the old read is the policies read; the policies write cannot widen the destination (another permission).
    const all = await t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/merchants/${merchant.merchantId}/policies`, headers: admin });
    expect(read.json()).toEqual(all.json());
    expect(all.json()).toMatchObject({ payerPolicy: 'ANY', walletOwnershipPolicy: 'ALLOW' });
    const widen = await t.ctx.app.inject({ method: 'PUT', url: `/api/v1/admin/merchants/${merchant.merchantId}/policies`, headers: admin, payload: { destinationPolicy: 'ANY' } });
    expect(widen.statusCode).toBe(400);
  });

  it('renaming an APPROVED receiver sends it back to KYC review (audited) and its new orders are refused; the same name does not', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const same = await t.ctx.app.inject({ method: 'PATCH', url: `/api/v1/receivers/${receiver.id}`, headers: merchant.headers, payload: { name: receiver.name, phone: '+5511998765432' } });
    expect(same.json()).toMatchObject({ kycStatus: 'APPROVED', status: 'ACTIVE' });

    const renamed = await t.ctx.app.inject({ method: 'PATCH', url: `/api/v1/receivers/${receiver.id}`, headers: merchant.headers, payload: { name: 'Mallory Impostor' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Mallory Impostor', kycStatus: 'UNDER_REVIEW', status: 'ACTIVE' });
    const audit = await t.ctx.database.db.selectFrom('admin_audit_log').selectAll().where('target_id', '=', receiver.id).where('action', '=', 'receiver.kyc_review_on_rename').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: `merchant:${merchant.merchantId}`, details: { from: 'APPROVED', to: 'UNDER_REVIEW', previousName: expect.stringMatching(/^pd\d+:/) } });
    // The names are sealed at rest (platform/audit/sealed-details.ts) and open to what they were.
    expect(openAuditDetails(t.ctx.app.services.personalData, audit[0]!.action, audit[0]!.details as Record<string, unknown>)).toMatchObject({ previousName: 'Joana Souza', name: 'Mallory Impostor' });

    expectErrorBody(await payout(merchant, receiver, {}), 422, 'KYC_NOT_APPROVED');
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 50 }), 422, 'KYC_NOT_APPROVED');
    // The operator's review (here the sandbox decision) approves the new name.
    expect((await t.call('POST', `/sandbox/receivers/${receiver.id}/kyc`, merchant, { decision: 'APPROVE' })).json().kycStatus).toBe('APPROVED');
    expect((await payout(merchant, receiver, {})).statusCode).toBe(201);
  });
});

describe('checkPayoutKey without a PSP key lookup', () => {
  const receiver = { document: '52998224725' };
  it('accepts the receiver’s document key and refuses every other key type', async () => {
    await expect(checkPayoutKey({ key: '52998224725', type: 'CPF' }, receiver, undefined)).resolves.toBeUndefined();
    for (const key of [{ key: 'a@example.com', type: 'EMAIL' }, { key: '+5511998765432', type: 'PHONE' }, { key: '123e4567-e12b-12d1-a456-426655440000', type: 'EVP' }]) {
      await expect(checkPayoutKey(key, receiver, undefined)).rejects.toMatchObject({ code: 'PIX_KEY_NOT_OWNED_BY_RECEIVER' });
    }
  });

  it('refuses a masked document and answers 503 without internals when the lookup fails', async () => {
    await expect(checkPayoutKey({ key: 'a@example.com', type: 'EMAIL' }, receiver, async () => ({ holderDocument: '***.982.247-**' }))).rejects.toMatchObject({ code: 'PIX_KEY_NOT_OWNED_BY_RECEIVER' });
    const failed = checkPayoutKey({ key: 'a@example.com', type: 'EMAIL' }, receiver, async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.1:443');
    });
    await expect(failed).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: expect.not.stringContaining('ECONNREFUSED') });
  });
});
