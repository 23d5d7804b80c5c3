/**
 * Order creation, one pipeline for PAYIN and PAYOUT (ARCHITECTURE.md Orders, "Creation"):
 *
 *   1. the body alone (400s);
 *   2. every refusal that can be known without racing, read-only: externalId free, receiver of
 *      this merchant with KYC APPROVED, ACTIVE, the night rule, the quote (or the current price),
 *      the priced amount, today's limits;
 *   3. the provider call (a PIX charge or a deposit address), so a refused order never leaves
 *      one behind; its failure creates nothing (503);
 *   4. one short transaction re-checks what can change meanwhile (the receiver, the quote's
 *      consumption, the limit reservation, externalId by its unique index) and inserts the order
 *      directly in AWAITING_PAYMENT or AWAITING_DEPOSIT (PENDING is never stored).
 *
 * The provider call stays outside the transaction: the limit reservation locks the receiver's
 * day row, and holding it across the call made POST /payin queue on it (bench/README.md).
 * What differs between PAYIN and PAYOUT is an OrderVariant (payin.ts, payout.ts).
 */
import type { Insertable } from 'kysely';
import type { Db, Trx } from '../../db/database.ts';
import type { OrderRow, OrdersTable } from './tables.ts';
import type { OrderType } from '../../lib/order-types.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { Pricing } from '../../lib/pricing.ts';
import { saoPauloDay } from '../../lib/sao-paulo-time.ts';
import { type OrderPrice, type OrderToPrice, type QuotesService, pricingColumns } from '../quotes/service.ts';
import type { OrderReceiver, ReceiversService } from '../receivers/service.ts';
import { externalIdTaken, limitExceeded, overDailyLimits, receiverRefusal } from './creation-rules.ts';
import { ordersRepo as repo } from './repo.ts';
import type { OrderSettings } from './settings.ts';

/** Columns of the order row a variant fills. */
type OrderColumns = Partial<Insertable<OrdersTable>>;

/** What every parsed order body carries for the pipeline. */
export interface ParsedOrder {
  receiverId: string;
  externalId: string | undefined;
  /** What quotes price: type, chain, token, the amount the body fixed and the quote it names. */
  toPrice: OrderToPrice;
}

/** What differs between a PAYIN and a PAYOUT at creation; the steps and their order are the pipeline's. */
export interface OrderVariant<Body, Parsed extends ParsedOrder> {
  readonly type: OrderType;
  readonly initialStatus: 'AWAITING_PAYMENT' | 'AWAITING_DEPOSIT';
  readonly expirySeconds: number;
  /** Names what the provider call makes, for its 503. */
  readonly providerCall: string;
  /** Checks that need only the body and settings (400), normalised for the next steps. */
  parse(body: Body): Parsed;
  /** The columns the receiver fills when the body does not (wallet, PIX key, name); may refuse (400). */
  receiverColumns(parsed: Parsed, receiver: OrderReceiver): OrderColumns;
  /** Checks of the priced order (a PAYOUT's BRL value within the order bounds); 400. */
  checkPriced(priced: Pricing): void;
  /** The provider call: idempotent at the provider per order, so a retry after a crash is harmless. */
  callProvider(orderId: string, parsed: Parsed, priced: Pricing): Promise<OrderColumns>;
}

export interface CreationDeps {
  db: Db;
  clock: Clock;
  settings: Pick<OrderSettings, 'nightStart' | 'nightEnd'>;
  quotes: Pick<QuotesService, 'priceOrder' | 'consume'>;
  receivers: Pick<ReceiversService, 'findForOrder'>;
}

