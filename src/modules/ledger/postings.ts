/**
 * What each order movement and each sponsored fee posts (debits positive, credits negative;
 * every entry sums to zero per currency). Accounts, by code (`merchant` ones are per merchant,
 * the rest the platform's):
 *
 *   pix_cash                    BRL at the platform's PSP account
 *   customer_funds_in_transit   money received for an order and not yet converted or returned
 *                               (BRL of a payin's PIX; tokens of a payout's deposit)
 *   fx_conversion               the platform's side of a conversion (both currencies)
 *   token_treasury              tokens the platform holds
 *   platform_fee_revenue        BRL
 *   merchant_fees_payable       merchant, BRL: fees earned by the merchant and not yet settled
 *   merchant_markup_payable     merchant, BRL: the partner markup earned and not yet settled,
 *                               apart from its fees (docs/decisions/0042)
 *   merchant_settlements        merchant, BRL: what settlements owe the merchant (fees and markup
 *                               settled), until their PIX to the merchant is confirmed
 *   deposits_to_return          merchant, tokens: deposited beyond what a payout ordered, owed
 *                               back to the merchant (each entry references its order)
 *   merchant_sponsored_fees     merchant, SOL: Solana fees the platform's fee payer paid for the
 *                               merchant's sign-and-send requests, owed by the merchant
 *   sponsor_sol                 SOL the platform's fee payer (sponsor) spent
 *   treasury_capital            platform equity: what operators funded the treasury with (per
 *                               token, and SOL), so the books know its opening balance
 *   network_fees                SOL: fees of the treasury's own transactions (a payin's token
 *                               transfer) and of the sponsor's sweeps, a platform expense
 *   med_returns_payable         BRL owed back to payers under accepted MED claims on PIX whose
 *                               tokens had already left (charged back to the merchant), until
 *                               the PSP returns it
 *   merchant_chargebacks_owed   merchant, BRL: what the merchant owes for those charge-backs, a
 *                               receivable (debit) until a settlement nets it against fees
 *   account_rent                SOL: rent the treasury deposited in accounts it created for
 *                               others (a receiver's token account), a platform expense
 *                               (both paid from token_treasury's SOL); less the rent a sweep
 *                               reclaimed from a closed deposit token account (to sponsor_sol)
 *
 * PAYIN:  PIX received → pix_cash +A / in_transit −A
 *         completed    → in_transit +A / platform_fee −pf / fees_payable −mf / markup_payable −mk / fx −net (BRL);
 *                        fx +tokens / treasury −tokens (token)
 *         refunded     → in_transit +R / pix_cash −R
 * PAYOUT: deposit      → treasury +D / in_transit −(D−X) / to_return −X (token), D received,
 *                        X the excess over the ordered T (X = D−T when D > T, else 0)
 *         completed    → in_transit +T / fx −T (token); fx +gross / pix_cash −net /
 *                        platform_fee −pf / fees_payable −mf / markup_payable −mk (BRL)
 * A failure after money arrived posts nothing: the funds stay in transit for an operator.
 *
 * MED CLAIM on a COMPLETED payin, accepted (once per dispute): the merchant is charged back,
 *         chargeback  → chargebacks_owed +A / med_returns_payable −A (BRL): the merchant owes
 *                       A, apart from its fees (fees_payable, the fee balance, never goes
 *                       negative: docs/decisions/0040);
 *         returned    → med_returns_payable +A / pix_cash −A, when the PSP's MED devolução settled.
 *
 * SETTLEMENT (fees F and markup M closed, O owed for charge-backs, F+M > O): fees_payable +F /
 *         markup_payable +M / chargebacks_owed −O / merchant_settlements −(F+M−O): what the
 *         merchant earned pays off what it owes first.
 * SETTLEMENT PAID (its PIX to the merchant confirmed by the PSP, once per settlement):
 *         merchant_settlements +A / pix_cash −A. A refused PIX posts nothing: A stays owed.
 *
 * TREASURY FUNDING (an operator's, once per funding reference): treasury +X / treasury_capital −X.
 * TREASURY WITHDRAWAL (two operators', once per reference): treasury_capital +X / treasury −X.
 *
 * CHAIN COSTS (a payin's transfer landed, CONFIRMED or FAILED: its fee is paid either way; in
 * the transition's transaction, what the chain charged): network_fees +F / account_rent +R /
 * token_treasury −(F+R) (SOL, lamports as SOL with 9 decimals)
 *
 * LOOKUP TABLE COSTS (an extension of the treasury's address lookup tables landed, decision 0056;
 * in the transaction that settles it): network_fees +F / lookup_table_rent +R / token_treasury
 * −(F+R) (SOL). The rent is held by the table, not spent: closing the table gives it back.
 *
 * SWEEP COSTS (a credited deposit swept to the treasury, in the transaction that marks the sweep
 * done; the sponsor pays): network_fees +F / account_rent +R / sponsor_sol −(F+R) (SOL), R the
 * rent the sponsor paid net of the rent reclaimed from the closed deposit token account (usually
 * negative: reclaimed). The tokens need no posting: the deposit already put them in token_treasury.
 *
 * SPONSORED FEE (a sign-and-send request, before it is sent): sponsored_fees +F / sponsor_sol −F
 * (SOL, lamports as SOL with 9 decimals); released when the chain refused it unsent: the reverse.
 */
