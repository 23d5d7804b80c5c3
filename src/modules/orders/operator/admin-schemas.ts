/**
 * The back office's order shapes (GET /admin/orders, /admin/orders/stuck, /admin/orders/{id}):
 * an order of any merchant as an operator sees it, with what may be done to it
 * (operator-actions.ts). Amounts are JSON numbers, as the merchant's Order shows them (view.ts).
 */
import { Type } from 'typebox';
import { MAX_PAGE_SIZE } from '../../../http/pagination.ts';
import { Nullable, OrderTypeField, StrictObject, Timestamp, Uuid } from '../../../http/schemas.ts';
import { DocumentTypeSchema } from '../../receivers/schemas.ts';
import { OPERATOR_ORDER_ACTIONS } from '../lifecycle/operator-actions.ts';
import { OrderMarkupSchema } from '../../markups/schemas.ts';
import { OrderStatusSchema } from '../schemas.ts';
import { TimelineEntrySchema } from '../reads/timeline-schemas.ts';

export const DEFAULT_SEARCH_LIMIT = 50;
export const MAX_STUCK_LIMIT = 200;
export const STUCK_REASONS = ['IN_TRANSIT_TOO_LONG', 'FAILED_WITH_MONEY_HELD'] as const;

const adminOrderFields = {
  id: Uuid(),
  merchantId: Uuid(),
  merchantName: Type.String(),
  receiverId: Uuid(),
  type: OrderTypeField,
  status: OrderStatusSchema,
  amountBrl: Type.Number({ description: 'PAYIN: what the customer pays; PAYOUT: gross BRL value of the deposit' }),
  token: Type.String(),
  chain: Type.String(),
  externalId: Nullable(Type.String()),
  failureReason: Nullable(Type.String()),
  createdAt: Timestamp(),
  updatedAt: Timestamp('The last change of the order (a status, a reference, a step rescheduled)'),
  allowedActions: Type.Array(Type.Enum(OPERATOR_ORDER_ACTIONS, { title: 'OperatorOrderAction' }), {
    description:
      'What an operator may do to the order now: RETRY_STEP (run the worker\'s next step now), REFUND (a PAYIN whose refund failed: request a new one, four-eyes), MARK_FAILED (end an order the provider will never settle)',
  }),
  moneyHeld: Type.Boolean({ description: "A PAYIN that FAILED after its PIX arrived: the customer's BRL is held until an operator refunds it" }),
};

export const AdminOrderSchema = Type.Object(adminOrderFields, { title: 'AdminOrder' });

export const AdminOrderSearchQuery = StrictObject({
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "Any id of an order, matched exactly: its id (when q is a uuid), the merchant's externalId, the PIX charge's txid (paymentReference), a PIX endToEndId (received, paid or refunded), the PSP's payout id, the refund id, or a chain signature (current or replaced). Never a payer's or receiver's document or name: a person is found through the KYC queue (GET /admin/receivers?document=)",
    }),
  ),
  status: Type.Optional(OrderStatusSchema),
  type: Type.Optional(OrderTypeField),
  merchantId: Type.Optional(Uuid()),
  createdAfter: Type.Optional(Timestamp('Inclusive lower bound of createdAt')),
  createdBefore: Type.Optional(Timestamp('Exclusive upper bound of createdAt')),
  limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_SEARCH_LIMIT, description: `Page size, at most ${MAX_PAGE_SIZE}` }),
  cursor: Type.Optional(Uuid('The nextCursor of the previous page: the orders created before that one')),
});

export const AdminOrderPageSchema = Type.Object(
  {
    data: Type.Array(AdminOrderSchema, { description: 'Newest first (by id: ids are UUIDv7, time-ordered)' }),
    nextCursor: Type.Union([Uuid(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' }),
  },
  { title: 'AdminOrderPage' },
);

export const StuckOrderSchema = Type.Object(
  {
    ...adminOrderFields,
    stuckReason: Type.Enum(STUCK_REASONS, {
      description: 'IN_TRANSIT_TOO_LONG: money arrived and the order has not changed for olderThanMinutes; FAILED_WITH_MONEY_HELD: a PAYIN failed holding the customer\'s PIX (any age)',
    }),
    stuckForSeconds: Type.Integer({ description: 'Since updatedAt, the order\'s last change' }),
  },
  { title: 'StuckOrder' },
);

export const StuckOrdersQuery = StrictObject({
  olderThanMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 43_200, description: 'An order in transit is stuck when unchanged this long; default STUCK_ORDER_MINUTES (30)' })),
  limit: Type.Integer({ minimum: 1, maximum: MAX_STUCK_LIMIT, default: MAX_STUCK_LIMIT, description: `Page size, at most ${MAX_STUCK_LIMIT}` }),
  cursor: Type.Optional(Uuid('The nextCursor of the previous page: the orders that last changed after that one')),
});

