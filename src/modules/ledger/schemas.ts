import { Type } from 'typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageQuery } from '../../http/pagination.ts';
import { Nullable, StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';
import { SETTLEMENT_PAYOUT_STATUSES } from './tables.ts';

/**
 * `page` and `limit` like every other list (http/pagination.ts). `pageSize`, the name these two
 * lists had first, stays as a deprecated alias so no client breaks; the answer's Pagination
 * object keeps `pageSize`, as the spec names it. Neither has a schema default: the service must
 * see which one the client sent (`pageOf` in routes.ts).
 */
const PageSizeQuery = {
  page: PageQuery.page,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: `Records per page, at most ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` })),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, deprecated: true, description: 'Deprecated alias of `limit`; sending both with different values is 400' }),
  ),
};

export const SettlementListQuery = StrictObject(PageSizeQuery);
export const EntryListQuery = StrictObject({
  ...PageSizeQuery,
  settled: Type.Optional(Type.Boolean({ description: 'true: only entries closed by a settlement; false: only entries not (yet) settled' })),
});

export const PaginationSchema = Type.Object(
  { page: Type.Integer(), pageSize: Type.Integer(), total: Type.Integer(), totalPages: Type.Integer() },
  { title: 'Pagination' },
);

export const SettlementSchema = Type.Object(
  {
    id: Uuid(),
    merchantId: Uuid(),
    periodStart: Timestamp(),
    periodEnd: Timestamp(),
    createdAt: Timestamp(),
    amountBrl: Type.Number({
      description:
        'What the settlement paid the merchant, BRL: the merchant fees and the partner markup it settled, less the charge-backs the merchant owed that it netted (its SETTLEMENT ledger entry shows each)',
    }),
    markupBrl: Type.Number({ description: 'Of what it settled, the partner markup, BRL (0 when none): settled with the fees, shown apart from them' }),
    entriesCount: Type.Integer({ description: 'Ledger entries the settlement closed' }),
    payoutStatus: Type.Enum(SETTLEMENT_PAYOUT_STATUSES, {
      title: 'SettlementPayoutStatus',
      description:
        'The PIX paying amountBrl to the merchant\'s settlement key: AWAITING_PIX_KEY (no key approved for the merchant yet: the amount is owed and paid once one is), PENDING (to be sent), SENDING (being sent to the PSP), SENT (the PSP took it, not yet confirmed), PAID (confirmed: pixEndToEndId and paidAt), FAILED (refused by the PSP or the receiving bank: still owed, sent again once a new key is approved)',
    }),
    pixEndToEndId: Nullable(Type.String({ description: "The PIX's reference (endToEndId), once PAID; null before", examples: ['E1234567820261206030000000000001'] })),
    paidAt: Nullable(Timestamp('When the PSP confirmed the PIX; null before it is PAID')),
    payoutFailureReason: Nullable(Type.String({ description: 'Why the last PIX was refused (FAILED); null otherwise' })),
  },
  { title: 'Settlement' },
);

export const FeeBalanceSchema = Type.Object(
  {
    merchantId: Uuid(),
    balance: Type.String({
      pattern: '^\\d+\\.\\d{2}$',
      description: 'The total of merchant fees collected and not yet settled: decimal amount with two fraction digits, as text ("0.00" for none); never negative (charge-backs are `chargebacksOwed`)',
    }),
    chargebacksOwed: Type.String({
      pattern: '^\\d+\\.\\d{2}$',
      description:
        'What the merchant owes for charge-backs of accepted MED claims on completed PAYINs, not yet recovered: decimal amount with two fraction digits, as text ("0.00" for none); never negative. The next settlement nets it against the fees it settles and pays only the rest (nothing, leaving both open, while the fees do not exceed it)',
    }),
    markupBalance: Type.String({
      pattern: '^\\d+\\.\\d{2}$',
      description: 'The partner markup earned and not yet settled, apart from balance (its own account): decimal amount with two fraction digits, as text ("0.00" for none); the next settlement pays it with the fees',
    }),
    currency: Type.Literal('BRL'),
  },
  { title: 'FeeBalance' },
);

