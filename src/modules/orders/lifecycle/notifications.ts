/**
 * Where provider and chain outcomes reach orders: `handlePixNotification` (charges paid, refunds
 * and payouts settled) and `handleChainDeposit`. A real provider's webhook route, a polling job
 * and the sandbox drivers all call these, so the sandbox exercises the production path.
 * Notifications arrive at least once: each handler locks the order and acts only if its status
 * still calls for it.
 */
import type { ChainDeposit } from '../../../adapters/chain/port.ts';
import { withinOrNew } from '../../../platform/commit-signals.ts';
import type { PixNotification } from '../../../adapters/pix/port.ts';
import type { PersonalData } from '../../../lib/personal-data.ts';
import type { Db, Trx } from '../../../db/database.ts';
import type { OrderRow } from '../tables.ts';
import type { Clock } from '../../../lib/clock.ts';
import { decimal } from '../../../lib/money.ts';
import type { LedgerService } from '../../ledger/service.ts';
import { arrivalTime, arrivedAfterExpiry } from './arrival-time.ts';
import { depositTerms } from './deposit-terms.ts';
import { payerColumns, payerRefusal } from './payer-rules.ts';
import { ordersRepo as repo } from '../repo.ts';
import { sealOrderColumns } from '../sealed-columns.ts';
import { type MovementFigures, type TransitionContext, applyTransition } from './transitions.ts';
import type { OrderLog } from '../lifecycle-log.ts';
import type { PayerPolicy } from '../../merchants/tables.ts';

export interface NotificationsDeps {
  db: Db;
  /** Opens the receiver's document for the payer policy (it is sealed at rest). */
  personalData: Pick<PersonalData, 'open' | 'openNullable' | 'seal' | 'sealNullable' | 'versionOf'>;
  clock: Clock;
  ledger: Pick<LedgerService, 'postOrderEntries'>;
  onOrderChanged?: TransitionContext['onOrderChanged'];
  /** Where each change of an order's status is told once committed (lifecycle-log.ts). */
  log?: OrderLog | undefined;
  /** Smallest order in BRL (a smaller deposit fails its payout). */
  minAmountBrl: string;
  tokenDecimals: Record<string, number>;
  /**
   * Told of every settled refund in its transaction (the disputes module): a MED return of a
   * COMPLETED order is no order's refund. Answers whether the refund was one of its returns.
   */
  disputeReturns?: { settled(trx: Trx, notification: PixOutcome<'refund_settled'>): Promise<boolean> };
  /**
   * Told of a settled PIX no order sent, in its transaction (the settlement payouts: a
   * settlement's PIX to its merchant). Answers whether it was one of theirs.
   */
  settlementPayouts?: { settled(trx: Trx, notification: PixOutcome<'payout_settled'>): Promise<boolean> };
  /** PIX paid to a standing charge's static code (the standing-charges module): each makes its PAYIN. */
  standingCharges?: StandingChargePayments | undefined;
}

/** The order a PIX is applied to, locked, with what the payer policy needs. */
export interface PaidOrder {
  order: OrderRow;
  payerPolicy: PayerPolicy;
  /** Sealed, as stored. */
  receiverDocument: string;
  /** Why the PIX goes back whatever else holds (an instrument's own refusal, e.g. over the receiver's limits). */
  refusal?: string | undefined;
}

/**
 * A standing PIX charge's payments (docs/decisions/0045-standing-pix-charges.md). `prepare` reads
 * outside any transaction (the price of the moment): undefined when the txid is no standing
 * charge's. `orderFor`, in the notification's transaction, finds the order this endToEndId made
 * before, or inserts it in its first status; the payment then moves it by the usual transition.
 */
export interface StandingChargePayments<Prepared = unknown> {
  prepare(notification: PixOutcome<'charge_paid'>): Promise<Prepared | undefined>;
  orderFor(trx: Trx, notification: PixOutcome<'charge_paid'>, prepared: Prepared): Promise<PaidOrder | undefined>;
}

type PixOutcome<Kind extends PixNotification['kind']> = Extract<PixNotification, { kind: Kind }>;

