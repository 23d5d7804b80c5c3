/**
 * PRICE_SOURCE=http through the API, against a price server on loopback: quotes and orders carry
 * the source's rate with the spread (PAYIN up, PAYOUT down) and amounts computed from exactly
 * that rate; with no fresh price, POST /quotes, /payin and /payout answer 503 PRICE_UNAVAILABLE
 * and create nothing, while an order naming a quote made earlier keeps the quote's locked rate.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { type PriceServer, startPriceServer } from '../../helpers/price-server.ts';
import { NOON_SP, ordersTest } from './helpers.ts';

const MAX_AGE_MS = 20_000;

describe('HTTP price source through quotes and orders', () => {
  let server: PriceServer;
  beforeAll(async () => {
    server = await startPriceServer();
  });
  afterAll(() => server.close());
  const t = ordersTest(() => ({ PRICE_SOURCE: 'http', PRICE_URL: server.url, PRICE_MAX_AGE_MS: String(MAX_AGE_MS), PRICE_SPREAD: '0.01' }));
  beforeEach(async () => {
    await server.up();
    server.answer({ rates: { USDC: '5.40' }, timestamp: NOON_SP });
  });

  const orderCount = async () => Number((await t.ctx.database.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('prices with the spread, exactly: PAYIN at 5.454, PAYOUT at 5.346', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const payinQuote = (await t.call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 250 })).json();
    // 250 − 1.25 (0.5 %) = 248.75 BRL; ÷ 5.454 = 45.608727…, rounded down to 6 decimals.
    expect(payinQuote).toMatchObject({ exchangeRate: 5.454, amountBrl: 250, netAmountBrl: 248.75, amountCrypto: 45.608727 });
    const payin = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 250 });
    expect(payin).toMatchObject({ exchangeRate: 5.454, amountCrypto: 45.608727 });
    const payoutQuote = (await t.call('POST', '/quotes', merchant, { type: 'PAYOUT', amountCrypto: 10 })).json();
    // 10 × 5.346 = 53.46 BRL gross; 0.27 fee (0.5 %, half-even) leaves 53.19.
    expect(payoutQuote).toMatchObject({ exchangeRate: 5.346, amountBrl: 53.46, platformFeeAmountBrl: 0.27, netAmountBrl: 53.19 });
    const payout = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' });
    expect(payout).toMatchObject({ exchangeRate: 5.346, amountBrl: 53.46, netAmountBrl: 53.19 });
    const stored = await t.ctx.database.db.selectFrom('orders').select(['exchange_rate']).where('id', 'in', [payin.id, payout.id]).orderBy('type').execute();
    expect(stored.map((row) => String(row.exchange_rate))).toEqual(['5.45400000', '5.34600000']);
  });

  it('a stale price: 503 PRICE_UNAVAILABLE on /quotes, /payin and /payout, and nothing created; a quote made before still holds', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver('Loja Stale');
    const quote = (await t.call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 100, receiverId: receiver.id })).json();
    t.clock.advance(MAX_AGE_MS + 1);
    // The source answers, but with the same old timestamp: still too old.
    const before = await orderCount();
    for (const [url, body] of [
      ['/quotes', { type: 'PAYOUT', amountCrypto: 10 }],
      ['/payin', { receiverId: receiver.id, amountBrl: 100 }],
      ['/payout', { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' }],
    ] as const) {
      const refused = expectErrorBody(await t.call('POST', url, merchant, body), 503, 'PRICE_UNAVAILABLE');
      expect(JSON.stringify(refused), url).not.toMatch(/ old|\d+ ms|127\.0\.0\.1|failure/);
    }
    expect(await orderCount()).toBe(before);
    // Within the quote's 30 s, its locked rate needs no current price.
    const quoted = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 100, quoteId: quote.id });
    expect(quoted.exchangeRate).toBe(5.454);
  });

  it('the source down: prices until the last price is older than the maximum age, then 503, and recovers', async () => {
    const { merchant } = await t.merchantWithReceiver('Loja Down');
    t.clock.advance(3_600_000); // past every price and fetch attempt of the earlier tests
    server.answer({ rates: { USDC: '5.40' }, timestamp: t.clock.now().toISOString() });
    expect((await t.call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 50 })).statusCode).toBe(201);
    await server.down();
    t.clock.advance(MAX_AGE_MS);
    expect((await t.call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 50 })).json().exchangeRate).toBe(5.454);
    t.clock.advance(1);
    expectErrorBody(await t.call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 50 }), 503, 'PRICE_UNAVAILABLE');
    await server.up();
    server.answer({ rates: { USDC: '5.50' }, timestamp: t.clock.now().toISOString() });
    t.clock.advance(1000);
    expect((await t.call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 50 })).json().exchangeRate).toBe(5.555);
  });
});
