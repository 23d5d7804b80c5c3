/**
 * Order creation, one pipeline for PAYIN and PAYOUT (docs/architecture/orders.md, "Creation"):
 *
 *   1. the body alone (400s);
 *   2. every refusal that can be known without racing, from one read (creation-repo.ts
 *      `context`): externalId free, receiver of this merchant with KYC APPROVED, ACTIVE, the
 *      night rule, the price (the quote, or the current price at the merchant's tier for its
 *      month volume), today's limits, a dependency the order needs down (from memory,
 *      dependency-gate.ts), and last the destination (the merchant's policy: the receiver's own
 *      PIX key or wallet, destination-rules.ts), and a PAYIN's liquidity (the treasury can send
 *      its tokens; from memory, docs/architecture/treasury.md);
 *   3. the provider call (a PIX charge or a deposit address), so a refused order never leaves
 *      one behind; its failure creates nothing (503);
 *   4. what can change meanwhile (the receiver, the limit reservation, externalId by its unique
 *      index) is checked again atomically with the insert, which writes the order directly in
 *      AWAITING_PAYMENT or AWAITING_DEPOSIT (PENDING is never stored). Without a quote this is
 *      one statement (`insertReserved`); when it refuses, or the order names a quote to consume,
 *      a transaction re-checks step by step and answers the precise refusal.
 *
 * So an order that is not refused costs three round trips: the read, the provider call (one
 * statement in the sandbox) and the insert, with or without an Idempotency-Key. With a key
 * (docs/architecture/idempotency.md, in-transaction mode) the insert also inserts the key's row
 * with its answer, rendered beforehand from the row being inserted, so a crash leaves the order
 * with its answer or neither, in one commit; the provider call is named by the key (the PIX
 * charge's txid, the deposit address's reference), so a retry after a crash, or a concurrent
 * duplicate, finds what the first call made instead of making a second. A concurrent duplicate
 * loses on a unique index (the key, the charge or the address) and replays the winner's answer.
 * The provider call stays outside the transaction: the reservation locks the receiver's day row,
 * and holding it across the call made POST /payin queue on it. What differs between PAYIN and
 * PAYOUT is an OrderVariant.
 */
import type { Insertable } from 'kysely';
import { inTransaction } from '../../../platform/commit-signals.ts';
import type { PersonalData } from '../../../lib/personal-data.ts';
import type { Db, Trx } from '../../../db/database.ts';
import { type IdempotentRequest, KeyAlreadyUsed, type RequestAnswer } from '../../../platform/idempotency/claim.ts';
import type { OrderRow, OrdersTable } from '../tables.ts';
import type { OrderType } from '../../../lib/order-types.ts';
import { AppError, notFound, providerUnavailable } from '../../../errors.ts';
import type { Clock } from '../../../lib/clock.ts';
import { newId } from '../../../lib/ids.ts';
import type { Pricing } from '../../../lib/pricing.ts';
import { saoPauloMonthOf } from '../../../lib/sao-paulo-time.ts';
import { limitDayOf, usageFromRow } from './daily-usage.ts';
import { type OrderPrice, type OrderToPrice, type QuotesService, pricingColumns } from '../../quotes/service.ts';
import { type OrderReceiver, type ReceiversService, toOrderReceiver } from '../../receivers/service.ts';
import { type CreationContext, creationRepo, isExternalIdConflict, wouldBeRow } from './creation-repo.ts';
import { externalIdTaken, inNightWindow, limitExceeded, overDailyLimits, receiverRefusal } from './creation-rules.ts';
import { ordersRepo as repo } from '../repo.ts';
import { sealOrderColumns } from '../sealed-columns.ts';
import { unprovenWalletUsage } from './unproven-wallet-usage.ts';
import { type WalletOwnership, countsAgainstUnprovenCap, unprovenCapExceeded } from './wallet-ownership-rules.ts';
import type { OrderSettings } from '../../../config.ts';
import { ORDER_CREATED, type OrderLog, createdLine } from '../lifecycle-log.ts';
import { type DependencyGate, ORDER_NEEDS, dependencyDown } from './dependency-gate.ts';
import { type OrderSource, recordOrderCreated, sourceColumns } from '../order-source.ts';

/** A PAYIN's unproven wallet under LIMITED: its day is reserved in the creation transaction. */
interface UnprovenWalletCap {
  wallet: string;
  capBrl: string;
  usedTodayBrl: string;
}

