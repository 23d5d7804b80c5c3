/**
 * What a PIX paid to a standing charge does (docs/decisions/0045-standing-pix-charges.md): it
 * makes a PAYIN at the rate of the moment the PSP reports it, inserted in AWAITING_PAYMENT in the
 * notification's transaction, and the usual charge_paid transition then applies the payment
 * (orders/lifecycle/notifications.ts): PAYMENT_RECEIVED and on to the transfer, or REFUNDING when
 * refused, so the PIX goes back (devolução, natureza ORIGINAL) by the refund step every PAYIN has.
 * Refused: the charge disabled, another amount than a fixed one, an amount outside the order
 * bounds, the receiver not APPROVED / ACTIVE or at night without night transactions, over its
 * daily limits, a treasury that cannot send its tokens (the liquidity check's TREASURY_INSUFFICIENT_
 * LIQUIDITY: returned at once, the end an over-admitted PAYIN reaches when its transfer fails), or
 * (by the usual transition) a payer the merchant's payer policy refuses. A chain's node down (the
 * treasury's balance unknown) refuses nothing: the PIX is here, so the PAYIN waits in its transfer
 * step as one paid before the outage does, refunded by the usual path if the transfer fails
 * (decision 0051).
 * A refused order reserves nothing of the receiver's day (inserted with `limit_released`).
 * Exactly once per endToEndId: the charge's row lock orders concurrent notifications, the order
 * this PIX made before is found, and the unique index (source_id, pix_end_to_end_id) stands behind.
 */
import type { PixNotification } from '../../adapters/pix/port.ts';
import type { OrderSettings } from '../../config.ts';
import type { Db, Trx } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { decimal } from '../../lib/money.ts';
import { receiverRefusal, limitExceeded } from '../orders/creation/creation-rules.ts';
import { limitDayOf } from '../orders/creation/daily-usage.ts';
import type { PaidOrder, StandingChargePayments } from '../orders/lifecycle/notifications.ts';
import { recordOrderCreated, sourceColumns, type OrderSource } from '../orders/order-source.ts';
import { ordersRepo } from '../orders/repo.ts';
import { ORDER_COLUMNS } from '../orders/tables.ts';
import type { PayinLiquidity } from '../orders/creation/payin.ts';
import { type OrderPrice, type QuotesService, pricingColumns } from '../quotes/service.ts';
import type { ReceiversService } from '../receivers/service.ts';
import { standingChargesRepo as repo } from './repo.ts';
import type { StandingChargeRow } from './tables.ts';

type ChargePaid = Extract<PixNotification, { kind: 'charge_paid' }>;

/** Read before the transaction: the charge as it was, the price of the moment, a refusal known already. */
export interface PreparedStandingPayment {
  charge: StandingChargeRow;
  price: OrderPrice;
  refusal: string | undefined;
}

export interface StandingPaymentsDeps {
  db: Db;
  clock: Clock;
  quotes: Pick<QuotesService, 'priceOrder' | 'tradeRules'>;
  receivers: Pick<ReceiversService, 'findForOrder'>;
  settings: Pick<OrderSettings, 'nightStart' | 'nightEnd' | 'payinExpirySeconds' | 'minAmountBrl'>;
  /** The treasury's PAYIN check (treasury/liquidity.ts); none (the sandbox chain): never short. */
  liquidity?: Pick<PayinLiquidity, 'checkPayin'> | undefined;
}

/**
 * The treasury's answer for a PIX already paid: a refusal when it knows it is short; nothing when
 * it cannot tell (its node unreadable: PROVIDER_UNAVAILABLE), for the transfer step waits that out.
 */
async function treasuryRefusal(liquidity: StandingPaymentsDeps['liquidity'], token: string, amountToken: string): Promise<string | undefined> {
  try {
    await liquidity?.checkPayin(token, amountToken);
    return undefined;
  } catch (err) {
    if (err instanceof AppError && err.code === 'TREASURY_INSUFFICIENT_LIQUIDITY') return 'The treasury cannot send the tokens now: the PIX is returned';
    if (err instanceof AppError && err.code === 'PROVIDER_UNAVAILABLE') return undefined;
    throw err;
  }
}

const refusalOf = (err: unknown): string => {
  if (err instanceof AppError && err.statusCode < 500) return err.details ? `${err.message} (${Object.values(err.details).join('; ')})` : err.message;
  throw err;
};

