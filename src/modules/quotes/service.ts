/**
 * Quotes (DESIGN.md §10): a price locked for QUOTE_TTL_SECONDS that at most one order may use.
 * This module also prices every order, with its quote's locked rate and fees when it names one,
 * else with the current rate and the merchant's current tier, so a quote and an order priced
 * from the same inputs can never disagree. The formulas themselves are src/lib/pricing.ts.
 */
import type { Static } from 'typebox';
import { inTransaction } from '../../platform/commit-signals.ts';
import { type PriceSource, PriceUnavailableError } from '../../adapters/prices/port.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { IdempotentRequest } from '../../platform/idempotency/claim.ts';
import type { OrderType } from '../../lib/order-types.ts';
import type { QuoteRow } from './tables.ts';
import { AppError, invalidField, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { decimal, toJsonNumber } from '../../lib/money.ts';
import type { MarkupTerms } from '../../lib/markup.ts';
import { type FeeRates, NothingLeftError, type Pricing, payinAmountForToken, payoutTokenForNetBrl, pricePayin, pricePayout } from '../../lib/pricing.ts';
import { markupColumns, markupTermsOf, toOrderMarkup } from '../markups/view.ts';
import type { ReceiversService } from '../receivers/service.ts';
import { quotesRepo as repo } from './repo.ts';
import type { QuoteBody, QuoteSchema } from './schemas.ts';
import { type TradeSettings, createTradeRules } from './trade-rules.ts';

export type Quote = Static<typeof QuoteSchema>;
export type { TradeRules } from './trade-rules.ts';

/**
 * The fee rates in force for a merchant and order type: its tier for the volume it completed
 * this month. Counting that volume is the orders' business, so the composition root passes it in.
 */
export type CurrentFeeRates = (merchantId: string, type: OrderType, monthVolumeBrl?: string) => Promise<FeeRates>;

export interface QuotesDeps {
  db: Db;
  clock: Clock;
  /** The trade rules' settings, and how long a quote holds its price. */
  settings: TradeSettings & { quoteTtlSeconds: number };
  prices: PriceSource;
  receivers: Pick<ReceiversService, 'findForOrder'>;
  currentFeeRates: CurrentFeeRates;
  /** The merchant's partner markup in force for an order type (markups module). */
  markupTerms: (merchantId: string, type: OrderType) => Promise<MarkupTerms>;
}

/** What an order asks to be priced. A PAYIN fixes the BRL the customer pays, a PAYOUT the tokens deposited. */
export type OrderToPrice = {
  type: OrderType;
  chain: string;
  token: string;
  tokenDecimals: number;
  receiverId: string;
  quoteId?: string | undefined;
} & ({ type: 'PAYIN'; amountBrl: string } | { type: 'PAYOUT'; amountToken: string });

export interface OrderPrice {
  priced: Pricing;
  rates: FeeRates;
  markup: MarkupTerms;
}

/** The columns quotes and orders share: amounts, rate and fees, as decimal text (fees as fractions). */
export function pricingColumns({ priced, rates, markup }: OrderPrice) {
  return {
    amount_brl: priced.amountBrl,
    amount_token: priced.amountToken,
    exchange_rate: priced.exchangeRate,
    platform_fee_percentage: rates.platformFeePercentage,
    merchant_fee_percentage: rates.merchantFeePercentage,
    platform_fee_amount_brl: priced.platformFeeAmountBrl,
    merchant_fee_amount_brl: priced.merchantFeeAmountBrl,
    net_amount_brl: priced.netAmountBrl,
    ...markupColumns(markup, priced.markupAmountBrl),
  };
}

function toQuote(row: QuoteRow): Quote {
  return {
    id: row.id,
    type: row.type,
    chain: row.chain,
    token: row.token,
    receiverId: row.receiver_id,
    exchangeRate: toJsonNumber(row.exchange_rate),
    amountBrl: toJsonNumber(row.amount_brl),
    amountCrypto: toJsonNumber(row.amount_token),
    // Fractions, as stored and as fee tiers show them (http/schemas.ts FeeFraction).
    feePercentage: toJsonNumber(decimal(row.platform_fee_percentage).plus(row.merchant_fee_percentage)),
    platformFeePercentage: toJsonNumber(row.platform_fee_percentage),
    merchantFeePercentage: toJsonNumber(row.merchant_fee_percentage),
    platformFeeAmountBrl: toJsonNumber(row.platform_fee_amount_brl),
    merchantFeeAmountBrl: toJsonNumber(row.merchant_fee_amount_brl),
    netAmountBrl: toJsonNumber(row.net_amount_brl),
    markup: toOrderMarkup(row),
    expiresAt: row.expires_at.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}

const quoteExpired = (quote: QuoteRow) => new AppError('QUOTE_EXPIRED', 'The quote has expired; request a new one', { expiresAt: quote.expires_at.toISOString() });

/**
 * Prices with a markup that may take the whole amount: then 400 on the amount field (`field`), as
 * an amount outside the order bounds is, since a larger amount would do.
 */
function priceOrRefuse(field: string, price: () => Pricing): Pricing {
  try {
    return price();
  } catch (err) {
    if (err instanceof NothingLeftError) throw invalidField(field, "leaves nothing once the fees and the merchant's markup are taken; send a larger amount");
    throw err;
  }
}

/** An order's fixed amount priced by the PAYIN or PAYOUT formula at a rate, fees and markup. */
function priceAt(order: OrderToPrice, exchangeRate: string, rates: FeeRates, markup: MarkupTerms): Pricing {
  const input = { exchangeRate, tokenDecimals: order.tokenDecimals, rates, markup };
  return order.type === 'PAYIN'
    ? priceOrRefuse('body.amountBrl', () => pricePayin({ ...input, amountBrl: order.amountBrl }))
    : priceOrRefuse('body.amountCrypto', () => pricePayout({ ...input, amountToken: order.amountToken }));
}

/** Whether a quote was made for this order: same type, token, chain, receiver (if it named one) and amount. */
function quoteFits(quote: QuoteRow, order: OrderToPrice): boolean {
  return (
    quote.type === order.type &&
    quote.token === order.token &&
    quote.chain === order.chain &&
    (quote.receiver_id === null || quote.receiver_id === order.receiverId) &&
    (order.type === 'PAYIN' ? decimal(quote.amount_brl).eq(order.amountBrl) : decimal(quote.amount_token).eq(order.amountToken))
  );
}

export function createQuotesService(deps: QuotesDeps) {
  const { db, clock, settings } = deps;
  const tradeRules = createTradeRules(settings);

  /** The rate to trade at now; no fresh price is 503 PRICE_UNAVAILABLE (the source's own words stay in the logs). */
  async function currentRate(token: string, type: OrderType): Promise<string> {
    try {
      return await deps.prices.getRate(token, type);
    } catch (err) {
      if (!(err instanceof PriceUnavailableError)) throw err;
      const unavailable = new AppError('PRICE_UNAVAILABLE', `No current price for ${token}; nothing was priced. Retry later.`, { token });
      unavailable.cause = err; // logged with the 503, never sent
      throw unavailable;
    }
  }

  /**
   * The quote an order names, checked without taking it: this merchant's, unexpired, made for
   * this order, unused. `consume` takes it later, in the order's transaction.
   */
  async function usableQuote(merchantId: string, quoteId: string, order: OrderToPrice): Promise<QuoteRow> {
    const quote = await repo.find(db, merchantId, quoteId);
    if (!quote) throw notFound('Quote');
    if (quote.expires_at <= clock.now()) throw quoteExpired(quote);
    if (!quoteFits(quote, order)) throw new AppError('QUOTE_INVALID', 'The quote does not match this order (type, token, chain, receiver or amount)', { quoteId });
    if (quote.used_by_order_id !== null) throw new AppError('QUOTE_INVALID', 'The quote was already used by another order', { quoteId });
    return quote;
  }

  return {
    /** The chains, tokens and amounts orders accept: the same rules quotes are made under. */
    tradeRules,

    /** With `claim`, the Idempotency-Key's answer commits with the quote. */
    async quote(merchantId: string, body: Static<typeof QuoteBody>, claim?: IdempotentRequest): Promise<Quote> {
      const chain = body.chain ?? 'solana';
      const token = body.token ?? 'USDC';
      tradeRules.checkChain(chain);
      const decimals = tradeRules.tokenDecimals(token, 'body.token');
      if ((body.amountBrl === undefined) === (body.amountCrypto === undefined)) {
        throw new AppError('VALIDATION_ERROR', 'Send exactly one of amountBrl and amountCrypto', { body: 'exactly one of amountBrl and amountCrypto' });
      }
      if (body.amountBrl !== undefined) tradeRules.checkDecimals(body.amountBrl, 2, 'body.amountBrl');
      if (body.amountCrypto !== undefined) tradeRules.checkDecimals(body.amountCrypto, decimals, 'body.amountCrypto');
      if (body.receiverId !== undefined && !(await deps.receivers.findForOrder(db, merchantId, body.receiverId))) throw notFound('Receiver');
      const exchangeRate = await currentRate(token, body.type);
      const [rates, markup] = await Promise.all([deps.currentFeeRates(merchantId, body.type), deps.markupTerms(merchantId, body.type)]);
      const input = { exchangeRate, tokenDecimals: decimals, rates, markup };
      const field = body.amountBrl !== undefined ? 'body.amountBrl' : 'body.amountCrypto';
      const priced = priceOrRefuse(field, () => {
        if (body.type === 'PAYIN') {
          return body.amountBrl !== undefined ? pricePayin({ ...input, amountBrl: decimal(body.amountBrl).toFixed(2) }) : payinAmountForToken({ ...input, amountToken: decimal(body.amountCrypto!).toFixed(decimals) });
        }
        return body.amountCrypto !== undefined ? pricePayout({ ...input, amountToken: decimal(body.amountCrypto).toFixed(decimals) }) : payoutTokenForNetBrl({ ...input, netAmountBrl: decimal(body.amountBrl!).toFixed(2) });
      });
      tradeRules.checkBrlRange(priced.amountBrl, body.amountBrl !== undefined ? 'body.amountBrl' : 'body.amountCrypto');
      const now = clock.now();
      return inTransaction(db, async (trx) => {
        const row = await repo.insert(trx, {
          id: newId(),
          merchant_id: merchantId,
          receiver_id: body.receiverId ?? null,
          type: body.type,
          chain,
          token,
          ...pricingColumns({ priced, rates, markup }),
          expires_at: new Date(now.getTime() + settings.quoteTtlSeconds * 1000),
          created_at: now,
        });
        // An Idempotency-Key's answer commits with the quote (docs/architecture/idempotency.md).
        const quote = toQuote(row);
        await claim?.complete(trx, { status: 201, body: quote });
        return quote;
      });
    },

    /**
     * The price an order gets, read-only (before the order's provider call): its quote's locked
     * rate and fees when it names one, which must be usable (404, 422 QUOTE_EXPIRED or
     * QUOTE_INVALID), else the current rate and the merchant's current tier (for its completed
     * volume this month, when the caller has already read it).
     */
    async priceOrder(merchantId: string, order: OrderToPrice, monthVolumeBrl?: string): Promise<OrderPrice> {
      if (order.quoteId !== undefined) {
        const quote = await usableQuote(merchantId, order.quoteId, order);
        const rates = { platformFeePercentage: quote.platform_fee_percentage, merchantFeePercentage: quote.merchant_fee_percentage };
        // The quote's markup, not the merchant's terms of now: a quote locks its price whole.
        const markup = markupTermsOf(quote);
        return { priced: priceAt(order, quote.exchange_rate, rates, markup), rates, markup };
      }
      const exchangeRate = await currentRate(order.token, order.type);
      const [rates, markup] = await Promise.all([deps.currentFeeRates(merchantId, order.type, monthVolumeBrl), deps.markupTerms(merchantId, order.type)]);
      return { priced: priceAt(order, exchangeRate, rates, markup), rates, markup };
    },

    /**
     * In the order's transaction: the quote becomes this order's, or the order is refused because
     * another order took it, or it expired, since `priceOrder` checked it.
     */
    async consume(trx: Trx, input: { merchantId: string; quoteId: string; orderId: string; now: Date }): Promise<void> {
      if (await repo.consume(trx, { merchantId: input.merchantId, id: input.quoteId, orderId: input.orderId, now: input.now })) return;
      const quote = await repo.find(trx, input.merchantId, input.quoteId);
      if (!quote) throw notFound('Quote');
      if (quote.expires_at <= input.now) throw quoteExpired(quote);
      throw new AppError('QUOTE_INVALID', 'The quote was already used by another order', { quoteId: input.quoteId });
    },
  };
}

export type QuotesService = ReturnType<typeof createQuotesService>;