export function createOrderPipeline(deps: CreationDeps) {
  const { db, clock, quotes } = deps;
  const night = { start: deps.settings.nightStart, end: deps.settings.nightEnd };

  /** The receiver as it is now, if it may take an order at `at`: 404 if unknown or another merchant's, else its 422. */
  async function eligibleReceiver(executor: Db, merchantId: string, receiverId: string, at: Date): Promise<OrderReceiver> {
    const receiver = await deps.receivers.findForOrder(executor, merchantId, receiverId);
    if (!receiver) throw notFound('Receiver');
    const refusal = receiverRefusal(receiver, at, night);
    if (refusal) throw refusal;
    return receiver;
  }

  /** Step 2: every refusal knowable without racing, before anything exists at the provider. */
  async function checkBeforeProvider<Body, Parsed extends ParsedOrder>(merchantId: string, variant: OrderVariant<Body, Parsed>, parsed: Parsed) {
    const now = clock.now();
    if (parsed.externalId !== undefined) {
      const existing = await repo.findByExternalId(db, merchantId, parsed.externalId);
      if (existing) throw externalIdTaken(existing.id);
    }
    const receiver = await eligibleReceiver(db, merchantId, parsed.receiverId, now);
    const receiverColumns = variant.receiverColumns(parsed, receiver);
    const price = await quotes.priceOrder(merchantId, parsed.toPrice);
    variant.checkPriced(price.priced);
    const usage = await repo.dailyUsage(db, receiver.id, saoPauloDay(now));
    const overLimits = overDailyLimits(receiver.limits, usage, price.priced.amountBrl);
    if (overLimits) throw overLimits;
    return { receiverColumns, price };
  }

  /** Step 3: a provider failure means no order was created (503, retry later). */
  async function fromProvider<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('PROVIDER_UNAVAILABLE', `${what}; the order was not created. Retry later.`, { cause: String((err as Error).message ?? err) });
    }
  }

  /** Step 4, in the transaction: what may have changed since step 2 is checked again, atomically with the insert. */
  async function commit(trx: Trx, merchantId: string, parsed: ParsedOrder, price: OrderPrice, row: Insertable<OrdersTable>, now: Date): Promise<OrderRow> {
    // Suspended, blocked or KYC revoked while the provider answered, or the night began.
    const receiver = await eligibleReceiver(trx, merchantId, parsed.receiverId, now);
    if (parsed.toPrice.quoteId !== undefined) {
      await quotes.consume(trx, { merchantId, quoteId: parsed.toPrice.quoteId, orderId: row.id, now });
    }
    // Last before the insert: the reservation locks the receiver's day row until commit.
    const { dailyLimitBrl, dailyTransactionLimit } = receiver.limits;
    const reserved = await repo.reserveDailyUsage(trx, { receiverId: receiver.id, day: row.limit_day, amountBrl: price.priced.amountBrl, maxCount: dailyTransactionLimit, maxAmountBrl: dailyLimitBrl });
    if (!reserved) throw limitExceeded(receiver.limits);
    const inserted = await repo.insertUnlessExternalIdTaken(trx, row);
    if (!inserted) throw externalIdTaken((await repo.findByExternalId(trx, merchantId, parsed.externalId!))?.id);
    return inserted;
  }

  return {
    async create<Body, Parsed extends ParsedOrder>(variant: OrderVariant<Body, Parsed>, merchantId: string, body: Body): Promise<OrderRow> {
      const parsed = variant.parse(body);
      const { receiverColumns, price } = await checkBeforeProvider(merchantId, variant, parsed);
      const orderId = newId();
      const providerColumns = await fromProvider(`The ${variant.providerCall} could not be created`, () => variant.callProvider(orderId, parsed, price.priced));
      const now = clock.now();
      const row: Insertable<OrdersTable> = {
        id: orderId,
        merchant_id: merchantId,
        receiver_id: parsed.receiverId,
        type: variant.type,
        status: variant.initialStatus,
        chain: parsed.toPrice.chain,
        token: parsed.toPrice.token,
        external_id: parsed.externalId ?? null,
        quote_id: parsed.toPrice.quoteId ?? null,
        ...pricingColumns(price),
        ...receiverColumns,
        ...providerColumns,
        limit_day: saoPauloDay(now),
        expires_at: new Date(now.getTime() + variant.expirySeconds * 1000),
        created_at: now,
        updated_at: now,
      };
      return db.transaction().execute((trx) => commit(trx, merchantId, parsed, price, row, now));
    },
  };
}