export function createStandingChargePayments(deps: StandingPaymentsDeps): StandingChargePayments<PreparedStandingPayment> {
  const { db, clock, quotes, settings } = deps;
  const rules = quotes.tradeRules;
  const night = { start: settings.nightStart, end: settings.nightEnd };

  /**
   * The price of `amountBrl`; one that cannot be priced (fees and markup take all of a tiny amount)
   * is refused, and its order carries the rate of the minimum order with no tokens and no fees.
   */
  async function priceOf(charge: StandingChargeRow, amountBrl: string): Promise<{ price: OrderPrice; refusal?: string }> {
    const order = { type: 'PAYIN' as const, chain: charge.chain, token: charge.token, tokenDecimals: rules.tokenDecimals(charge.token, 'token'), receiverId: charge.receiver_id };
    try {
      return { price: await quotes.priceOrder(charge.merchant_id, { ...order, amountBrl }) };
    } catch (err) {
      const refusal = refusalOf(err);
      const { priced, rates, markup } = await quotes.priceOrder(charge.merchant_id, { ...order, amountBrl: decimal(settings.minAmountBrl).toFixed(2) });
      const none = { amountBrl, amountToken: '0', platformFeeAmountBrl: '0.00', merchantFeeAmountBrl: '0.00', netAmountBrl: amountBrl, markupAmountBrl: '0.00' };
      return { price: { priced: { ...priced, ...none }, rates, markup }, refusal };
    }
  }

  return {
    async prepare(notification: ChargePaid) {
      const charge = await repo.findByTxid(db, notification.txid);
      if (!charge) return undefined;
      const amountBrl = decimal(notification.amountBrl).toFixed(2);
      let refusal: string | undefined;
      if (charge.amount_brl !== null && !decimal(charge.amount_brl).eq(amountBrl)) {
        refusal = `PIX of ${amountBrl} BRL to a standing charge of ${decimal(charge.amount_brl).toFixed(2)} BRL`;
      }
      try {
        rules.checkBrlRange(amountBrl, 'amountBrl');
      } catch (err) {
        refusal ??= `PIX of ${amountBrl} BRL outside the order bounds: ${refusalOf(err)}`;
      }
      const priced = await priceOf(charge, amountBrl);
      refusal ??= priced.refusal;
      // Last, as POST /payin's: only a PIX nothing else refused takes its share of the treasury.
      refusal ??= await treasuryRefusal(deps.liquidity, charge.token, priced.price.priced.amountToken);
      return { charge, price: priced.price, refusal };
    },

    async orderFor(trx: Trx, notification: ChargePaid, prepared: PreparedStandingPayment): Promise<PaidOrder | undefined> {
      const charge = await repo.findByTxid(trx, notification.txid, { forUpdate: true });
      if (!charge) return undefined;
      const rulesOfPayer = await repo.payerRules(trx, charge.receiver_id);
      const payer = { payerPolicy: rulesOfPayer.payer_policy, receiverDocument: rulesOfPayer.document };
      // A repeated notification: the order this PIX made, as the transition left it.
      const made = await repo.orderOfPix(trx, charge.id, notification.endToEndId);
      if (made) {
        const order = await ordersRepo.lockBy(trx, 'id', made);
        return order && { order, ...payer };
      }
      const now = clock.now();
      const { price } = prepared;
      let refusal = charge.status === 'DISABLED' ? 'PIX to a disabled standing charge' : prepared.refusal;
      const receiver = await deps.receivers.findForOrder(trx, charge.merchant_id, charge.receiver_id);
      if (!refusal && receiver) refusal = receiverRefusal(receiver, now, night)?.message;
      const day = limitDayOf(now);
      if (!refusal && receiver) {
        const { dailyLimitBrl, dailyTransactionLimit } = receiver.limits;
        const reserved = await ordersRepo.reserveDailyUsage(trx, { receiverId: receiver.id, day, amountBrl: price.priced.amountBrl, maxCount: dailyTransactionLimit, maxAmountBrl: dailyLimitBrl });
        if (!reserved) refusal = limitExceeded(receiver.limits).message;
      }
      const source: OrderSource = { kind: 'STANDING_PIX_CHARGE', id: charge.id };
      const order = await trx
        .insertInto('orders')
        .values({
          id: newId(),
          merchant_id: charge.merchant_id,
          receiver_id: charge.receiver_id,
          type: 'PAYIN',
          status: 'AWAITING_PAYMENT',
          chain: charge.chain,
          token: charge.token,
          ...pricingColumns(price),
          destination_wallet: charge.destination_wallet,
          pix_payment_code: charge.pix_copia_e_cola,
          limit_day: day,
          // Refused: nothing was reserved, so nothing is given back when it ends.
          limit_released: refusal !== undefined,
          expires_at: new Date(now.getTime() + settings.payinExpirySeconds * 1000),
          created_at: now,
          updated_at: now,
          ...sourceColumns(source),
        })
        .returning(ORDER_COLUMNS)
        .executeTakeFirstOrThrow();
      await recordOrderCreated(trx, order, source, now);
      return { order, ...payer, refusal };
    },
  };
}
