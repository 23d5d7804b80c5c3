/**
 * When money reached an order, judged against its `expires_at` (issue 38 item 7), one rule for
 * both rails: the time the rail itself recorded (a PAYOUT deposit's block time; a PAYIN PIX's
 * `horario` in the PSP's own record, confirmed at source by pix-confirmation.ts), not when the
 * notification reached us nor whether the expiry pass has run yet. So the outcome no longer
 * depends on which came first, the notification or the expiry pass.
 *
 * Clock skew: the rail's time is taken as it is, but never later than our clock: a node or PSP
 * clock ahead of ours must not make money late that our clock says came in time (a PIX cannot be
 * paid in our future). No further tolerance either way: one in the customer's favour would credit
 * money paid after expiry at the locked, stale rate (and only while the expiry pass had not run:
 * the inconsistency this removes); one against him would refund PIX paid in time. What is left is
 * a clock behind ours making money late by our clock look on time, by that skew: NTP keeps it to
 * milliseconds, and a real PSP stops taking a charge at its own expiry anyway.
 * Unknown or unreadable, our clock stands in: the receipt is never earlier than the arrival, so a
 * missing time can make money late, never early.
 */
import type { OrderRow } from '../tables.ts';

/** The rail's time of arrival, capped at `now`; `now` when the rail did not say (or said nothing readable). */
export function arrivalTime(reported: Date | null | undefined, now: Date): Date {
  if (!reported || Number.isNaN(reported.getTime()) || reported.getTime() > now.getTime()) return now;
  return reported;
}

/** Money that arrived at or after `expires_at` came too late, as the expiry pass judges (`expires_at <= now`). */
export const arrivedAfterExpiry = (order: Pick<OrderRow, 'expires_at'>, arrivedAt: Date): boolean => arrivedAt.getTime() >= order.expires_at.getTime();