export const EntrySchema = Type.Object(
  {
    id: Uuid(),
    kind: Type.String({
      description:
        'PAYIN_PIX_RECEIVED, PAYIN_COMPLETED, PAYIN_REFUNDED, PAYOUT_DEPOSIT_RECEIVED, PAYOUT_COMPLETED, CHAIN_COSTS (what the chain charged the platform treasury for a payin token transfer: its network fee and the rent of the receiver token account it created, in SOL; the platform expense, never the merchant), SWEEP_COSTS (what the platform fee payer paid to sweep a payout deposit into the treasury: its network fee, and the rent of the closed deposit token account it got back, in SOL; the platform expense, never the merchant), SETTLEMENT (with a `merchant_chargebacks_owed` leg when it netted charge-backs the merchant owed), DISPUTE_CHARGEBACK (an accepted MED claim on a completed PAYIN charged back: `merchant_chargebacks_owed`, referencing the dispute), DISPUTE_RETURNED (the platform paid that MED return), CHARGEBACK_RECLASSIFIED (a charge-back first posted against the fees moved to `merchant_chargebacks_owed`, referencing that entry), or SPONSORED_FEE (a Solana fee the platform paid for a sign-and-send request, charged in SOL to `merchant_sponsored_fees`) and SPONSORED_FEE_RELEASED (its reversal when the transaction was refused unsent)',
    }),
    referenceType: Type.Enum(['order', 'settlement', 'entry', 'wallet_sign_request', 'dispute', 'payout_batch'], {
      description: 'wallet_sign_request: the sign-and-send request whose fee an entry charges; dispute: the MED claim charged back or returned; entry: the entry another corrects',
    }),
    referenceId: Uuid(),
    createdAt: Timestamp(),
    settled: Type.Boolean({ description: 'Closed by a settlement (only entries carrying a merchant fee are settled)' }),
    settlementId: Type.Union([Uuid(), Type.Null()]),
    postings: Type.Array(
      Type.Object({
        account: Type.String(),
        owner: Type.Enum(['platform', 'merchant'], { description: "Whose account: a merchant's answers show only `merchant` (its own accounts); the back office's, the platform's too" }),
        currency: Type.String(),
        amount: Type.String({
          description: "Decimal text; debits positive, credits negative. All of an entry's postings sum to zero per currency; a merchant's answer shows its own accounts' only, so there they need not",
        }),
      }),
      { description: "The entry's postings: in a merchant's answer, those on its own accounts only (docs/decisions/0041)" },
    ),
  },
  { title: 'LedgerEntry' },
);

export const SettlementRunBody = StrictObject({
  cutoff: Type.Optional(Timestamp('Close entries created before this instant; default now')),
}, { title: 'SandboxSettlementRunRequest' });

export const AdminSettlementRunBody = StrictObject({
  cutoff: Type.Optional(Timestamp('Close entries created before this instant; default now')),
  merchantId: Type.Optional(Uuid('Only this merchant; default every merchant with unsettled fees')),
}, { title: 'SettlementRunRequest' });

const BrlText = (description: string) => Type.String({ pattern: '^-?\\d+\\.\\d{2}$', description: `${description}; BRL, decimal text with two decimals` });

export const SettlementsDueQuery = StrictObject({
  limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 50, description: `How many merchants, the largest amount first; at most ${MAX_PAGE_SIZE}` }),
});

export const SettlementsDueSchema = Type.Object(
  {
    asOf: Timestamp('The cut-off: fee entries recorded before it'),
    merchants: Type.Integer({ description: 'Merchants a run now would pay (unsettled fees above what they owe for charge-backs), all of them (data shows the first `limit`)' }),
    totalBrl: BrlText('What a run now would pay all those merchants'),
    data: Type.Array(
      Type.Object(
        {
          merchantId: Uuid(),
          merchantName: Type.String(),
          amountBrl: BrlText('What a settlement run now would pay: merchant fees and partner markup recognised and not yet settled, less chargebacksOwedBrl'),
          markupBrl: BrlText("The partner markup in amountBrl (the merchant_markup_payable account, decision 0042): what the merchant's own markup earned, apart from its fees"),
          chargebacksOwedBrl: BrlText('What the merchant owes for charge-backs of accepted MED claims, which the run nets'),
          entries: Type.Integer({ description: 'Fee entries a run now would close' }),
          oldestEntryAt: Timestamp('The oldest of them'),
        },
        { title: 'SettlementDue' },
      ),
    ),
  },
  { title: 'SettlementsDue' },
);