export function createOrderNotifications(deps: NotificationsDeps) {
  const { db, clock } = deps;
  const ctx: TransitionContext = { clock, ledger: deps.ledger, onOrderChanged: deps.onOrderChanged, personalData: deps.personalData, log: deps.log };

  /** Runs in the caller's transaction when given one (so a provider's "reported" mark commits with the effect). */

  /** The customer paid a PAYIN's charge: the order goes on, or the money goes back if it cannot be used. */
  async function chargePaid(trx: Trx, notification: PixOutcome<'charge_paid'>, standing?: { prepared: unknown }) {
    const locked: PaidOrder | undefined = standing
      ? await deps.standingCharges!.orderFor(trx, notification, standing.prepared)
      : await repo.lockByChargeWithPayerPolicy(trx, notification.txid);
    if (!locked) return undefined;
    // Already handled: notifications arrive at least once. (A charge is paid once: API Pix moves a
    // cob to CONCLUIDA, so a second endToEndId for one txid does not occur.)
    if (locked.order.pix_end_to_end_id) return locked.order;
    // Judged by when the PSP says it was paid (its record's horario, arrival-time.ts), not by
    // whether the expiry pass has run yet: a PIX paid at or after expiresAt finds the order as the
    // pass would have left it. It expires now (its limits given back, as the pass does) and the
    // PIX goes back below, as any PIX on an EXPIRED order does.
    const late = locked.order.status === 'AWAITING_PAYMENT' && arrivedAfterExpiry(locked.order, arrivalTime(notification.paidAt, clock.now()));
    const order = late ? await applyTransition(trx, ctx, locked.order, 'EXPIRED') : locked.order;
    if (!order) return undefined;
    const pix: MovementFigures = { amount: notification.amountBrl, currency: 'BRL', txHash: notification.endToEndId };
    // Who paid is kept whatever happens next (the admin order detail shows it), sealed (sealed-columns.ts).
    const changes = { pix_end_to_end_id: notification.endToEndId, ...sealOrderColumns(deps.personalData, payerColumns(notification.payer)) };
    const amountMatches = decimal(notification.amountBrl).eq(order.amount_brl);
    // The merchant's payer policy (FIRST_PARTY: only the receiver may pay); the reason masks documents.
    const payerRefused = payerRefusal(locked.payerPolicy, deps.personalData.open('document', locked.receiverDocument), notification.payer);
    if (order.status === 'AWAITING_PAYMENT' && amountMatches && !payerRefused && !locked.refusal) {
      return applyTransition(trx, ctx, order, 'PAYMENT_RECEIVED', { changes, moved: pix });
    }
    if (order.status === 'AWAITING_PAYMENT' || order.status === 'EXPIRED') {
      // Money arrived that cannot be used (wrong amount, too late, or from a payer the policy
      // refuses): it goes back by PIX, to whoever sent it (the refund step's devolução, natureza ORIGINAL).
      const reason = !amountMatches
        ? `PIX of ${decimal(notification.amountBrl).toFixed(2)} BRL received for an order of ${decimal(order.amount_brl).toFixed(2)} BRL`
        : order.status === 'EXPIRED'
          ? 'PIX received after the order expired'
          : (payerRefused ?? locked.refusal!);
      return applyTransition(trx, ctx, order, 'REFUNDING', { changes: { ...changes, failure_reason: reason }, moved: pix, reason });
    }
    return order;
  }

  /** A refund the worker requested reached its final state: REFUNDED, or FAILED for an operator. */
  async function refundSettled(trx: Trx, notification: PixOutcome<'refund_settled'>) {
    // The order first, then any dispute returning it: the disputes module locks in that order too.
    const order = await repo.lockBy(trx, 'refund_id', notification.refundId);
    const disputeReturn = (await deps.disputeReturns?.settled(trx, notification)) ?? false;
    // Unknown yet: the refund is being recorded right now. Refusing makes the sender retry (a
    // provider's webhook, or the sandbox's next pass) instead of losing the outcome.
    if (!order && disputeReturn) return undefined;
    if (!order) throw new Error(`refund ${notification.refundId} is not recorded yet`);
    if (order.status !== 'REFUNDING') return order;
    const amount = await repo.refundAmount(trx, order);
    const refund: MovementFigures = { currency: 'BRL', amount, txHash: order.pix_end_to_end_id };
    if (notification.status === 'DEVOLVIDO') return applyTransition(trx, ctx, order, 'REFUNDED', { moved: refund });
    const reason = `Refund failed: ${notification.reason ?? 'refused by the provider'}`;
    return applyTransition(trx, ctx, order, 'FAILED', { moved: refund, changes: { failure_reason: `${reason}; needs an operator` }, reason });
  }

  /** A PAYOUT's PIX was confirmed by the receiving bank (COMPLETED) or refused (FAILED). */
  async function payoutSettled(trx: Trx, notification: PixOutcome<'payout_settled'>) {
    const order = await repo.lockBy(trx, 'provider_transaction_id', notification.providerTransactionId);
    // Not an order's: a settlement's PIX to its merchant, or (neither) one whose sendPix answer
    // is not stored yet (the provider can settle before it): refused then, so it is retried.
    if (!order && (await deps.settlementPayouts?.settled(trx, notification))) return undefined;
    if (!order) throw new Error(`payout ${notification.providerTransactionId} is not recorded yet`);
    if (order.status !== 'PIX_SENT_UNCONFIRMED') return order;
    if (notification.status === 'CONFIRMED') {
      return applyTransition(trx, ctx, order, 'COMPLETED', {
        changes: { pix_end_to_end_id: notification.endToEndId },
        moved: { amount: order.net_amount_brl, currency: 'BRL', txHash: notification.endToEndId },
      });
    }
    const reason = `PIX payout refused: ${notification.reason}`;
    return applyTransition(trx, ctx, order, 'FAILED', {
      changes: { failure_reason: reason, payout_refused_at: clock.now() },
      moved: { amount: order.net_amount_brl, currency: 'BRL' },
      reason,
    });
  }

  /**
   * The single entry point of PIX outcomes: provider webhooks, polling and the sandbox all land
   * here. It applies what it is given, so each caller hands it the provider's own state: the
   * callback route only what the PSP confirmed (pix-confirmation.ts: a posted body is a claim);
   * reconciliation and the sandbox drivers build theirs from the provider's records already.
   */
  async function handlePixNotification(notification: PixNotification, outer?: Trx): Promise<OrderRow | undefined> {
    // A standing charge's txid (a static code's, at most 25 characters; a `cob`'s has 26 or more):
    // its price is read before the transaction opens, so nothing waits on it inside.
    if (notification.kind === 'charge_paid' && deps.standingCharges && notification.txid.length <= 25) {
      const prepared = await deps.standingCharges.prepare(notification);
      if (prepared !== undefined) return withinOrNew(db, outer, (trx) => chargePaid(trx, notification, { prepared }));
    }
    return withinOrNew(db, outer, (trx) => {
      switch (notification.kind) {
        case 'charge_paid':
          return chargePaid(trx, notification);
        case 'refund_settled':
          return refundSettled(trx, notification);
        case 'payout_settled':
          return payoutSettled(trx, notification);
      }
    });
  }

  /**
   * The entry point of detected deposits (a chain watcher, or the sandbox). What a deposit of
   * another amount buys is `depositTerms`' rule: never more than was ordered (the excess is held
   * for return), less re-priced at the locked rate, and one worth less than the minimum order
   * fails the order (the tokens stay in the deposit address for an operator to return).
   */
  function handleChainDeposit(deposit: ChainDeposit, outer?: Trx): Promise<OrderRow | undefined> {
    return withinOrNew(db, outer, async (trx) => {
      const order = await repo.lockBy(trx, 'deposit_address', deposit.depositAddress);
      if (!order || order.status !== 'AWAITING_DEPOSIT' || deposit.token !== order.token) return order;
      // Judged by when the chain confirmed it (its block's time, arrival-time.ts), not by whether
      // the expiry pass has run yet: a deposit landing at or after expiresAt buys nothing at the
      // order's locked rate (stale by then). The order expires now, as the pass would have, and
      // the deposit is recorded LATE for an operator to return (it stays at its address, never swept).
      if (arrivedAfterExpiry(order, arrivalTime(deposit.blockTime, clock.now()))) return applyTransition(trx, ctx, order, 'EXPIRED');
      const onChain = { currency: order.token, chain: order.chain, txHash: deposit.txHash };
      const moved: MovementFigures = { amount: deposit.amount, ...onChain };
      const terms = depositTerms(order, deposit.amount, { minAmountBrl: deps.minAmountBrl, tokenDecimals: deps.tokenDecimals[order.token] ?? 6 });
      if (!terms.accepted) {
        // Posted nowhere, like every deposit not credited: it stays at its address (never swept),
        // so `token_treasury` +D would book tokens the treasury never receives (chain.md, "Policies").
        return applyTransition(trx, ctx, order, 'FAILED', { changes: { tx_hash: deposit.txHash, failure_reason: terms.reason }, moved, reason: terms.reason });
      }
      // The excess, held for return, is the edge's second movement.
      const excess: MovementFigures[] = decimal(terms.excessToken).isZero() ? [] : [{ amount: terms.excessToken, ...onChain }];
      return applyTransition(trx, ctx, order, 'DEPOSIT_RECEIVED', { changes: { tx_hash: deposit.txHash, ...terms.changes }, moved: [moved, ...excess] });
    });
  }

  return { handlePixNotification, handleChainDeposit };
}

export type OrderNotifications = ReturnType<typeof createOrderNotifications>;
