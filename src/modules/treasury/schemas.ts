/**
 * The treasury's admin shapes. Amounts in answers are decimal text, not JSON numbers: SOL has 9
 * decimals, and a balance such as 1000000.123456789 has more significant digits than a double
 * keeps exactly.
 */
import { Type } from 'typebox';
import { HumanText, Nullable, StrictObject, Timestamp, TokenAmountInput, Uuid } from '../../http/schemas.ts';

const Amount = (description: string) => Type.String({ description: `${description}; decimal text in whole units (SOL: 9 decimals)` });
/** A treasury hot wallet's number (decision 0057): 1 is the TREASURY key, n the TREASURY_n key. */
const Wallet = (description: string) => Type.Integer({ minimum: 1, maximum: 8, description });

export const FundingBody = StrictObject({
  currency: Type.String({ minLength: 2, maxLength: 10, pattern: '^[A-Z0-9]{2,10}$', description: 'SOL or a supported token symbol (USDC)' }),
  amount: TokenAmountInput('What the funding moved into the treasury'),
  reference: Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7E]+$', description: "The funding's own name, e.g. its transaction signature: one funding per reference (printable ASCII, no spaces)" }),
  note: Type.Optional(HumanText({ minLength: 1, maxLength: 500, description: 'Why, for the audit trail' })),
  wallet: Type.Optional(Wallet('The treasury wallet the tokens went to (default 1); 400 past CHAIN_TREASURY_WALLETS')),
}, { title: 'TreasuryFundingRequest' });

export const FundingSchema = Type.Object(
  {
    id: Uuid(),
    reference: Type.String(),
    wallet: Wallet('The treasury wallet funded'),
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
  { wallet: Wallet('The treasury wallet: each is reconciled against its own books'), currency: Type.String(), onChain: Amount('Read on chain'), ledger: Amount('In the ledger'), drift: Amount('onChain − ledger'), inFlightAmount: Amount('Carried by PAYIN transfers in flight and by credited PAYOUT deposits not yet swept into the treasury') },
  { title: 'TreasuryReconciliationCurrency' },
);

export const ReconciliationRunSchema = Type.Object(
  {
    id: Uuid(),
    startedAt: Timestamp(),
    finishedAt: Timestamp(),
    inFlightTransfers: Type.Integer({ description: 'PAYINs TRANSFERRING and credited PAYOUT deposits not yet swept when the run read the chain (transient drift; treasury.md)' }),
    driftFound: Type.Boolean({ description: 'Some currency drifted beyond what the transfers in flight explain' }),
    currencies: Type.Array(RunCurrencySchema, { description: 'Per wallet, per currency' }),
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

const WalletCurrencySchema = Type.Object(
  {
    currency: Type.String(),
    onChain: Nullable(Amount("The wallet's balance on chain (null: not on chain, or not read)")),
    ledger: Amount("The wallet's token_treasury balance in the ledger"),
    drift: Nullable(Amount('onChain − ledger')),
    belowThreshold: Type.Union([Type.Boolean(), Type.Null()], { description: 'onChain below TREASURY_LOW_BALANCE (each wallet pays its own fees); null without either' }),
    inFlightTransfers: Type.Integer({ description: 'PAYINs whose transfer this wallet signed, not yet COMPLETED' }),
    inFlightAmount: Amount('Tokens of those transfers'),
  },
  { title: 'TreasuryWalletCurrency' },
);

const WalletSchema = Type.Object(
  {
    wallet: Wallet('1 is the TREASURY key, n the TREASURY_n key'),
    address: Nullable(Type.String({ description: "The wallet's address; null when not on chain" })),
    currencies: Type.Array(WalletCurrencySchema),
  },
  { title: 'TreasuryWallet' },
);

export const TreasurySchema = Type.Object(
  {
    chain: Type.Enum(['solana-rpc', 'sandbox'], { description: 'sandbox: no treasury on chain; liquidity is not limited and nothing is reconciled' }),
    onChain: Type.Boolean(),
    address: Nullable(Type.String({ description: "Wallet 1's address (it receives the deposit sweeps and holds the lookup tables)" })),
    onChainSource: Type.Enum(['node', 'last-reconciliation', 'none'], { description: 'node: read for this answer; last-reconciliation: the node failed, these are the last run’s' }),
    onChainAsOf: Nullable(Timestamp('When the on-chain balances were read')),
    currencies: Type.Array(CurrencySchema, { description: "Every wallet's together" }),
    wallets: Type.Array(WalletSchema, { description: 'Each hot wallet (CHAIN_TREASURY_WALLETS, decision 0057): PAYIN transfers go from the next one in turn that covers them, each with its own books and reconciliation' }),
    lastReconciliation: Type.Union([ReconciliationRunSchema, Type.Null()]),
    lookupTables: LookupTablesSchema,
  },
  { title: 'Treasury' },
);
