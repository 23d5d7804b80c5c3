/**
 * Quotes, order creation (PAYIN and PAYOUT) and order reads. Creation prices the order and makes
 * the provider call (PIX charge or deposit address) first, then, in one short transaction, checks
 * every rule of issue 4 ("Rules at creation"), reserves the receiver's daily limits atomically
 * and inserts the order already AWAITING_PAYMENT or AWAITING_DEPOSIT. A provider failure means no
 * order (503); a refused order leaves an unused charge or address behind to expire.
 */
import type { Static } from 'typebox';
import type { ChainAdapter } from '../../adapters/chain/port.ts';
import type { PixProvider } from '../../adapters/pix/port.ts';
import type { PriceSource } from '../../adapters/prices/port.ts';
import type { OrderSettings } from '../../config.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { OrderRow } from './tables.ts';
import type { OrderType } from '../../lib/order-types.ts';
import type { QuoteRow } from '../quotes/tables.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { decimal, hasAtMostDecimals, toFixedText, toJsonNumber } from '../../lib/money.ts';
import { validatePixKey } from '../../lib/pix-keys.ts';
import { type FeeRates, type Pricing, payinAmountForToken, payoutTokenForNetBrl, pricePayin, pricePayout } from '../../lib/pricing.ts';
import { inSaoPauloWindow, parseClockTime, saoPauloDay, saoPauloMonthStart } from '../../lib/sao-paulo-time.ts';
import { isSolanaAddress } from '../../lib/solana.ts';
import type { FeeTiersService } from '../fee-tiers/service.ts';
import type { Receiver, ReceiversService } from '../receivers/service.ts';
import { newTxid } from '../../adapters/pix/identifiers.ts';
import { ordersRepo as repo } from './repo.ts';
import type { PayinBody, PayoutBody, QuoteBody, QuoteSchema } from './schemas.ts';
import { type Order, percent, toOrder } from './view.ts';

export type Quote = Static<typeof QuoteSchema>;

export interface OrdersDeps {
  db: Db;
  clock: Clock;
  settings: OrderSettings;
  pix: PixProvider;
  chain: ChainAdapter;
  prices: PriceSource;
  feeTiers: Pick<FeeTiersService, 'tierForVolume'>;
  receivers: Pick<ReceiversService, 'findForOrder'>;
}

const invalid = (field: string, problem: string) => new AppError('VALIDATION_ERROR', `${field.replace(/^body\./, '')} ${problem}`, { [field]: problem });