export const StuckOrderPageSchema = Type.Object(
  {
    data: Type.Array(StuckOrderSchema, { description: 'Oldest change first' }),
    olderThanMinutes: Type.Integer({ description: 'The threshold applied' }),
    nextCursor: Type.Union([Uuid(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' }),
  },
  { title: 'StuckOrderPage' },
);

export const AdminOrderDetailSchema = Type.Object(
  {
    ...adminOrderFields,
    paymentReference: Nullable(Type.String({ description: 'PAYIN: the PIX charge txid' })),
    pixEndToEndId: Nullable(Type.String({ description: 'The PIX received (PAYIN) or paid (PAYOUT)' })),
    providerTransactionId: Nullable(Type.String({ description: "PAYOUT: the PSP's id of the PIX sent" })),
    refundId: Nullable(Type.String({ description: 'PAYIN: the refund requested' })),
    txHash: Nullable(Type.String({ description: 'The chain signature: the transfer (PAYIN) or the deposit (PAYOUT)' })),
    treasuryWallet: Type.Union([Type.Integer({ minimum: 1, maximum: 8 }), Type.Null()], {
      description: 'PAYIN: the treasury hot wallet its transfer is signed by and paid from (CHAIN_TREASURY_WALLETS, decision 0057; wallet 1 for transfers signed before several wallets existed); null for a PAYOUT and before the transfer is signed',
    }),
    payer: Type.Union(
      [
        Type.Object({
          documentType: DocumentTypeSchema,
          document: Type.String({ description: 'Bare (digits, or a CNPJ’s letters and digits); masked as DICT masks it (`***.456.789-**`, `**.345.678/****-**`) for a role without `kyc.review`' }),
          name: Type.String({ description: 'As the PIX provider reported it; `***` for a role without `kyc.review`; empty when not reported' }),
        }),
        Type.Null(),
      ],
      { description: "PAYIN: who paid its PIX, as the PIX provider reported it (the merchant's payer policy compares it with the receiver); null when not paid or not reported. Masked for a role without `kyc.review`; shown in clear to COMPLIANCE, ADMIN and the admin token, each opening recorded (`order.personal_data_open`)" },
    ),
    platformFeeAmountBrl: Type.Number({ description: "The platform's fee, BRL: as the merchant's Order has it" }),
    merchantFeeAmountBrl: Type.Number({ description: "The merchant's fee (its revenue by volume tier), BRL: as the merchant's Order has it" }),
    markup: OrderMarkupSchema,
    netAmountBrl: Type.Number({ description: 'BRL after fees and markup: amountBrl = platformFeeAmountBrl + merchantFeeAmountBrl + markup.amountBrl + netAmountBrl' }),
    stepAttempts: Type.Integer({ description: "Failed attempts of the worker's current step" }),
    nextStepAt: Nullable(Timestamp("When the worker's next step is due; null when none is")),
    timeline: Type.Array(TimelineEntrySchema, { description: 'The order\'s story, oldest first: the entries of GET /orders/{id}/timeline' }),
  },
  { title: 'AdminOrderDetail' },
);

export const PspReconciliationRunsQuery = StrictObject({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) });
export const PspReconciliationRunSchema = Type.Object(
  {
    id: Uuid(),
    startedAt: Timestamp(),
    finishedAt: Timestamp(),
    chargesApplied: Type.Integer({ description: 'Paid charges found at the PSP that no notification had told' }),
    refundsApplied: Type.Integer({ description: 'Settled refunds found at the PSP that no notification had told' }),
    payoutsApplied: Type.Integer({ description: 'Settled payouts found at the PSP that no notification had told' }),
    drift: Type.Integer({ description: 'All three: outcomes the PSP had and the service had not until this pass' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'What stopped the pass (e.g. the PSP unreachable); null when it ran through' }),
  },
  { title: 'PspReconciliationRun' },
);
export const PspReconciliationRunsSchema = Type.Object({ data: Type.Array(PspReconciliationRunSchema) }, { title: 'PspReconciliationRuns' });