/** Columns of the order row a variant fills. */
type OrderColumns = Partial<Insertable<OrdersTable>>;

/** What every parsed order body carries for the pipeline. */
export interface ParsedOrder {
  receiverId: string;
  externalId: string | undefined;
  /** PAYIN: the wallet the body names (else the receiver's); the wallet ownership policy asks about it. */
  destinationWallet?: string | undefined;
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
  /**
   * Optional, the merchant's wallet ownership policy (wallet-ownership-rules.ts): a PAYIN's tokens
   * go to a wallet not proven the receiver's only as far as the policy allows (422).
   */
  checkWalletOwnership?(ownership: WalletOwnership, priced: Pricing): void;
  /** Under the merchant's RECEIVER_ONLY policy: the money goes to the receiver's own key or wallet (422); may ask the provider. */
  checkDestination(columns: OrderColumns, receiver: OrderReceiver): Promise<void>;
  /**
   * Last before the provider call, optional: whether the platform can deliver the priced order
   * (a PAYIN's tokens from the treasury, 503 TREASURY_INSUFFICIENT_LIQUIDITY), answered from
   * memory, so a refused order leaves no PIX charge behind.
   */
  checkCapacity?(parsed: Parsed, priced: Pricing): Promise<void>;
  /** The provider call: repeatable at the provider per order, or per key when keyed, so a retry after a crash is harmless. */
  callProvider(ref: ProviderReference, parsed: Parsed, priced: Pricing, receiver: OrderReceiver): Promise<OrderColumns>;
}

/** What names the provider call: the order, or the Idempotency-Key when the request has one. */
export interface ProviderReference {
  orderId: string;
  keyed: { merchantId: string; key: string } | undefined;
}

/** A created order with the names its answer shows, read with everything else. */
export interface CreatedOrder {
  row: OrderRow;
  names: { merchantName: string; receiverName: string };
}

export interface CreationDeps {
  db: Db;
  clock: Clock;
  settings: Pick<OrderSettings, 'nightStart' | 'nightEnd'>;
  quotes: Pick<QuotesService, 'priceOrder' | 'consume'>;
  receivers: Pick<ReceiversService, 'findForOrder'>;
  /** Opens the receiver's document and name that `context` reads sealed (src/lib/personal-data.ts). */
  personalData: Pick<PersonalData, 'open' | 'sealNullable'>;
  /** Told of every order created, once committed: its "order created" line (lifecycle-log.ts). */
  log?: OrderLog | undefined;
  /** Which dependencies are down, from memory (dependency-gate.ts); none: never refused for one. */
  dependencies?: DependencyGate | undefined;
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

  /** A receiver that is not there: 409 first if the externalId is taken (the refusals' order), else 404. */
  async function unknownReceiver(merchantId: string, externalId: string | undefined): Promise<never> {
    const existing = externalId === undefined ? undefined : await repo.findByExternalId(db, merchantId, externalId);
    if (existing) throw externalIdTaken(existing.id);
    throw notFound('Receiver');
  }

  /** Step 2: every refusal knowable without racing, before anything exists at the provider. */
  async function checkBeforeProvider<Body, Parsed extends ParsedOrder>(merchantId: string, variant: OrderVariant<Body, Parsed>, parsed: Parsed, now: Date, claim: IdempotentRequest | undefined) {
    const day = limitDayOf(now);
    const context = await creationRepo.context(db, {
      merchantId,
      receiverId: parsed.receiverId,
      type: variant.type,
      day,
      month: saoPauloMonthOf(day),
      externalId: parsed.externalId ?? null,
      key: claim?.key ?? null,
      wallet: parsed.destinationWallet ?? null,
    });
    // The key's lookup rides on this read (the route's lookup: 'service'); an unknown receiver's
    // 404 is looked at by the hook too.
    if (context?.key_used) throw new KeyAlreadyUsed();
    if (!context) return unknownReceiver(merchantId, parsed.externalId);
    if (context.existing_order_id !== null) throw externalIdTaken(context.existing_order_id);
    const receiver = toOrderReceiver({ ...context, document: deps.personalData.open('document', context.document), name: deps.personalData.open('name', context.name) });
    const refusal = receiverRefusal(receiver, now, night);
    if (refusal) throw refusal;
    const receiverColumns = variant.receiverColumns(parsed, receiver);
    const price = await quotes.priceOrder(merchantId, parsed.toPrice, context.month_volume_brl);
    variant.checkPriced(price.priced);
    const overLimits = overDailyLimits(receiver.limits, usageFromRow(day, context), price.priced.amountBrl);
    if (overLimits) throw overLimits;
    const walletCap = await unprovenWalletCap(merchantId, variant, context, receiverColumns.destination_wallet ?? null, day);
    variant.checkWalletOwnership?.({ policy: context.wallet_ownership_policy, capBrl: context.unproven_wallet_limit_brl, proven: context.wallet_proven, usedTodayBrl: walletCap?.usedTodayBrl ?? '0' }, price.priced);
    // Before any provider is asked: a dependency the order needs is down (503, nothing written).
    const down = deps.dependencies?.firstDown(ORDER_NEEDS[variant.type]);
    if (down) throw dependencyDown(variant.type, down);
    // Last: it may be a provider lookup (rate-limited at the DICT), made only for an order otherwise acceptable.
    if (context.destination_policy === 'RECEIVER_ONLY') await variant.checkDestination(receiverColumns, receiver);
    await variant.checkCapacity?.(parsed, price.priced);
    return { receiver, receiverColumns, price, walletCap, names: { merchantName: context.merchant_name, receiverName: receiver.name } };
  }