import { decimal } from '../../lib/money.ts';

export type AccountCode =
  | 'pix_cash'
  | 'customer_funds_in_transit'
  | 'fx_conversion'
  | 'token_treasury'
  | 'platform_fee_revenue'
  | 'merchant_fees_payable'
  | 'merchant_markup_payable'
  | 'merchant_settlements'
  | 'deposits_to_return'
  | 'merchant_sponsored_fees'
  | 'sponsor_sol'
  | 'treasury_capital'
  | 'network_fees'
  | 'account_rent'
  | 'lookup_table_rent'
  | 'med_returns_payable'
  | 'merchant_chargebacks_owed';

const MERCHANT_ACCOUNTS: readonly AccountCode[] = ['merchant_fees_payable', 'merchant_markup_payable', 'merchant_settlements', 'deposits_to_return', 'merchant_sponsored_fees', 'merchant_chargebacks_owed'];
export const isMerchantAccount = (code: AccountCode) => MERCHANT_ACCOUNTS.includes(code);

export interface Posting {
  account: AccountCode;
  currency: string;
  /** Decimal text; debit positive, credit negative, never zero. */
  amount: string;
  /** token_treasury only: the treasury wallet whose books it is (decision 0057); 1 when absent. */
  wallet?: number;
}

export type OrderMovement = 'PAYIN_PIX_RECEIVED' | 'PAYIN_COMPLETED' | 'PAYIN_REFUNDED' | 'PAYOUT_DEPOSIT_RECEIVED' | 'PAYOUT_COMPLETED';

const leg = (account: AccountCode, currency: string, amount: string | ReturnType<typeof decimal>): Posting => ({
  account,
  currency,
  amount: decimal(amount).toString(),
});
const credit = (account: AccountCode, currency: string, amount: string) => leg(account, currency, decimal(amount).negated());
/** A token_treasury posting in treasury wallet `wallet`'s books. */
const inWallet = (wallet: number, posting: Posting): Posting => ({ ...posting, wallet });

/** What the postings read of an order: the ledger imports nothing of the orders module. */
export interface OrderAmounts {
  id: string;
  merchant_id: string;
  token: string;
  amount_brl: string;
  amount_token: string;
  net_amount_brl: string;
  platform_fee_amount_brl: string;
  merchant_fee_amount_brl: string;
  /** The partner markup ("0" when none): its own account, never the fees'. */
  markup_amount_brl: string;
  /** Tokens a payout's deposit brought beyond amount_token ("0" when none). */
  excess_amount_token: string;
  /** A PAYIN's: the treasury wallet its transfer was signed by (null: wallet 1, decision 0057). */
  treasury_wallet: number | null;
}

