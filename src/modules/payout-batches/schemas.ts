/** The payout batches' HTTP shapes (docs/architecture/payout-batches.md). */
import { Type } from 'typebox';
import { PIX_KEY_TYPES } from '../orders/schemas.ts';
import { ChainField, HumanName, Nullable, StrictObject, Timestamp, TokenAmountInput, TokenField, Uuid } from '../../http/schemas.ts';
import { PageOf, PageQuery } from '../../http/pagination.ts';
import { BATCH_STATUSES, ITEM_STATUSES } from './tables.ts';

export const MAX_BATCH_ITEMS = 1000;

/** One line: a PAYOUT body without its token (the batch's) and without a quote (the batch prices its lines). */
export const PayoutBatchLine = StrictObject(
  {
    receiverId: Uuid('The receiver paid'),
    amountCrypto: TokenAmountInput("This line's share of the batch's deposit"),
    token: Type.Optional(TokenField),
    pixKey: Type.Optional(Type.String({ minLength: 1, maxLength: 77, description: "Default: the receiver's document as a CPF or CNPJ key; under RECEIVER_ONLY, a key held by the receiver only" })),
    pixKeyType: Type.Optional(Type.Enum(PIX_KEY_TYPES, { title: 'PixKeyType', description: 'Required with pixKey' })),
    recipientName: Type.Optional(HumanName("Default: the receiver's name")),
    externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: "The line's order's externalId: unique within the batch and among the merchant's orders" })),
  },
  { title: 'PayoutBatchLine' },
);

export const PayoutBatchJsonBody = StrictObject(
  {
    token: Type.Optional(TokenField),
    chain: Type.Optional(ChainField),
    items: Type.Array(PayoutBatchLine, { minItems: 1, maxItems: MAX_BATCH_ITEMS, description: `1 to ${MAX_BATCH_ITEMS} payouts` }),
  },
  { title: 'CreatePayoutBatchRequest' },
);

export const PayoutBatchCsvBody = Type.String({
  minLength: 1,
  title: 'PayoutBatchCsv',
  description:
    'With Content-Type text/csv: a header line naming columns among receiverId, amountCrypto, token (required), externalId, pixKey, pixKeyType, recipientName (optional), then one line per payout (at most 1,000), comma-separated, RFC 4180 quoting. Every line names the same token.',
});

export const PayoutBatchBody = Type.Union([PayoutBatchJsonBody, PayoutBatchCsvBody]);

const Money = (description: string) => Type.String({ description: `${description}; decimal text`, examples: ['540.00'] });

export const PayoutBatchSchema = Type.Object(
  {
    id: Uuid(),
    status: Type.Enum(BATCH_STATUSES, {
      title: 'PayoutBatchStatus',
      description:
        'VALIDATED (lines checked, nothing moves yet) → AWAITING_APPROVAL (its total is above the merchant threshold: a second person approves) → AWAITING_FUNDING (depositAddress shown) → PAYING (funded: each valid line becomes a PAYOUT order) → COMPLETED (every line handed to its order or refused); PAUSED stops making orders; CANCELLED: the unpaid rest never paid; EXPIRED: not funded before ratesExpireAt',
    }),
    chain: Type.String(),
    token: Type.String(),
    itemCount: Type.Integer({ description: 'Lines uploaded' }),
    validCount: Type.Integer({ description: 'Lines that passed validation' }),
    invalidCount: Type.Integer(),
    totalCrypto: Type.String({ description: 'Tokens the deposit must bring: the valid lines together; decimal text' }),
    totalBrl: Money("The valid lines' gross at their prices"),
    totalNetBrl: Money('What the valid lines pay by PIX'),
    ratesExpireAt: Timestamp('The lines are priced until then: a batch not funded by then expires'),
    approvalRequired: Type.Union([Type.Boolean(), Type.Null()], { description: 'Decided when submitted: null before' }),
    createdByUserId: Nullable(Uuid('The person who created it; null: an API key')),
    approvedByUserId: Nullable(Uuid('The second person who approved it')),
    approvedAt: Nullable(Timestamp()),
    depositAddress: Nullable(Type.String({ description: 'Where to send totalCrypto of token; shown once the batch may be funded' })),
    fundedCrypto: Nullable(Type.String({ description: 'Tokens received so far (below totalCrypto: not yet funded)' })),
    fundedAt: Nullable(Timestamp()),
    heldCrypto: Type.String({ description: "Tokens held for return to the merchant: the deposit's excess, refused and cancelled lines' shares (and, while paying, the lines not yet made orders); for a batch EXPIRED or CANCELLED before its deposits covered its total, all that arrived" }),
    progress: Type.Object(
      {
        valid: Type.Integer({ description: 'Lines waiting to become orders' }),
        invalid: Type.Integer(),
        ordered: Type.Integer({ description: 'Lines made orders' }),
        completed: Type.Integer({ description: 'Their orders COMPLETED (PIX paid)' }),
        failed: Type.Integer({ description: 'Their orders FAILED (a refused PIX, reported)' }),
        refused: Type.Integer({ description: 'Lines whose order was refused when made (limits, receiver changed)' }),
        cancelled: Type.Integer(),
      },
      { description: 'How many lines stand where' },
    ),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  },
  { title: 'PayoutBatch' },
);

export const PayoutBatchItemSchema = Type.Object(
  {
    line: Type.Integer({ description: '1-based line of the upload (the CSV data line, header excluded)' }),
    status: Type.Enum(ITEM_STATUSES, { title: 'PayoutBatchItemStatus' }),
    receiverId: Nullable(Type.String()),
    externalId: Nullable(Type.String()),
    amountCrypto: Nullable(Type.String()),
    amountBrl: Nullable(Type.String({ description: 'Priced gross (the order\'s once made)' })),
    netAmountBrl: Nullable(Type.String()),
    errors: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], { description: "The line's refusals: field → reason (the codes' messages of POST /payout)" }),
    orderId: Nullable(Uuid()),
    orderStatus: Nullable(Type.String({ description: "The order's status once made" })),
    failureReason: Nullable(Type.String({ description: "The order's failureReason (a refused PIX)" })),
  },
  { title: 'PayoutBatchItem' },
);

export const PayoutBatchPage = PageOf(PayoutBatchSchema, 'PayoutBatchPage');
export const PayoutBatchItemPage = PageOf(PayoutBatchItemSchema, 'PayoutBatchItemPage');
export const BatchListQuery = StrictObject({ ...PageQuery });

export const PayoutBatchSettingsSchema = Type.Object(
  {
    approvalThresholdBrl: Nullable(Type.String({ description: 'A batch whose totalBrl is above it needs a second person (OWNER or ADMIN, not its creator) to approve; null: no approval needed' })),
    updatedAt: Nullable(Timestamp()),
  },
  { title: 'PayoutBatchSettings' },
);

export const PayoutBatchSettingsBody = StrictObject(
  { approvalThresholdBrl: Type.Union([Type.String({ pattern: '^\\d{1,13}(\\.\\d{1,2})?$', description: 'BRL, decimal text' }), Type.Null()]) },
  { title: 'PayoutBatchSettingsRequest' },
);
