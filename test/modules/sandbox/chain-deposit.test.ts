/**
 * The sandbox deposit driver with CHAIN_PROVIDER=solana-rpc, against the chain simulator: POST
 * /sandbox/orders/{id}/deposit makes a real SPL transferChecked from the sandbox depositor to the
 * order's deposit address and answers 202 with its signature, the order untouched; the deposit
 * watcher then credits it once final, and the order goes on to COMPLETED. A depositor without
 * enough of the token is 422 SANDBOX_DEPOSITOR_UNFUNDED and sends nothing.
 */
import { type Address, address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { ordersRepo } from '../../../src/modules/orders/repo.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { ata, type Rpc, statusOf, solanaRpcSettings, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const FINALIZED_LAG = 3;

describe('POST /sandbox/orders/{id}/deposit on the chain simulator', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let usdc: Address;

  beforeAll(async () => {
    ({ sim, rpc, usdc } = await startHandClockedChain(FINALIZED_LAG));
  });
  afterAll(() => sim?.close());

  const t = ordersTest(() => solanaRpcSettings(sim.url, usdc));
  const db = () => t.ctx.database.db;
  const orderOf = async (order: Json) => (await ordersRepo.find(db(), order.id as string))!;

  async function payout(amountCrypto: number) {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto, sourceToken: 'USDC' });
    return { merchant, order };
  }

  it('the depositor is shown with its balances; unfunded, a deposit is 422 SANDBOX_DEPOSITOR_UNFUNDED and nothing is sent', async () => {
    const { merchant, order } = await payout(10);
    const shown = await t.call('GET', '/sandbox/chain/depositor', merchant);
    expect(shown.statusCode, shown.body).toBe(200);
    const depositor = shown.json();
    expect(depositor).toMatchObject({ token: 'USDC', amount: '0', tokenAccount: await ata(address(depositor.address), usdc) });
    const sentBefore = sim.state().transactions.sent;
    const refused = await t.call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, {});
    expect(expectErrorBody(refused, 422, 'SANDBOX_DEPOSITOR_UNFUNDED').details).toEqual({ depositor: depositor.address, token: 'USDC', balance: '0', needed: '10' });
    expect(sim.state().transactions.sent).toBe(sentBefore);
    expect((await t.call('GET', '/sandbox/chain/depositor?token=XYZ', merchant)).statusCode).toBe(400);
  });

  it('sends a real transfer (202, signature; several at once), the watcher credits it once final: DEPOSIT_RECEIVED, then COMPLETED', async () => {
    const { merchant, order } = await payout(20);
    const depositor = (await t.call('GET', '/sandbox/chain/depositor', merchant)).json();
    // The operator's part: the token minted to the depositor (its SOL it asks the faucet for itself).
    await sim.mintTo({ mint: usdc, owner: depositor.address, amount: 100_000_000n });

    // Sent together with two others: the depositor, without SOL yet, asks the faucet once.
    const others = [await payout(5), await payout(5)];
    const [sent, ...rest] = await Promise.all([order, ...others.map((o) => o.order)].map((o, i) => t.call('POST', `/sandbox/orders/${o.id}/deposit`, i === 0 ? merchant : others[i - 1]!.merchant, {})));
    for (const response of [sent!, ...rest]) expect(response.statusCode, response.body).toBe(202);
    const answer = sent!.json();
    expect(answer).toMatchObject({ orderId: order.id, depositAddress: order.depositAddress, depositor: depositor.address, token: 'USDC', amount: '20', status: 'SENT' });
    // Not applied by the driver: the order waits for the watcher.
    expect((await orderOf(order)).status).toBe('AWAITING_DEPOSIT');
    sim.advanceSlots(FINALIZED_LAG + 1);
    expect(await statusOf(rpc, answer.signature)).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    await t.ctx.app.services.depositWatcher!.runPass();
    expect(await orderOf(order)).toMatchObject({ status: 'DEPOSIT_RECEIVED', tx_hash: answer.signature });
    for (const other of others) expect((await orderOf(other.order)).status).toBe('DEPOSIT_RECEIVED');
    await t.drive();
    expect((await orderOf(order)).status).toBe('COMPLETED');
    const after = (await t.call('GET', '/sandbox/chain/depositor', merchant)).json();
    expect(after.amount).toBe('70');
  });

  it('a partial amount is sent as asked and re-priced by the orders rules once credited', async () => {
    const { merchant, order } = await payout(100);
    const sent = await t.call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, { amountCrypto: 50 });
    expect(sent.statusCode, sent.body).toBe(202);
    sim.advanceSlots(FINALIZED_LAG + 1);
    await t.ctx.app.services.depositWatcher!.runPass();
    expect(await orderOf(order)).toMatchObject({ status: 'DEPOSIT_RECEIVED', amount_token: '50.000000000' });
    // The order has its deposit: the driver refuses another.
    expect((await t.call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, {})).statusCode).toBe(409);
  });
});