/** The postings of one order movement; `received` is the amount that actually moved, where it may differ. */
export function orderPostings(order: OrderAmounts, movement: OrderMovement, received?: string): Posting[] {
  const brl = 'BRL';
  const token = order.token;
  const all: Posting[] = (() => {
    switch (movement) {
      case 'PAYIN_PIX_RECEIVED':
        return [leg('pix_cash', brl, received!), credit('customer_funds_in_transit', brl, received!)];
      case 'PAYIN_REFUNDED':
        return [leg('customer_funds_in_transit', brl, received!), credit('pix_cash', brl, received!)];
      case 'PAYIN_COMPLETED':
        return [
          leg('customer_funds_in_transit', brl, order.amount_brl),
          credit('platform_fee_revenue', brl, order.platform_fee_amount_brl),
          credit('merchant_fees_payable', brl, order.merchant_fee_amount_brl),
          credit('merchant_markup_payable', brl, order.markup_amount_brl),
          credit('fx_conversion', brl, order.net_amount_brl),
          leg('fx_conversion', token, order.amount_token),
          inWallet(order.treasury_wallet ?? 1, credit('token_treasury', token, order.amount_token)),
        ];
      case 'PAYOUT_DEPOSIT_RECEIVED':
        return [
          leg('token_treasury', token, received!),
          credit('customer_funds_in_transit', token, decimal(received!).minus(order.excess_amount_token).toString()),
          credit('deposits_to_return', token, order.excess_amount_token),
        ];
      case 'PAYOUT_COMPLETED':
        return [
          leg('customer_funds_in_transit', token, order.amount_token),
          credit('fx_conversion', token, order.amount_token),
          leg('fx_conversion', brl, order.amount_brl),
          credit('pix_cash', brl, order.net_amount_brl),
          credit('platform_fee_revenue', brl, order.platform_fee_amount_brl),
          credit('merchant_fees_payable', brl, order.merchant_fee_amount_brl),
          credit('merchant_markup_payable', brl, order.markup_amount_brl),
        ];
    }
  })();
  // A zero leg (no merchant fee, say) carries no information.
  return all.filter((posting) => !decimal(posting.amount).isZero());
}

/**
 * A settlement closing `feesBrl` of fees and `markupBrl` of markup, of which `nettedBrl` pays off
 * charge-backs the merchant owed (at most both); the rest is paid out. A zero leg is left out.
 */
export function settlementPostings(feesBrl: string, nettedBrl = '0', markupBrl = '0'): Posting[] {
  const paid = decimal(feesBrl).plus(markupBrl).minus(nettedBrl);
  if (paid.isNegative() || decimal(nettedBrl).isNegative() || decimal(markupBrl).isNegative()) throw new Error('a settlement nets at most its fees and markup, and never a negative amount');
  const legs = [
    leg('merchant_fees_payable', 'BRL', feesBrl),
    leg('merchant_markup_payable', 'BRL', markupBrl),
    credit('merchant_chargebacks_owed', 'BRL', nettedBrl),
    leg('merchant_settlements', 'BRL', paid.negated()),
  ];
  return legs.filter((posting) => !decimal(posting.amount).isZero());
}

/** A settlement's PIX to the merchant, confirmed: what it owed leaves the PSP account (docs/decisions/0044). */
export function settlementPaidPostings(amountBrl: string): Posting[] {
  if (!decimal(amountBrl).gt(0)) throw new Error('a settlement pays a positive amount');
  return [leg('merchant_settlements', 'BRL', amountBrl), credit('pix_cash', 'BRL', amountBrl)];
}

/** Solana's native currency in the ledger: amounts in SOL, 9 decimals (1 lamport = 0.000000001 SOL). */
export const SOL = 'SOL';
const LAMPORTS_PER_SOL = 1_000_000_000;

export type SponsoredFeeMovement = 'SPONSORED_FEE' | 'SPONSORED_FEE_RELEASED';

/** A sponsored fee charged to the merchant (or its release): `lamports` is the fee, positive. */
export function sponsoredFeePostings(lamports: bigint, movement: SponsoredFeeMovement): Posting[] {
  if (lamports <= 0n) return [];
  const sol = decimal(lamports.toString()).dividedBy(LAMPORTS_PER_SOL).toFixed(9);
  return movement === 'SPONSORED_FEE'
    ? [leg('merchant_sponsored_fees', SOL, sol), credit('sponsor_sol', SOL, sol)]
    : [leg('sponsor_sol', SOL, sol), credit('merchant_sponsored_fees', SOL, sol)];
}

