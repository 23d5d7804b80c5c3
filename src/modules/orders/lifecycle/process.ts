/**
 * The order process (issue 39): one declaration per edge of the state machine saying what that
 * transition does, after vendure's payment process (what happens on a transition is written next
 * to it). `applyTransition` (transitions.ts) reads it; the state machine's edges (state-machine.ts)
 * are its keys; docs/architecture/orders.md renders it (`npm run docs:orders`). A call site says
 * only "move to X with these facts": the figures that vary per call (transition-facts.ts).
 *
 * Per edge:
 * - `by`: what brings it (documentation only);
 * - `event`: the spec's event it writes to the outbox, and the status the spec gives that event;
 * - `movements`: the order transactions it records (type and status here, figures from the call);
 *   one with `when` is recorded only when the call brings its figures. A CONFIRMED movement of a
 *   registered type is also written to the operations register (operations-register/record.ts);
 * - `ledger`: the ledger movement it posts (`received`: what actually moved, the first movement's
 *   amount); `chainCosts`: the treasury's SOL the chain charged, posted always or when the call
 *   brings it (a transfer that landed);
 * - `releasesLimit`: the order ends before money arrived, so the day gets its reservations back
 *   (once: `limit_released`): the receiver's limits, and a LIMITED unproven wallet's total;
 * - `next`: when the worker looks at the order next: at once (its step is due), or nothing is
 *   scheduled and the order waits for a notification, for an operator, or has ended.
 */
import type { OrderType } from '../../../lib/order-types.ts';
import type { OrderMovement } from '../../ledger/postings.ts';
import { ORDER_EVENTS, type OrderEventDeclaration } from './process-events.ts';
import type { OrderTransactionStatus, OrderTransactionType, StoredOrderStatus } from '../tables.ts';

/** The ledger's kinds of order movement, named through its service (orders use the ledger only through it). */
export type LedgerMovement = OrderMovement;

export type NextStep = 'at once' | 'a notification' | 'an operator' | 'ended';

export interface MovementDeclaration {
  type: OrderTransactionType;
  status: OrderTransactionStatus;
  /** Recorded only when the call brings its figures, which it does in this case. */
  when?: string;
}

export interface ProcessEdge {
  type: OrderType;
  from: StoredOrderStatus;
  to: StoredOrderStatus;
  by: string;
  event?: OrderEventDeclaration;
  movements?: readonly MovementDeclaration[];
  ledger?: { movement: LedgerMovement; received?: true };
  chainCosts?: 'always' | 'when the transfer landed';
  releasesLimit?: true;
  next: NextStep;
}

const E = ORDER_EVENTS;
const PIX_IN: MovementDeclaration = { type: 'PIX_IN', status: 'CONFIRMED' };
const PIX_RECEIVED = { movement: 'PAYIN_PIX_RECEIVED', received: true } as const;
const BY_OPERATOR = 'an operator marks it failed (MARK_FAILED: a provider that never settles)';

const PAYIN: ReadonlyArray<Omit<ProcessEdge, 'type'>> = [
  {
    from: 'AWAITING_PAYMENT',
    to: 'PAYMENT_RECEIVED',
    by: "charge_paid: the order's amount, from a payer the merchant's policy accepts",
    event: E.paymentReceived,
    movements: [PIX_IN],
    ledger: PIX_RECEIVED,
    next: 'at once',
  },
  {
    from: 'AWAITING_PAYMENT',
    to: 'REFUNDING',
    by: 'charge_paid: another amount, or a payer the policy refuses (the PIX goes back)',
    event: E.refunding,
    movements: [PIX_IN],
    ledger: PIX_RECEIVED,
    next: 'at once',
  },
  {
    from: 'AWAITING_PAYMENT',
    to: 'EXPIRED',
    by: "the expiry pass: unpaid at expiresAt; or charge_paid with the PSP's horario at or after expiresAt (then → REFUNDING at once)",
    releasesLimit: true,
    next: 'ended',
  },
  { from: 'PAYMENT_RECEIVED', to: 'SWAPPING', by: "the worker's step (the rate was locked at creation)", next: 'at once' },
  { from: 'PAYMENT_RECEIVED', to: 'REFUNDING', by: 'an accepted MED claim on a held order (dispute-claims.ts)', event: E.refunding, next: 'at once' },
  {
    from: 'SWAPPING',
    to: 'TRANSFERRING',
    by: "the worker's step: the transfer prepared and signed, stored before it is ever sent",
    movements: [{ type: 'CHAIN_TRANSFER', status: 'PENDING' }],
    next: 'at once',
  },
  {
    from: 'SWAPPING',
    to: 'REFUNDING',
    by: 'the chain refused the transfer before signing; or an accepted MED claim on a held order',
    event: E.refunding,
    movements: [{ type: 'CHAIN_TRANSFER', status: 'FAILED', when: 'the transfer was refused' }],
    next: 'at once',
  },
  {
    from: 'TRANSFERRING',
    to: 'COMPLETED',
    by: 'the stored transfer confirmed on chain',
    event: E.payinCompleted,
    movements: [{ type: 'CHAIN_TRANSFER', status: 'CONFIRMED' }],
    ledger: { movement: 'PAYIN_COMPLETED' },
    chainCosts: 'always',
    next: 'ended',
  },
  {
    from: 'TRANSFERRING',
    to: 'REFUNDING',
    by: 'the transfer failed on chain; or expired unlanded CHAIN_TRANSFER_MAX_ATTEMPTS times, or its replacement was refused',
    event: E.refunding,
    movements: [{ type: 'CHAIN_TRANSFER', status: 'FAILED' }],
    chainCosts: 'when the transfer landed',
    next: 'at once',
  },
  { from: 'EXPIRED', to: 'REFUNDING', by: 'charge_paid on an expired order (the PIX goes back)', event: E.refunding, movements: [PIX_IN], ledger: PIX_RECEIVED, next: 'at once' },
  {
    from: 'REFUNDING',
    to: 'REFUNDED',
    by: 'refund_settled DEVOLVIDO',
    event: E.refunded,
    movements: [{ type: 'PIX_REFUND', status: 'CONFIRMED' }],
    ledger: { movement: 'PAYIN_REFUNDED', received: true },
    next: 'ended',
  },
  {
    from: 'REFUNDING',
    to: 'FAILED',
    by: `refund_settled NAO_REALIZADO; or ${BY_OPERATOR}`,
    event: E.failed,
    movements: [{ type: 'PIX_REFUND', status: 'FAILED', when: 'the PSP did not make the refund' }],
    next: 'an operator',
  },
  { from: 'FAILED', to: 'REFUNDING', by: "the operators' refund (four-eyes), or an accepted MED claim", event: E.refunding, next: 'at once' },
];