  /** A PAYIN under LIMITED to an unproven wallet: the wallet, its cap and what its day used (unproven-wallet-usage.ts). */
  async function unprovenWalletCap<Body, Parsed extends ParsedOrder>(
    merchantId: string,
    variant: OrderVariant<Body, Parsed>,
    context: Pick<CreationContext, 'wallet_ownership_policy' | 'unproven_wallet_limit_brl' | 'wallet_proven'>,
    wallet: string | null,
    day: string,
  ): Promise<UnprovenWalletCap | undefined> {
    const ownership = { policy: context.wallet_ownership_policy, capBrl: context.unproven_wallet_limit_brl, proven: context.wallet_proven };
    if (!variant.checkWalletOwnership || wallet === null || !countsAgainstUnprovenCap(ownership)) return undefined;
    return { wallet, capBrl: ownership.capBrl, usedTodayBrl: await unprovenWalletUsage.usedOn(db, { merchantId, wallet, day }) };
  }

  /** Step 3: a provider failure means no order was created (503, retry later). */
  async function fromProvider<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw providerUnavailable(`${what}; the order was not created. Retry later.`, err);
    }
  }

  /** Step 4, in the transaction: what may have changed since step 2 is checked again, atomically with the insert. */
  async function commit(trx: Trx, merchantId: string, parsed: ParsedOrder, price: OrderPrice, row: Insertable<OrdersTable>, now: Date, walletCap: UnprovenWalletCap | undefined): Promise<OrderRow> {
    // Suspended, blocked or KYC revoked while the provider answered, or the night began.
    const receiver = await eligibleReceiver(trx, merchantId, parsed.receiverId, now);
    if (parsed.toPrice.quoteId !== undefined) {
      await quotes.consume(trx, { merchantId, quoteId: parsed.toPrice.quoteId, orderId: row.id, now });
    }
    // Last before the insert: the reservation locks the receiver's day row until commit.
    const { dailyLimitBrl, dailyTransactionLimit } = receiver.limits;
    const reserved = await repo.reserveDailyUsage(trx, { receiverId: receiver.id, day: row.limit_day, amountBrl: price.priced.amountBrl, maxCount: dailyTransactionLimit, maxAmountBrl: dailyLimitBrl });
    if (!reserved) throw limitExceeded(receiver.limits);
    if (walletCap) {
      const walletDay = { merchantId, wallet: walletCap.wallet, day: row.limit_day };
      const fits = await unprovenWalletUsage.reserve(trx, { ...walletDay, amountBrl: price.priced.amountBrl, capBrl: walletCap.capBrl });
      if (!fits) throw unprovenCapExceeded(walletCap.capBrl, await unprovenWalletUsage.usedOn(trx, walletDay));
    }
    const inserted = await repo.insertUnlessExternalIdTaken(trx, row);
    if (!inserted) throw externalIdTaken((await repo.findByExternalId(trx, merchantId, parsed.externalId!))?.id);
    return inserted;
  }

  /**
   * Step 4 in one statement, with the Idempotency-Key's row and answer when keyed; undefined when
   * it refused (the transaction then says why).
   */
  async function insertReserved(receiver: OrderReceiver, price: OrderPrice, row: Insertable<OrdersTable>, now: Date, key: { claim: IdempotentRequest; answer: RequestAnswer } | undefined) {
    try {
      const inserted = await creationRepo.insertReserved(db, {
        row,
        amountBrl: price.priced.amountBrl,
        atNight: inNightWindow(now, night),
        dailyLimitBrl: receiver.limits.dailyLimitBrl,
        dailyTransactionLimit: receiver.limits.dailyTransactionLimit,
        key: key?.claim.completedRow(key.answer),
      });
      if (inserted) key?.claim.markAnswered();
      return inserted;
    } catch (err) {
      if (!isExternalIdConflict(err)) throw err;
      throw externalIdTaken((await repo.findByExternalId(db, row.merchant_id, row.external_id!))?.id);
    }
  }

  return {
    /**
     * Every refusal POST would answer before its provider call (steps 1 and 2), nothing written:
     * a payout batch's validation of each line (src/modules/payout-batches/). The price is the
     * one the order would get now.
     */
    async check<Body, Parsed extends ParsedOrder>(variant: OrderVariant<Body, Parsed>, merchantId: string, body: Body) {
      const parsed = variant.parse(body);
      const { price, receiverColumns } = await checkBeforeProvider(merchantId, variant, parsed, clock.now(), undefined);
      return { parsed, price, receiverColumns };
    },

    /**
     * `answer` renders the created order as the route answers it, for the stored answer of
     * `claim`, the request's Idempotency-Key (in-transaction mode) when it has one.
     */
    async create<Body, Parsed extends ParsedOrder>(
      variant: OrderVariant<Body, Parsed>,
      merchantId: string,
      body: Body,
      answer: (created: CreatedOrder) => RequestAnswer,
      claim: IdempotentRequest | undefined,
      /**
       * An instrument's order (order-source.ts): its columns, and `order.created` in the inserting
       * transaction; `orderId` when the instrument names it (so a retry finds the order it made).
       */
      source?: OrderSource & { orderId?: string },
    ): Promise<CreatedOrder> {
      const parsed = variant.parse(body);
      const { receiver, receiverColumns, price, walletCap, names } = await checkBeforeProvider(merchantId, variant, parsed, clock.now(), claim);
      const orderId = source?.orderId ?? newId();
      const ref = { orderId, keyed: claim && { merchantId, key: claim.key } };
      const providerColumns = await fromProvider(`The ${variant.providerCall} could not be created`, () => variant.callProvider(ref, parsed, price.priced, receiver));
      const now = clock.now();
      // The PIX key and recipient name sealed as they are stored (sealed-columns.ts); the answer opens them.
      const row: Insertable<OrdersTable> = sealOrderColumns(deps.personalData, {
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
        limit_day: limitDayOf(now),
        // Reserved by `commit` (the transaction's path), given back with the receiver's limit.
        ...(walletCap ? { unproven_wallet_reserved: true } : {}),
        ...(source ? sourceColumns({ kind: source.kind, id: source.id }) : {}),
        expires_at: earliest(new Date(now.getTime() + variant.expirySeconds * 1000), providerColumns.expires_at),
        created_at: now,
        updated_at: now,
      });
      // The answer is rendered from the row as the insert will return it, so it can commit with it.
      const key = claim && { claim, answer: answer({ row: wouldBeRow(row), names }) };
      const inserted =
        // A quote to consume, an unproven wallet's day to reserve or an event to record: the transaction's path.
        (parsed.toPrice.quoteId === undefined && walletCap === undefined && source === undefined ? await insertReserved(receiver, price, row, now, key) : undefined) ??
        (await inTransaction(db, async (trx) => {
          const order = await commit(trx, merchantId, parsed, price, row, now, walletCap);
          if (source) await recordOrderCreated(trx, order, { kind: source.kind, id: source.id }, now);
          await claim?.complete(trx, answer({ row: order, names }));
          return order;
        }));
      // Committed either way: the one statement, or the transaction.
      deps.log?.info(createdLine(inserted), ORDER_CREATED);
      return { row: inserted, names };
    },
  };
}

/** The order's expiry: its own, or its provider's (a charge found again by a keyed retry) when that comes first. */
function earliest(own: Date, provider: Date | string | undefined): Date {
  if (provider === undefined) return own;
  const theirs = new Date(provider);
  return theirs < own ? theirs : own;
}