const solOf = (lamports: bigint) => decimal(lamports.toString()).dividedBy(LAMPORTS_PER_SOL).toFixed(9);

/** What one landed transaction of treasury wallet `wallet` cost, lamports (fee and rent, each ≥ 0), as SOL postings; zero legs left out. */
export function chainCostPostings(costs: { feeLamports: bigint; rentLamports: bigint }, wallet = 1): Posting[] {
  if (costs.feeLamports < 0n || costs.rentLamports < 0n) throw new Error('chain costs must not be negative');
  const total = costs.feeLamports + costs.rentLamports;
  if (total === 0n) return [];
  const legs = [leg('network_fees', SOL, solOf(costs.feeLamports)), leg('account_rent', SOL, solOf(costs.rentLamports)), inWallet(wallet, credit('token_treasury', SOL, solOf(total)))];
  return legs.filter((posting) => !decimal(posting.amount).isZero());
}

/** What one landed extension of the treasury's lookup tables took from it, lamports: the fee, and the rent the table holds. */
export function lookupTableCostPostings(costs: { feeLamports: bigint; rentLamports: bigint }): Posting[] {
  if (costs.feeLamports < 0n || costs.rentLamports < 0n) throw new Error('lookup table costs must not be negative');
  const legs = [leg('network_fees', SOL, solOf(costs.feeLamports)), leg('lookup_table_rent', SOL, solOf(costs.rentLamports)), credit('token_treasury', SOL, solOf(costs.feeLamports + costs.rentLamports))];
  return legs.filter((posting) => !decimal(posting.amount).isZero());
}

/**
 * What one landed sweep cost the sponsor, lamports: the fee (≥ 0) and the rent net of the rent
 * reclaimed (negative when the closed account's rent exceeded what was paid).
 */
export function sweepCostPostings(costs: { feeLamports: bigint; rentLamports: bigint }): Posting[] {
  if (costs.feeLamports < 0n) throw new Error('a fee must not be negative');
  const total = costs.feeLamports + costs.rentLamports;
  const legs = [leg('network_fees', SOL, solOf(costs.feeLamports)), leg('account_rent', SOL, solOf(costs.rentLamports)), leg('sponsor_sol', SOL, solOf(-total))];
  return legs.filter((posting) => !decimal(posting.amount).isZero());
}

export type DisputeMovement = 'DISPUTE_CHARGEBACK' | 'DISPUTE_RETURNED';

/** An accepted MED claim on a completed payin: the chargeback to the merchant, then the return paid. */
export function disputePostings(movement: DisputeMovement, amountBrl: string): Posting[] {
  return movement === 'DISPUTE_CHARGEBACK'
    ? [leg('merchant_chargebacks_owed', 'BRL', amountBrl), credit('med_returns_payable', 'BRL', amountBrl)]
    : [leg('med_returns_payable', 'BRL', amountBrl), credit('pix_cash', 'BRL', amountBrl)];
}

/** An operator's funding of treasury wallet `wallet` with `amount` (decimal text, positive) of `currency`. */
export function treasuryFundingPostings(currency: string, amount: string, wallet = 1): Posting[] {
  return [inWallet(wallet, leg('token_treasury', currency, amount)), credit('treasury_capital', currency, amount)];
}

/** What two operators agreed was moved out of treasury wallet `wallet`: funding's reverse. */
export function treasuryWithdrawalPostings(currency: string, amount: string, wallet = 1): Posting[] {
  return [leg('treasury_capital', currency, amount), inWallet(wallet, credit('token_treasury', currency, amount))];
}

/** The rule the database also enforces: every currency of an entry sums to zero. */
export function isBalanced(postings: Posting[]): boolean {
  const sums = new Map<string, ReturnType<typeof decimal>>();
  for (const posting of postings) sums.set(posting.currency, (sums.get(posting.currency) ?? decimal(0)).plus(posting.amount));
  return [...sums.values()].every((sum) => sum.isZero());
}
