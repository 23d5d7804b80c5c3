/**
 * The refusal rules of order creation (DESIGN.md §5 "Rules at creation"; docs/architecture/orders.md,
 * Orders): pure functions, each answering the refusal as an AppError, or null. The pipeline
 * (create-order.ts) runs them before the provider call, so a refused order leaves nothing at the
 * provider, and runs the receiver rules again inside its transaction, where the receiver may
 * have changed meanwhile.
 */
import { AppError } from '../../errors.ts';
import { decimal, toJsonNumber } from '../../lib/money.ts';
import { inSaoPauloWindow, parseClockTime } from '../../lib/sao-paulo-time.ts';
import type { OrderReceiver } from '../receivers/service.ts';

/** The night window in São Paulo time ("HH:MM"), when only receivers that allow it may transact (Banco Central's night limits). */
export interface NightWindow {
  start: string;
  end: string;
}

type Refusal = AppError | null;

export function kycNotApproved(receiver: OrderReceiver): Refusal {
  if (receiver.kycStatus === 'APPROVED') return null;
  return new AppError('KYC_NOT_APPROVED', `Receiver KYC is ${receiver.kycStatus}; orders need APPROVED`, { kycStatus: receiver.kycStatus });
}

export function receiverNotActive(receiver: OrderReceiver): Refusal {
  if (receiver.status === 'ACTIVE') return null;
  return new AppError('RECEIVER_NOT_ACTIVE', `Receiver is ${receiver.status}; orders need ACTIVE`, { status: receiver.status });
}

/** Whether `at` falls in the night window (São Paulo time). */
export function inNightWindow(at: Date, night: NightWindow): boolean {
  return inSaoPauloWindow(at, { startMinute: parseClockTime(night.start), endMinute: parseClockTime(night.end) });
}

export function nightTransactionsDisabled(receiver: OrderReceiver, at: Date, night: NightWindow): Refusal {
  if (receiver.limits.nightTransactionsEnabled || !inNightWindow(at, night)) return null;
  return new AppError('NIGHT_TRANSACTIONS_DISABLED', `Receiver does not allow transactions between ${night.start} and ${night.end} (America/Sao_Paulo)`, {
    nightStart: night.start,
    nightEnd: night.end,
  });
}

/** The receiver rules in the spec's order: KYC approved, then ACTIVE, then the night rule. */
export function receiverRefusal(receiver: OrderReceiver, at: Date, night: NightWindow): Refusal {
  return kycNotApproved(receiver) ?? receiverNotActive(receiver) ?? nightTransactionsDisabled(receiver, at, night);
}

/** LIMIT_EXCEEDED, with the limits as the API shows them (JSON numbers). */
export function limitExceeded(limits: OrderReceiver['limits']): AppError {
  return new AppError('LIMIT_EXCEEDED', 'The order exceeds the receiver’s daily limits (America/Sao_Paulo calendar day)', {
    dailyLimitBrl: limits.dailyLimitBrl === null ? null : toJsonNumber(limits.dailyLimitBrl),
    dailyTransactionLimit: limits.dailyTransactionLimit,
  });
}

/**
 * Whether one more order of `amountBrl` still fits today's usage: the same comparison the
 * reservation's upsert makes (orders/repo.ts), made early so an order that cannot fit is
 * refused before its provider call. Concurrent orders can still fill the day in between; the
 * reservation in the transaction is what guarantees the limits.
 */
export function overDailyLimits(limits: OrderReceiver['limits'], usage: { orderCount: number; amountBrl: string }, amountBrl: string): Refusal {
  const countFits = limits.dailyTransactionLimit === null || usage.orderCount + 1 <= limits.dailyTransactionLimit;
  const amountFits = limits.dailyLimitBrl === null || decimal(usage.amountBrl).plus(amountBrl).lte(limits.dailyLimitBrl);
  return countFits && amountFits ? null : limitExceeded(limits);
}

export function externalIdTaken(existingOrderId: string | undefined): AppError {
  return new AppError('CONFLICT', 'An order with this externalId already exists', { existingOrderId });
}
