/**
 * The refusal rules of order creation (DESIGN.md §5 "Rules at creation"): pure functions, each
 * answering the refusal as an AppError, or null. The pipeline (create-order.ts) runs them before
 * the provider call, so a refused order leaves nothing at the provider; the receiver may change
 * meanwhile, so its eligibility is checked again atomically with the insert: in SQL generated
 * from the same definition (`eligibilitySql`) by the one-statement insert, and by
 * `receiverRefusal` on a fresh read in the transaction path.
 */
import { type RawBuilder, sql } from 'kysely';
import { AppError } from '../../../errors.ts';
import { decimal, toJsonNumber } from '../../../lib/money.ts';
import { inSaoPauloWindow, parseClockTime } from '../../../lib/sao-paulo-time.ts';
import type { OrderReceiver } from '../../receivers/service.ts';

/** The night window in São Paulo time ("HH:MM"), when only receivers that allow it may transact (Banco Central's night limits). */
export interface NightWindow {
  start: string;
  end: string;
}

type Refusal = AppError | null;

/** Whether `at` falls in the night window (São Paulo time). */
export function inNightWindow(at: Date, night: NightWindow): boolean {
  return inSaoPauloWindow(at, { startMinute: parseClockTime(night.start), endMinute: parseClockTime(night.end) });
}

/**
 * One rule of receiver eligibility: a column of `receivers` that must hold one value, with the
 * refusal when it does not. The TypeScript check (`receiverRefusal`) and the SQL re-check of the
 * one-statement insert (`eligibilitySql`) are both generated from this list, so the rule is
 * written once.
 */
interface EligibilityRule {
  column: 'kyc_status' | 'status' | 'night_transactions_enabled';
  required: string | boolean;
  /** The receiver's value, as the order pipeline reads it. */
  valueOf(receiver: OrderReceiver): string | boolean;
  /** Applies only to orders created inside the night window. */
  nightOnly: boolean;
  refusal(receiver: OrderReceiver, night: NightWindow): AppError;
}

/** Receiver eligibility in the spec's order: KYC approved, then ACTIVE, then the night rule. */
export const RECEIVER_ELIGIBILITY: readonly EligibilityRule[] = [
  {
    column: 'kyc_status',
    required: 'APPROVED',
    valueOf: (receiver) => receiver.kycStatus,
    nightOnly: false,
    refusal: (receiver) => new AppError('KYC_NOT_APPROVED', `Receiver KYC is ${receiver.kycStatus}; orders need APPROVED`, { kycStatus: receiver.kycStatus }),
  },
  {
    column: 'status',
    required: 'ACTIVE',
    valueOf: (receiver) => receiver.status,
    nightOnly: false,
    refusal: (receiver) => new AppError('RECEIVER_NOT_ACTIVE', `Receiver is ${receiver.status}; orders need ACTIVE`, { status: receiver.status }),
  },
  {
    column: 'night_transactions_enabled',
    required: true,
    valueOf: (receiver) => receiver.limits.nightTransactionsEnabled,
    nightOnly: true,
    refusal: (_receiver, night) =>
      new AppError('NIGHT_TRANSACTIONS_DISABLED', `Receiver does not allow transactions between ${night.start} and ${night.end} (America/Sao_Paulo)`, {
        nightStart: night.start,
        nightEnd: night.end,
      }),
  },
];

const applies = (rule: EligibilityRule, atNight: boolean) => !rule.nightOnly || atNight;

/** The first eligibility rule the receiver breaks at `at`, as its refusal; null when it may take an order. */
export function receiverRefusal(receiver: OrderReceiver, at: Date, night: NightWindow): Refusal {
  const atNight = inNightWindow(at, night);
  const broken = RECEIVER_ELIGIBILITY.find((rule) => applies(rule, atNight) && rule.valueOf(receiver) !== rule.required);
  return broken ? broken.refusal(receiver, night) : null;
}

/**
 * The same rules as a SQL condition on the receivers row `alias`, for an order created at night
 * or not: `alias.kyc_status = 'APPROVED' and ...` (the values are bound parameters).
 */
export function eligibilitySql(alias: string, atNight: boolean): RawBuilder<boolean> {
  const conditions = RECEIVER_ELIGIBILITY.filter((rule) => applies(rule, atNight)).map((rule) => sql`${sql.ref(`${alias}.${rule.column}`)} = ${rule.required}`);
  return sql<boolean>`(${sql.join(conditions, sql` and `)})`;
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
