/**
 * The test context of the managed wallet route tests (kept apart from helpers.ts, which bench/wallet-loop.ts
 * also imports outside Vitest).
 */
import { expect } from 'vitest';
import { type TestMerchant, createTestContext } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';

export const SOL = 1_000_000_000n;

export type WalletsFixture = Awaited<ReturnType<typeof createWalletsFixture>>;

/**
 * A fresh test context with two merchants, a receiver (KYC approved, ACTIVE) with a managed wallet
 * holding 2 SOL on the sandbox chain, the sponsor (fee payer) address, and the calls the wallet route tests make.
 */
export async function createWalletsFixture() {
  const ctx = await createTestContext();
  const merchant = await ctx.createMerchant('Wallet Merchant');
  const other = await ctx.createMerchant('Other Merchant');

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown, who: TestMerchant = merchant) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  const createReceiver = async (body: Record<string, unknown>, who: TestMerchant = merchant) => {
    const response = await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Maria Silva', email: 'maria@example.com', ...body }, who);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const balance = async (addr: string) => {
    const response = await call('GET', `/sandbox/wallet/balances/${addr}`);
    expect(response.statusCode, response.body).toBe(200);
    return BigInt(response.json().lamports);
  };
  const airdrop = async (addr: string, lamports: bigint) => {
    const response = await call('POST', '/sandbox/wallet/airdrop', { address: addr, lamports: Number(lamports) });
    expect(response.statusCode, response.body).toBe(200);
  };

  /** The sandbox's KYC decision (from PENDING): APPROVE makes the receiver ACTIVE. */
  const decideKyc = async (receiverId: string, decision: 'APPROVE' | 'REJECT', who: TestMerchant = merchant) => {
    const response = await call('POST', `/sandbox/receivers/${receiverId}/kyc`, decision === 'APPROVE' ? { decision } : { decision, reason: 'Blurry selfie' }, who);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  /** A receiver with a managed wallet that may sign: KYC APPROVED, ACTIVE. */
  const createSigningReceiver = async (who: TestMerchant = merchant): Promise<{ id: string; walletAddress: string }> => {
    const created = await createReceiver({ createManagedWallet: true }, who);
    expect(await decideKyc(created.id, 'APPROVE', who)).toMatchObject({ kycStatus: 'APPROVED', status: 'ACTIVE' });
    return created;
  };

  const receiver = await createSigningReceiver();
  const sponsor: string = (await ctx.app.inject({ url: '/api/v1/wallet/fee-payer' })).json().address;
  await airdrop(receiver.walletAddress, 2n * SOL);

  const sign = (transaction: string, receiverId = receiver.id, who = merchant) =>
    call('POST', `/receivers/${receiverId}/wallet/sign-transaction`, { transaction }, who);
  const send = (transaction: string, receiverId = receiver.id, who = merchant) =>
    call('POST', `/receivers/${receiverId}/wallet/sign-and-send-transaction`, { transaction }, who);

  return { ctx, merchant, other, receiver, sponsor, call, createReceiver, decideKyc, createSigningReceiver, balance, airdrop, sign, send };
}
