/**
 * Issue 26, item 5: one node for everything on chain. The managed wallets' JSON-RPC adapter
 * (SOLANA_RPC_URL), driven through the API against the chain simulator: a sign-and-send lands,
 * the sponsor pays exactly its fee, and a transaction smuggling a transfer out of the sponsor is
 * refused and costs it nothing. Balances are read through @solana/kit, never through the service.
 */
import { address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainSimulator, startChainSimulator } from '../../tools/chain-simulator/index.ts';
import { type TestContext, type TestMerchant, createTestContext } from '../helpers/app.ts';
import { type Rpc, simulatorRpc } from '../helpers/chain-simulator.ts';
import { randomCpf } from '../helpers/documents.ts';
import { buildTransaction, newAddress, transferSol } from '../modules/wallets/helpers.ts';

describe('managed wallets over SOLANA_RPC_URL, against the chain simulator', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let ctx: TestContext;
  let merchant: TestMerchant;

  beforeAll(async () => {
    sim = await startChainSimulator({ slotMs: 20, confirmedLag: 1, finalizedLag: 2 });
    rpc = simulatorRpc(sim.url);
    ctx = await createTestContext({ SOLANA_RPC_URL: sim.url });
    merchant = await ctx.createMerchant('Wallets on a node');
    await sim.airdrop(ctx.app.services.wallets.sponsorAddress, 2_000_000_000n);
  }, 60_000);

  afterAll(async () => {
    await ctx?.close();
    await sim?.close();
  });

  const lamports = async (who: string) => (await rpc.getBalance(address(who), { commitment: 'confirmed' }).send()).value;

  it('a sign-and-send lands and the sponsor pays exactly its fee; a drain of the sponsor is refused and costs nothing', async () => {
    expect(ctx.app.services.wallets.chain.kind).toBe('solana-rpc');
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/receivers',
      headers: merchant.headers,
      payload: { type: 'PF', document: randomCpf(), name: 'Ana Souza', email: 'ana@example.com', createManagedWallet: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const receiver = created.json() as { id: string; walletAddress: string };
    await ctx.app.services.receivers.decideKyc(receiver.id, { approved: true }, { actor: 'test' }, { allowFromPending: true });
    await sim.airdrop(receiver.walletAddress, 1_000_000_000n);
    const sponsor = ctx.app.services.wallets.sponsorAddress;
    const send = (transaction: string) =>
      ctx.app.inject({ method: 'POST', url: `/api/v1/receivers/${receiver.id}/wallet/sign-and-send-transaction`, headers: merchant.headers, payload: { transaction } });

    const sponsorBefore = await lamports(sponsor);
    const destination = newAddress();
    const sent = await send(buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, destination, 250_000_000n)]));
    expect(sent.statusCode, sent.body).toBe(200);
    const hash = sent.json().hash as string;
    for (let i = 0; i < 100 && (await ctx.app.services.wallets.chain.getSignatureStatuses([hash]))[0]?.status !== 'FINALIZED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await ctx.app.services.wallets.chain.getSignatureStatuses([hash])).toEqual([{ status: 'FINALIZED' }]);
    expect(await lamports(destination)).toBe(250_000_000n);
    // Two signatures (the sponsor's and the wallet's), no priority fee: 2 × 5,000 lamports.
    expect(sponsorBefore - (await lamports(sponsor))).toBe(10_000n);

    const smuggled = buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, destination, 1n), transferSol(sponsor, newAddress(), 500_000_000n)]);
    const refused = await send(smuggled);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({ error: 'TRANSACTION_REJECTED', details: { reason: 'SPONSOR_TRANSFER' } });
    expect(sponsorBefore - (await lamports(sponsor))).toBe(10_000n);
  });
});
