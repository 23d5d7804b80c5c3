/**
 * Order pricing (issue 4, "Fees and amounts"), in decimals only. Tier percentages are fractions
 * (0.005 = 0.5 %). Fees round half-even to centavos; what the customer or receiver is paid
 * rounds down to its smallest unit, so rounding never silently favours the customer at the
 * platform's expense or the reverse.
 *
 * PAYIN: the customer pays `amountBrl`; fees are taken from it; `netAmountBrl` = amount − fees;
 *        `amountToken` = net ÷ rate, rounded down to the token's decimals.
 * PAYOUT: `amountCrypto` is deposited; gross BRL = crypto × rate rounded down to centavos;
 *        fees on gross; `netAmountBrl` is what the PIX pays.
 */
import { Dec, decimal } from './money.ts';

export interface FeeRates {
  /** Fractions, as decimal text. */
  platformFeePercentage: string;
  merchantFeePercentage: string;
}

export interface Pricing {
  amountBrl: string;
  amountToken: string;
  exchangeRate: string;
  platformFeeAmountBrl: string;
  merchantFeeAmountBrl: string;
  netAmountBrl: string;
}

const BRL_PLACES = 2;

function fees(grossBrl: Dec, rates: FeeRates) {
  const platform = grossBrl.times(rates.platformFeePercentage).toDecimalPlaces(BRL_PLACES, Dec.ROUND_HALF_EVEN);
  const merchant = grossBrl.times(rates.merchantFeePercentage).toDecimalPlaces(BRL_PLACES, Dec.ROUND_HALF_EVEN);
  return { platform, merchant, net: grossBrl.minus(platform).minus(merchant) };
}

function pricing(gross: Dec, amountToken: Dec, input: { exchangeRate: string; tokenDecimals: number; rates: FeeRates }): Pricing {
  const { platform, merchant, net } = fees(gross, input.rates);
  return {
    amountBrl: gross.toFixed(BRL_PLACES),
    amountToken: amountToken.toFixed(input.tokenDecimals),
    exchangeRate: decimal(input.exchangeRate).toString(),
    platformFeeAmountBrl: platform.toFixed(BRL_PLACES),
    merchantFeeAmountBrl: merchant.toFixed(BRL_PLACES),
    netAmountBrl: net.toFixed(BRL_PLACES),
  };
}

export function pricePayin(input: { amountBrl: string; exchangeRate: string; tokenDecimals: number; rates: FeeRates }): Pricing {
  const gross = decimal(input.amountBrl);
  const amountToken = fees(gross, input.rates).net.dividedBy(input.exchangeRate).toDecimalPlaces(input.tokenDecimals, Dec.ROUND_DOWN);
  return pricing(gross, amountToken, input);
}

export function pricePayout(input: { amountToken: string; exchangeRate: string; tokenDecimals: number; rates: FeeRates }): Pricing {
  const amountToken = decimal(input.amountToken);
  return pricing(amountToken.times(input.exchangeRate).toDecimalPlaces(BRL_PLACES, Dec.ROUND_DOWN), amountToken, input);
}

/**
 * The centavo amounts among which the smallest gross whose net reaches `net` lies. Each fee rounds
 * by at most half a centavo, so net is within a centavo of gross × keep (keep = 1 − fees): a gross
 * below (net − 0.01) ÷ keep never reaches it, one at (net + 0.01) ÷ keep always does. Net is not
 * monotone in gross (one more centavo can add a centavo to both fees), hence a search, not a division.
 */
function grossCandidates(net: Dec, rates: FeeRates): { first: Dec; last: Dec } {
  const keep = decimal(1).minus(rates.platformFeePercentage).minus(rates.merchantFeePercentage);
  if (!keep.gt(0)) throw new RangeError(`fees of ${decimal(1).minus(keep).toString()} leave nothing of any amount`);
  return {
    first: Dec.max('0.01', net.minus('0.01').dividedBy(keep).toDecimalPlaces(BRL_PLACES, Dec.ROUND_UP)),
    last: Dec.max('0.01', net.plus('0.01').dividedBy(keep).toDecimalPlaces(BRL_PLACES, Dec.ROUND_UP)),
  };
}

function smallestGross(net: Dec, rates: FeeRates, reaches: (gross: Dec) => boolean): Dec {
  const { first, last } = grossCandidates(net, rates);
  for (let gross = first; gross.lte(last); gross = gross.plus('0.01')) {
    if (reaches(gross)) return gross;
  }
  throw new Error(`no amount from ${first.toFixed(BRL_PLACES)} to ${last.toFixed(BRL_PLACES)} BRL reaches a net of ${net.toString()}`);
}

/**
 * The smallest PAYIN amount in BRL whose token amount is at least `amountToken` (for quotes
 * given in crypto): the token is net ÷ rate rounded down, so it reaches `amountToken` exactly
 * when net reaches amountToken × rate.
 */
export function payinAmountForToken(input: { amountToken: string; exchangeRate: string; tokenDecimals: number; rates: FeeRates }): Pricing {
  const net = decimal(input.amountToken).times(input.exchangeRate);
  const amountBrl = smallestGross(net, input.rates, (gross) => decimal(pricePayin({ ...input, amountBrl: gross.toFixed(BRL_PLACES) }).amountToken).gte(input.amountToken));
  return pricePayin({ ...input, amountBrl: amountBrl.toFixed(BRL_PLACES) });
}

/**
 * The smallest PAYOUT deposit whose net BRL is at least `netAmountBrl` (for quotes given in BRL):
 * first the smallest gross BRL whose net reaches the target, then the smallest token amount
 * worth that gross (token × rate ≥ gross, and gross has 2 decimals, so its floor stays ≥ gross).
 */
export function payoutTokenForNetBrl(input: { netAmountBrl: string; exchangeRate: string; tokenDecimals: number; rates: FeeRates }): Pricing {
  const gross = smallestGross(decimal(input.netAmountBrl), input.rates, (candidate) => fees(candidate, input.rates).net.gte(input.netAmountBrl));
  const amountToken = gross.dividedBy(input.exchangeRate).toDecimalPlaces(input.tokenDecimals, Dec.ROUND_UP);
  return pricePayout({ ...input, amountToken: amountToken.toFixed(input.tokenDecimals) });
}
