/**
 * A PAYIN the treasury cannot cover is refused before its PIX charge exists (issue 26, item 3;
 * docs/architecture/treasury.md "Liquidity"): 503 TREASURY_INSUFFICIENT_LIQUIDITY, no charge at
 * the PSP (its own table), no order. The check answers from memory: the node is read once per
 * TREASURY_BALANCE_MAX_AGE_MS, never per request. With the sandbox chain nothing changes (every
 * other orders test runs so).
 */
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { fakeTreasury } from '../treasury/helpers.ts';
import { ordersTest } from './helpers.ts';

const countOf = async (t: ReturnType<typeof ordersTest>, table: 'sandbox_pix_charges' | 'orders') =>
  Number((await t.ctx.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('PAYIN liquidity against an on-chain treasury', () => {
  const treasury = fakeTreasury({ SOL: '2', USDC: '0' });
  const t = ordersTest(() => ({}), { treasuryReader: treasury.reader });

  it('refuses before the PIX charge, counts open PAYINs, and reads the node once per balance age', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const payin = () => t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 54 });

    // An empty treasury: refused, and nothing exists at the PSP or in orders.
    const refused = await payin();
    const body = expectErrorBody(refused, 503, 'TREASURY_INSUFFICIENT_LIQUIDITY');
    expect(body.details).toEqual({ token: 'USDC' });
    expect(await countOf(t, 'sandbox_pix_charges')).toBe(0);
    expect(await countOf(t, 'orders')).toBe(0);
    expect(treasury.state.reads).toBe(1);

    // Funded on chain for one ~10 USDC order and a half: read again once the balance is old.
    treasury.set('USDC', '15');
    t.clock.advance(121_000);
    const first = await payin();
    expect(first.statusCode, first.body).toBe(201);
    expect(Number(first.json().amountCrypto)).toBeGreaterThan(7.5);
    expect(treasury.state.reads).toBe(2);

    // The first PAYIN still owes its tokens: a second does not fit, without reading the node.
    expectErrorBody(await payin(), 503, 'TREASURY_INSUFFICIENT_LIQUIDITY');
    expect(treasury.state.reads).toBe(2);
    // Recomputed from the database (owed by open PAYINs), with the node read again: still refused.
    t.clock.advance(121_000);
    expectErrorBody(await payin(), 503, 'TREASURY_INSUFFICIENT_LIQUIDITY');
    expect(treasury.state.reads).toBe(3);
    expect(await countOf(t, 'sandbox_pix_charges')).toBe(1);

    // Once the first PAYIN expired unpaid, it owes nothing: the next one fits.
    t.clock.advance(900_000);
    await t.drive(1);
    const again = await payin();
    expect(again.statusCode, again.body).toBe(201);
  });
});

describe('PAYIN liquidity when the node was never readable', () => {
  const treasury = fakeTreasury({ SOL: '2', USDC: '0' });
  treasury.state.failing = true;
  const t = ordersTest(() => ({}), { treasuryReader: treasury.reader });

  it('refuses the PAYIN (503 PROVIDER_UNAVAILABLE naming the chain): whether its tokens can leave is unknown (issue 40)', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const response = await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 54 });
    const body = expectErrorBody(response, 503, 'PROVIDER_UNAVAILABLE');
    expect(body.details).toEqual({ dependency: 'chain' });
    expect(body.message).not.toMatch(/getBalance|503/);
    expect(await countOf(t, 'sandbox_pix_charges')).toBe(0);
    expect(await countOf(t, 'orders')).toBe(0);
  });
});

describe('PAYIN liquidity when the node hangs', () => {
  const treasury = fakeTreasury({ SOL: '2', USDC: '0' });
  treasury.state.hanging = true;
  const t = ordersTest(() => ({}), { treasuryReader: treasury.reader });

  it('does not hold the request: past the wait limit the PAYIN is refused for want of a balance', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const started = Date.now();
    const response = await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 54 });
    expectErrorBody(response, 503, 'PROVIDER_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await countOf(t, 'orders')).toBe(0);
  });
});
