/**
 * What a PAYOUT deposit of any amount buys (issue 24, docs/architecture/orders.md "Money that cannot be
 * used"). The order was priced, checked against the order maximum and reserved against the
 * receiver's day at creation; a deposit can only keep or lower what it pays out, never raise it:
 *
 * - exactly the ordered amount: the order as created;
 * - more: the order as created (same tokens, BRL, fees and net), and the excess tokens are held
 *   for return (recorded on the order and in the ledger's `deposits_to_return`). Re-pricing
 *   upwards would sell the merchant a free option on the locked rate and pay past every limit;
 * - less: re-priced at the locked rate and fee percentages, failing below the minimum order.
 *   Fees round per centavo, so a smaller gross can leave a centavo more net than the ordered one
 *   (a 2.5 % merchant fee: 26.99 gross nets 26.19, 27.00 nets 26.18); the net is then capped at
 *   the ordered net and the platform fee takes the centavo, so no deposit pays more. The
 *   partner markup is recomputed on the smaller gross with the terms the order locked.
 */
import { decimal } from '../../../lib/money.ts';
import { NothingLeftError, pricePayout } from '../../../lib/pricing.ts';
import type { OrderRow } from '../tables.ts';
import { markupTermsOf } from '../../markups/view.ts';

type PricedOrder = Pick<OrderRow, 'token' | 'amount_token' | 'net_amount_brl' | 'exchange_rate' | 'platform_fee_percentage' | 'merchant_fee_percentage' | 'markup_bps' | 'markup_flat_brl' | 'markup_cap_brl'>;

/** The order's amounts after the deposit (only those that change) and the tokens held for return. */
export interface AcceptedDeposit {
  accepted: true;
  changes: Partial<Pick<OrderRow, 'amount_token' | 'amount_brl' | 'platform_fee_amount_brl' | 'merchant_fee_amount_brl' | 'markup_amount_brl' | 'net_amount_brl' | 'excess_amount_token'>>;
  /** Tokens beyond the ordered amount, decimal text; "0" when none. */
  excessToken: string;
}

/** Worth less than the minimum order: the order fails and the tokens are held for return. */
export interface RefusedDeposit {
  accepted: false;
  reason: string;
}

/** A deposit so small that the markup would take all of it is worth nothing to pay out: null, refused like one below the minimum. */
function repriceOrNull(input: Parameters<typeof pricePayout>[0]) {
  try {
    return pricePayout(input);
  } catch (err) {
    if (err instanceof NothingLeftError) return null;
    throw err;
  }
}

export function depositTerms(order: PricedOrder, deposited: string, settings: { minAmountBrl: string; tokenDecimals: number }): AcceptedDeposit | RefusedDeposit {
  const amount = decimal(deposited);
  if (amount.gte(order.amount_token)) {
    const excess = amount.minus(order.amount_token);
    return { accepted: true, changes: excess.isZero() ? {} : { excess_amount_token: excess.toString() }, excessToken: excess.toString() };
  }
  const repriced = repriceOrNull({
    amountToken: deposited,
    exchangeRate: order.exchange_rate,
    tokenDecimals: settings.tokenDecimals,
    rates: { platformFeePercentage: order.platform_fee_percentage, merchantFeePercentage: order.merchant_fee_percentage },
    markup: markupTermsOf(order),
  });
  if (repriced === null) return { accepted: false, reason: `Deposit of ${deposited} ${order.token} is worth less than the fees and markup of this order; it is held for return` };
  if (decimal(repriced.amountBrl).lt(settings.minAmountBrl)) {
    return { accepted: false, reason: `Deposit of ${deposited} ${order.token} is worth less than the minimum order of ${settings.minAmountBrl} BRL; it is held for return` };
  }
  const overNet = decimal(repriced.netAmountBrl).minus(order.net_amount_brl);
  const capped = overNet.gt(0)
    ? { netAmountBrl: decimal(order.net_amount_brl).toFixed(2), platformFeeAmountBrl: decimal(repriced.platformFeeAmountBrl).plus(overNet).toFixed(2) }
    : { netAmountBrl: repriced.netAmountBrl, platformFeeAmountBrl: repriced.platformFeeAmountBrl };
  return {
    accepted: true,
    changes: {
      amount_token: repriced.amountToken,
      amount_brl: repriced.amountBrl,
      platform_fee_amount_brl: capped.platformFeeAmountBrl,
      merchant_fee_amount_brl: repriced.merchantFeeAmountBrl,
      markup_amount_brl: repriced.markupAmountBrl,
      net_amount_brl: capped.netAmountBrl,
    },
    excessToken: '0',
  };
}
