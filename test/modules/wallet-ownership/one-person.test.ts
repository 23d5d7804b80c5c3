/**
 * A self-hosted wallet belongs to one person (issue 38, item 6; docs/decisions/0026): once a
 * receiver proved a wallet, a receiver with another document, of the same merchant or another,
 * cannot prove it (409 WALLET_PROVEN_BY_ANOTHER_PERSON, its challenge left unused), so a merchant
 * signing every receiver's challenge with its own omnibus wallet no longer defeats REQUIRED. The
 * same person (same document) under another merchant may prove it again.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../../src/lib/base58.ts';
import { type TestMerchant, expectErrorBody } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

function newWallet() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return { address: encodeBase58(raw), sign: (message: string) => encodeBase58(sign(null, Buffer.from(message, 'utf8'), privateKey)) };
}

describe('a proven wallet belongs to one person', () => {
  const t = ordersTest();
  const proveWith = async (wallet: ReturnType<typeof newWallet>, merchant: TestMerchant, receiverId: string) => {
    const issued = await t.call('POST', `/receivers/${receiverId}/wallet-ownership/challenges`, merchant, { walletAddress: wallet.address });
    expect(issued.statusCode, issued.body).toBe(201);
    const challenge = issued.json() as Json;
    const proved = await t.call('POST', `/receivers/${receiverId}/wallet-ownership/proofs`, merchant, { challengeId: challenge.challengeId, signature: wallet.sign(challenge.message) });
    return { proved, challenge };
  };

  it('refuses a second person’s proof of the wallet, under the same merchant and under another, and leaves the challenge unused', async () => {
    const wallet = newWallet();
    const [merchant, other] = [await t.merchant(), await t.merchant()];
    const first = await t.activeReceiver(merchant, { walletAddress: wallet.address });
    expect((await proveWith(wallet, merchant, first.id)).proved.statusCode).toBe(201);

    const second = await t.activeReceiver(merchant, { walletAddress: wallet.address });
    const refused = await proveWith(wallet, merchant, second.id);
    expectErrorBody(refused.proved, 409, 'WALLET_PROVEN_BY_ANOTHER_PERSON');
    expect(refused.proved.json().details).toMatchObject({ walletAddress: wallet.address });
    const challenge = await t.ctx.database.db.selectFrom('wallet_ownership_challenges').select('used_at').where('id', '=', refused.challenge.challengeId).executeTakeFirstOrThrow();
    expect(challenge.used_at).toBeNull();
    expect((await t.call('GET', `/receivers/${second.id}/wallet-ownership`, merchant)).json().data).toEqual([]);

    const elsewhere = await t.activeReceiver(other, { walletAddress: wallet.address });
    expectErrorBody((await proveWith(wallet, other, elsewhere.id)).proved, 409, 'WALLET_PROVEN_BY_ANOTHER_PERSON');
    const proofs = await t.ctx.database.db.selectFrom('wallet_ownership_proofs').select('receiver_id').where('wallet_address', '=', wallet.address).execute();
    expect(proofs).toEqual([{ receiver_id: first.id }]);
  });

  it('the same person (same document) may prove the wallet under another merchant, and again under the same receiver', async () => {
    const wallet = newWallet();
    const document = randomCpf();
    const [merchant, other] = [await t.merchant(), await t.merchant()];
    const first = await t.activeReceiver(merchant, { walletAddress: wallet.address, document });
    expect((await proveWith(wallet, merchant, first.id)).proved.statusCode).toBe(201);
    expect((await proveWith(wallet, merchant, first.id)).proved.statusCode).toBe(201);
    const samePerson = await t.activeReceiver(other, { walletAddress: wallet.address, document });
    const proved = await proveWith(wallet, other, samePerson.id);
    expect(proved.proved.statusCode, proved.proved.body).toBe(201);
  });

  it('two people proving one wallet at once: exactly one wins', async () => {
    const wallet = newWallet();
    const merchant = await t.merchant();
    const [a, b] = [await t.activeReceiver(merchant, { walletAddress: wallet.address }), await t.activeReceiver(merchant, { walletAddress: wallet.address })];
    const issue = async (receiverId: string) => (await t.call('POST', `/receivers/${receiverId}/wallet-ownership/challenges`, merchant, { walletAddress: wallet.address })).json() as Json;
    const [ca, cb] = [await issue(a.id), await issue(b.id)];
    const results = await Promise.all([
      t.call('POST', `/receivers/${a.id}/wallet-ownership/proofs`, merchant, { challengeId: ca.challengeId, signature: wallet.sign(ca.message) }),
      t.call('POST', `/receivers/${b.id}/wallet-ownership/proofs`, merchant, { challengeId: cb.challengeId, signature: wallet.sign(cb.message) }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });
});