const PAYOUT: ReadonlyArray<Omit<ProcessEdge, 'type'>> = [
  {
    from: 'AWAITING_DEPOSIT',
    to: 'DEPOSIT_RECEIVED',
    by: 'a deposit that landed before expiresAt, worth at least the minimum order (deposit-terms.ts)',
    event: E.depositReceived,
    movements: [
      { type: 'CHAIN_DEPOSIT', status: 'CONFIRMED' },
      { type: 'CHAIN_DEPOSIT_EXCESS', status: 'HELD', when: 'more arrived than ordered' },
    ],
    ledger: { movement: 'PAYOUT_DEPOSIT_RECEIVED', received: true },
    next: 'at once',
  },
  { from: 'AWAITING_DEPOSIT', to: 'EXPIRED', by: 'the expiry pass, or a deposit that landed at or after expiresAt', releasesLimit: true, next: 'ended' },
  {
    from: 'AWAITING_DEPOSIT',
    to: 'FAILED',
    by: 'a deposit worth less than the minimum order (it stays at its address, posted nowhere)',
    event: E.failed,
    movements: [{ type: 'CHAIN_DEPOSIT', status: 'CONFIRMED' }],
    releasesLimit: true,
    next: 'an operator',
  },
  { from: 'DEPOSIT_RECEIVED', to: 'PIX_SENDING', by: "the worker's step", event: E.processing, next: 'at once' },
  { from: 'DEPOSIT_RECEIVED', to: 'FAILED', by: BY_OPERATOR, event: E.failed, next: 'an operator' },
  {
    from: 'PIX_SENDING',
    to: 'PIX_SENT_UNCONFIRMED',
    by: "the worker's step: the PSP took the PIX (sendPix)",
    event: E.pixSending,
    movements: [{ type: 'PIX_OUT', status: 'PENDING' }],
    next: 'a notification',
  },
  {
    from: 'PIX_SENDING',
    to: 'FAILED',
    by: `the PSP refused the PIX outright; or ${BY_OPERATOR}`,
    event: E.failed,
    movements: [{ type: 'PIX_OUT', status: 'FAILED', when: 'the PSP refused it' }],
    next: 'an operator',
  },
  {
    from: 'PIX_SENT_UNCONFIRMED',
    to: 'COMPLETED',
    by: 'payout_settled CONFIRMED',
    event: E.payoutCompleted,
    movements: [{ type: 'PIX_OUT', status: 'CONFIRMED' }],
    ledger: { movement: 'PAYOUT_COMPLETED' },
    next: 'ended',
  },
  {
    from: 'PIX_SENT_UNCONFIRMED',
    to: 'FAILED',
    by: `payout_settled refused by the receiving bank; or ${BY_OPERATOR}`,
    event: E.failed,
    movements: [{ type: 'PIX_OUT', status: 'FAILED', when: 'the bank refused it' }],
    next: 'an operator',
  },
  { from: 'FAILED', to: 'PIX_SENDING', by: "the operators' retry of a refused PIX (four-eyes)", event: E.processing, next: 'at once' },
];

/** Every transition of both lifecycles, PAYIN's then PAYOUT's. */
export const ORDER_PROCESS: readonly ProcessEdge[] = [...PAYIN.map((edge) => ({ type: 'PAYIN' as const, ...edge })), ...PAYOUT.map((edge) => ({ type: 'PAYOUT' as const, ...edge }))];

const key = (type: OrderType, from: string, to: string) => `${type} ${from} ${to}`;
const BY_KEY = new Map(ORDER_PROCESS.map((edge) => [key(edge.type, edge.from, edge.to), edge]));

/** The declaration of an edge, or undefined when the state machine has no such edge. */
export const processEdge = (type: OrderType, from: string, to: string): ProcessEdge | undefined => BY_KEY.get(key(type, from, to));
