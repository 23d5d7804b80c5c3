/**
 * The treasury's admin shapes. Amounts in answers are decimal text, not JSON numbers: SOL has 9
 * decimals, and a balance such as 1000000.123456789 has more significant digits than a double
 * keeps exactly.
 */
import { Type } from 'typebox';
import { HumanText, Nullable, StrictObject, Timestamp, TokenAmountInput, Uuid } from '../../http/schemas.ts';

const Amount = (description: string) => Type.String({ description: `${description}; decimal text in whole units (SOL: 9 decimals)` });

export const FundingBody = StrictObject({
  currency: Type.String({ minLength: 2, maxLength: 10, pattern: '^[A-Z0-9]{2,10}$', description: 'SOL or a supported token symbol (USDC)' }),
  amount: TokenAmountInput('What the funding moved into the treasury'),
  reference: Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7E]+$', description: "The funding's own name, e.g. its transaction signature: one funding per reference (printable ASCII, no spaces)" }),
  note: Type.Optional(HumanText({ minLength: 1, maxLength: 500, description: 'Why, for the audit trail' })),
}, { title: 'TreasuryFundingRequest' });

export const FundingSchema = Type.Object(
  {
    id: Uuid(),
    reference: Type.String(),
    currency: Type.String(),
    amount: Amount('Funded'),
    note: Nullable(Type.String()),
    createdAt: Timestamp(),
  },
  { title: 'TreasuryFunding' },
);

const CurrencySchema = Type.Object(
  {
    currency: Type.String(),
    onChain: Nullable(Amount("The treasury's balance on chain (null: not on chain, or not read)")),
    ledger: Amount("The ledger's token_treasury balance"),
    drift: Nullable(Amount('onChain − ledger (negative: the chain holds less than the books)')),
    lowBalanceThreshold: Nullable(Amount('TREASURY_LOW_BALANCE for this currency')),
    belowThreshold: Type.Union([Type.Boolean(), Type.Null()], { description: 'onChain below the threshold; null without either' }),
    openPayinObligations: Amount('Tokens owed by PAYINs awaiting or holding their PIX, not yet transferred'),
    openPayins: Type.Integer({ description: 'How many PAYINs owe openPayinObligations' }),
    inFlightTransfers: Type.Integer({ description: 'PAYINs whose transfer was sent and is not yet COMPLETED' }),
    inFlightAmount: Amount('Tokens of those transfers: the chain may already show them gone while the ledger still holds them'),
  },
  { title: 'TreasuryCurrency' },
);

const RunCurrencySchema = Type.Object(
  { currency: Type.String(), onChain: Amount('Read on chain'), ledger: Amount('In the ledger'), drift: Amount('onChain − ledger'), inFlightAmount: Amount('Carried by PAYIN transfers in flight and by credited PAYOUT deposits not yet swept into the treasury') },
  { title: 'TreasuryReconciliationCurrency' },
);

export const ReconciliationRunSchema = Type.Object(
  {
    id: Uuid(),
    startedAt: Timestamp(),
    finishedAt: Timestamp(),
    inFlightTransfers: Type.Integer({ description: 'PAYINs TRANSFERRING and credited PAYOUT deposits not yet swept when the run read the chain (transient drift; treasury.md)' }),
    driftFound: Type.Boolean({ description: 'Some currency drifted beyond what the transfers in flight explain' }),
    currencies: Type.Array(RunCurrencySchema),
  },
  { title: 'TreasuryReconciliation' },
);

export const ReconciliationListQuery = StrictObject({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'How many runs, the newest first; at most 100' }),
});

export const ReconciliationListSchema = Type.Object({ data: Type.Array(ReconciliationRunSchema) }, { title: 'TreasuryReconciliationList' });

const LookupTablesSchema = Type.Object(
  {
    tables: Type.Integer({ description: "The treasury's address lookup tables (decision 0056)" }),
    addresses: Type.Integer({ description: "Receivers' token accounts they hold, as finalized" }),
    rentHeld: Amount('SOL the tables hold as rent, from the ledger (lookup_table_rent): returned when a table is closed'),
    extensionInFlight: Type.Boolean({ description: 'An extension is stored or sent and not yet finalized' }),
  },
  { title: 'TreasuryLookupTables' },
);

export const TreasurySchema = Type.Object(
  {
    chain: Type.Enum(['solana-rpc', 'sandbox'], { description: 'sandbox: no treasury on chain; liquidity is not limited and nothing is reconciled' }),
    onChain: Type.Boolean(),
    address: Nullable(Type.String({ description: "The treasury's address" })),
    onChainSource: Type.Enum(['node', 'last-reconciliation', 'none'], { description: 'node: read for this answer; last-reconciliation: the node failed, these are the last run’s' }),
    onChainAsOf: Nullable(Timestamp('When the on-chain balances were read')),
    currencies: Type.Array(CurrencySchema),
    lastReconciliation: Type.Union([ReconciliationRunSchema, Type.Null()]),
    lookupTables: LookupTablesSchema,
  },
  { title: 'Treasury' },
);