/** The columns quotes and orders share: amounts, rate and fees, as decimal text. */
function pricingColumns(priced: Pricing, rates: FeeRates) {
  return {
    amount_brl: priced.amountBrl,
    amount_token: priced.amountToken,
    exchange_rate: priced.exchangeRate,
    platform_fee_percentage: rates.platformFeePercentage,
    merchant_fee_percentage: rates.merchantFeePercentage,
    platform_fee_amount_brl: priced.platformFeeAmountBrl,
    merchant_fee_amount_brl: priced.merchantFeeAmountBrl,
    net_amount_brl: priced.netAmountBrl,
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
    feePercentage: percent(decimal(row.platform_fee_percentage).plus(row.merchant_fee_percentage)),
    platformFeePercentage: percent(row.platform_fee_percentage),
    merchantFeePercentage: percent(row.merchant_fee_percentage),
    platformFeeAmountBrl: toJsonNumber(row.platform_fee_amount_brl),
    merchantFeeAmountBrl: toJsonNumber(row.merchant_fee_amount_brl),
    netAmountBrl: toJsonNumber(row.net_amount_brl),
    expiresAt: row.expires_at.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}

export function createOrdersService(deps: OrdersDeps) {
  const { db, clock, settings } = deps;
  const night = { startMinute: parseClockTime(settings.nightStart), endMinute: parseClockTime(settings.nightEnd) };

  function tokenDecimals(token: string, field: string): number {
    const decimals = settings.tokens[token];
    if (decimals === undefined) throw invalid(field, `must be one of ${Object.keys(settings.tokens).join(', ')}`);
    return decimals;
  }

  function checkChain(chain: string): void {
    if (!settings.chains.includes(chain)) throw invalid('body.chain', `must be one of ${settings.chains.join(', ')}`);
  }

  function checkBrlRange(amountBrl: string, field: string): void {
    if (decimal(amountBrl).lt(settings.minAmountBrl) || decimal(amountBrl).gt(settings.maxAmountBrl)) {
      throw invalid(field, `must be between ${settings.minAmountBrl} and ${settings.maxAmountBrl} BRL`);
    }
  }

  /** The fee rates in force for this merchant: its tier by completed volume this São Paulo month. */
  async function currentRates(executor: Db, merchantId: string, type: OrderType): Promise<FeeRates> {
    const volume = await repo.completedVolume(executor, merchantId, type, saoPauloMonthStart(clock.now()));
    return deps.feeTiers.tierForVolume(merchantId, type, volume, executor);
  }

  /** Receiver rules at creation: exists for this merchant, ACTIVE, KYC approved, night rule. */
  async function checkReceiver(trx: Trx, merchantId: string, receiverId: string): Promise<Receiver> {
    const receiver = await deps.receivers.findForOrder(trx, merchantId, receiverId);
    if (!receiver) throw notFound('Receiver');
    if (receiver.kycStatus !== 'APPROVED') {
      throw new AppError('KYC_NOT_APPROVED', `Receiver KYC is ${receiver.kycStatus}; orders need APPROVED`, { kycStatus: receiver.kycStatus });
    }
    if (receiver.status !== 'ACTIVE') {
      throw new AppError('RECEIVER_NOT_ACTIVE', `Receiver is ${receiver.status}; orders need ACTIVE`, { status: receiver.status });
    }
    if (!receiver.limits.nightTransactionsEnabled && inSaoPauloWindow(clock.now(), night)) {
      throw new AppError('NIGHT_TRANSACTIONS_DISABLED', `Receiver does not allow transactions between ${settings.nightStart} and ${settings.nightEnd} (America/Sao_Paulo)`, {
        nightStart: settings.nightStart,
        nightEnd: settings.nightEnd,
      });
    }
    return receiver;
  }

  /** Counts the order against today's limits, atomically with the insert that follows. */
  async function reserveLimits(trx: Trx, receiver: Receiver, amountBrl: string, day: string): Promise<void> {
    const { dailyLimitBrl, dailyTransactionLimit } = receiver.limits;
    const reserved = await repo.reserveDailyUsage(trx, {
      receiverId: receiver.id,
      day,
      amountBrl,
      maxCount: dailyTransactionLimit,
      maxAmountBrl: dailyLimitBrl === null ? null : toFixedText(dailyLimitBrl, 2),
    });
    if (!reserved) {
      throw new AppError('LIMIT_EXCEEDED', 'The order exceeds the receiver’s daily limits (America/Sao_Paulo calendar day)', {
        dailyLimitBrl,
        dailyTransactionLimit,
      });
    }
  }

  /** A quote given for this order: this merchant's, unexpired, unused, same type, amount and receiver. */
  async function useQuote(trx: Trx, merchantId: string, quoteId: string, expect: { type: OrderType; receiverId: string; token: string; chain: string; amount: { brl?: string; token?: string } }, orderId: string) {
    const quote = await repo.lockQuote(trx, merchantId, quoteId);
    if (!quote) throw notFound('Quote');
    if (quote.expires_at <= clock.now()) throw new AppError('QUOTE_EXPIRED', 'The quote has expired; request a new one', { expiresAt: quote.expires_at.toISOString() });
    const mismatch =
      quote.type !== expect.type ||
      quote.token !== expect.token ||
      quote.chain !== expect.chain ||
      (quote.receiver_id !== null && quote.receiver_id !== expect.receiverId) ||
      (expect.amount.brl !== undefined && !decimal(quote.amount_brl).eq(expect.amount.brl)) ||
      (expect.amount.token !== undefined && !decimal(quote.amount_token).eq(expect.amount.token));
    if (mismatch) throw new AppError('QUOTE_INVALID', 'The quote does not match this order (type, token, chain, receiver or amount)', { quoteId });
    if (!(await repo.markQuoteUsed(trx, quote.id, orderId)).numUpdatedRows) {
      throw new AppError('QUOTE_INVALID', 'The quote was already used by another order', { quoteId });
    }
    return quote;
  }

  async function checkExternalId(trx: Trx, merchantId: string, externalId: string | undefined) {
    if (externalId === undefined) return;
    const existing = await repo.findByExternalId(trx, merchantId, externalId);
    if (existing) throw new AppError('CONFLICT', 'An order with this externalId already exists', { existingOrderId: existing.id });
  }

  async function view(rows: OrderRow[]): Promise<Order[]> {
    if (rows.length === 0) return [];
    const [transactions, [merchant, receivers]] = await Promise.all([
      repo.transactionsOf(db, rows.map((row) => row.id)),
      repo.names(db, rows[0]!.merchant_id, rows.map((row) => row.receiver_id)),
    ]);
    const receiverNames = new Map(receivers.map((r) => [r.id, r.name]));
    return rows.map((row) =>
      toOrder(
        row,
        transactions.filter((tx) => tx.order_id === row.id),
        { merchantName: merchant.name, receiverName: receiverNames.get(row.receiver_id) ?? '' },
      ),
    );
  }

  const viewOne = async (row: OrderRow) => (await view([row]))[0]!;

  /** A provider call at creation: its failure means no order was created (503, retry later). */
  async function fromProvider<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('PROVIDER_UNAVAILABLE', `${what}; the order was not created. Retry later.`, { cause: String((err as Error).message ?? err) });
    }
  }

  return {
    async quote(merchantId: string, body: Static<typeof QuoteBody>): Promise<Quote> {
      const chain = body.chain ?? 'solana';
      const token = body.token ?? 'USDC';
      checkChain(chain);
      const decimals = tokenDecimals(token, 'body.token');
      if ((body.amountBrl === undefined) === (body.amountCrypto === undefined)) {
        throw new AppError('VALIDATION_ERROR', 'Send exactly one of amountBrl and amountCrypto', { body: 'exactly one of amountBrl and amountCrypto' });
      }
      if (body.amountBrl !== undefined && !hasAtMostDecimals(body.amountBrl, 2)) throw invalid('body.amountBrl', 'must have at most 2 decimals');
      if (body.amountCrypto !== undefined && !hasAtMostDecimals(body.amountCrypto, decimals)) throw invalid('body.amountCrypto', `must have at most ${decimals} decimals`);
      if (body.receiverId !== undefined) {
        const receiver = await deps.receivers.findForOrder(db, merchantId, body.receiverId);
        if (!receiver) throw notFound('Receiver');
      }
      const exchangeRate = await deps.prices.getRate(token);
      const rates = await currentRates(db, merchantId, body.type);
      const input = { exchangeRate, tokenDecimals: decimals, rates };
      let priced: Pricing;
      if (body.type === 'PAYIN') {
        priced = body.amountBrl !== undefined ? pricePayin({ ...input, amountBrl: decimal(body.amountBrl).toFixed(2) }) : payinAmountForToken({ ...input, amountToken: decimal(body.amountCrypto!).toFixed(decimals) });
      } else {
        priced = body.amountCrypto !== undefined ? pricePayout({ ...input, amountToken: decimal(body.amountCrypto).toFixed(decimals) }) : payoutTokenForNetBrl({ ...input, netAmountBrl: decimal(body.amountBrl!).toFixed(2) });
      }
      checkBrlRange(priced.amountBrl, body.amountBrl !== undefined ? 'body.amountBrl' : 'body.amountCrypto');
      const now = clock.now();
      const row = await repo.insertQuote(db, {
        id: newId(),
        merchant_id: merchantId,
        receiver_id: body.receiverId ?? null,
        type: body.type,
        chain,
        token,
        ...pricingColumns(priced, rates),
        expires_at: new Date(now.getTime() + settings.quoteTtlSeconds * 1000),
        created_at: now,
      });
      return toQuote(row);
    },

    async createPayin(merchantId: string, body: Static<typeof PayinBody>): Promise<Order> {
      const chain = body.chain ?? 'solana';
      const token = body.targetToken ?? 'USDC';
      checkChain(chain);
      const decimals = tokenDecimals(token, 'body.targetToken');
      if (!hasAtMostDecimals(body.amountBrl, 2)) throw invalid('body.amountBrl', 'must have at most 2 decimals');
      const amountBrl = decimal(body.amountBrl).toFixed(2);
      checkBrlRange(amountBrl, 'body.amountBrl');
      if (body.destinationWallet !== undefined && !isSolanaAddress(body.destinationWallet)) {
        throw invalid('body.destinationWallet', 'must be a Solana address (base58, 32 bytes)');
      }
      // Price, tier and the provider's charge come first, outside the transaction: it then holds
      // the receiver's limit row only for the reservation and the insert (measured: that row
      // lock was the main wait of POST /payin). A refused order leaves an unused charge to expire.
      const exchangeRate = body.quoteId ? undefined : await deps.prices.getRate(token);
      const currentTier = body.quoteId ? undefined : await currentRates(db, merchantId, 'PAYIN');
      const orderId = newId();
      const txid = newTxid();
      const charge = await fromProvider('The PIX charge could not be created', () =>
        deps.pix.createCharge({ txid, amountBrl, expiresInSeconds: settings.payinExpirySeconds }),
      );
      const now = clock.now();

      const inserted = await db.transaction().execute(async (trx) => {
        await checkExternalId(trx, merchantId, body.externalId);
        const receiver = await checkReceiver(trx, merchantId, body.receiverId);
        const destinationWallet = body.destinationWallet ?? receiver.walletAddress;
        if (!destinationWallet) throw invalid('body.destinationWallet', 'is required: the receiver has no wallet address');
        let rates: FeeRates;
        let priced: Pricing;
        if (body.quoteId) {
          const quote = await useQuote(trx, merchantId, body.quoteId, { type: 'PAYIN', receiverId: receiver.id, token, chain, amount: { brl: amountBrl } }, orderId);
          rates = { platformFeePercentage: quote.platform_fee_percentage, merchantFeePercentage: quote.merchant_fee_percentage };
          priced = pricePayin({ amountBrl, exchangeRate: quote.exchange_rate, tokenDecimals: decimals, rates });
        } else {
          rates = currentTier!;
          priced = pricePayin({ amountBrl, exchangeRate: exchangeRate!, tokenDecimals: decimals, rates });
        }
        const day = saoPauloDay(now);
        await reserveLimits(trx, receiver, amountBrl, day);
        return repo.insert(trx, {
          id: orderId,
          merchant_id: merchantId,
          receiver_id: receiver.id,
          type: 'PAYIN',
          status: 'AWAITING_PAYMENT',
          chain,
          token,
          external_id: body.externalId ?? null,
          quote_id: body.quoteId ?? null,
          ...pricingColumns(priced, rates),
          destination_wallet: destinationWallet,
          pix_txid: txid,
          pix_payment_code: charge.pixCopiaECola,
          limit_day: day,
          expires_at: new Date(now.getTime() + settings.payinExpirySeconds * 1000),
          created_at: now,
          updated_at: now,
        });
      });

      return viewOne(inserted);
    },

    async createPayout(merchantId: string, body: Static<typeof PayoutBody>): Promise<Order> {
      const chain = body.chain ?? 'solana';
      checkChain(chain);
      const decimals = tokenDecimals(body.sourceToken, 'body.sourceToken');
      if (!hasAtMostDecimals(body.amountCrypto, decimals)) throw invalid('body.amountCrypto', `must have at most ${decimals} decimals`);
      if ((body.pixKey === undefined) !== (body.pixKeyType === undefined)) {
        throw invalid(body.pixKey === undefined ? 'body.pixKey' : 'body.pixKeyType', 'pixKey and pixKeyType go together');
      }
      let pixKey: { key: string; type: string } | undefined;
      if (body.pixKey !== undefined) {
        const checked = validatePixKey(body.pixKeyType!, body.pixKey);
        if (!checked.ok) throw invalid('body.pixKey', checked.reason);
        pixKey = { key: checked.normalized, type: body.pixKeyType! };
      }
      const amountToken = decimal(body.amountCrypto).toFixed(decimals);
      // As for payins: everything slow or external before the transaction.
      const exchangeRate = body.quoteId ? undefined : await deps.prices.getRate(body.sourceToken);
      const currentTier = body.quoteId ? undefined : await currentRates(db, merchantId, 'PAYOUT');
      const orderId = newId();
      const { address } = await fromProvider('The deposit address could not be created', () =>
        deps.chain.createDepositAddress({ orderId, token: body.sourceToken }),
      );
      const now = clock.now();

      const inserted = await db.transaction().execute(async (trx) => {
        await checkExternalId(trx, merchantId, body.externalId);
        const receiver = await checkReceiver(trx, merchantId, body.receiverId);
        // Default key: the receiver's own document, which is a valid CPF or CNPJ PIX key.
        const key = pixKey ?? { key: receiver.document, type: receiver.documentType };
        let rates: FeeRates;
        let priced: Pricing;
        if (body.quoteId) {
          const quote = await useQuote(trx, merchantId, body.quoteId, { type: 'PAYOUT', receiverId: receiver.id, token: body.sourceToken, chain, amount: { token: amountToken } }, orderId);
          rates = { platformFeePercentage: quote.platform_fee_percentage, merchantFeePercentage: quote.merchant_fee_percentage };
          priced = pricePayout({ amountToken, exchangeRate: quote.exchange_rate, tokenDecimals: decimals, rates });
        } else {
          rates = currentTier!;
          priced = pricePayout({ amountToken, exchangeRate: exchangeRate!, tokenDecimals: decimals, rates });
        }
        checkBrlRange(priced.amountBrl, 'body.amountCrypto');
        const day = saoPauloDay(now);
        await reserveLimits(trx, receiver, priced.amountBrl, day);
        return repo.insert(trx, {
          id: orderId,
          merchant_id: merchantId,
          receiver_id: receiver.id,
          type: 'PAYOUT',
          status: 'AWAITING_DEPOSIT',
          chain,
          token: body.sourceToken,
          external_id: body.externalId ?? null,
          quote_id: body.quoteId ?? null,
          ...pricingColumns(priced, rates),
          deposit_address: address,
          pix_key: key.key,
          pix_key_type: key.type,
          recipient_name: body.recipientName ?? receiver.name,
          limit_day: day,
          expires_at: new Date(now.getTime() + settings.payoutExpirySeconds * 1000),
          created_at: now,
          updated_at: now,
        });
      });

      return viewOne(inserted);
    },

    async get(merchantId: string, id: string): Promise<Order> {
      const row = await repo.find(db, id, merchantId);
      if (!row) throw notFound('Order');
      return viewOne(row);
    },

    /** The merchant's own order row, for the sandbox drivers. */
    async findOwnedRow(merchantId: string, id: string): Promise<OrderRow> {
      const row = await repo.find(db, id, merchantId);
      if (!row) throw notFound('Order');
      return row;
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
