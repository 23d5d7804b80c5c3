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
 * A partner's markup (markup.ts) is taken from the same gross beside the fees, so
 * fees + markup + net = gross; terms that would leave no net are `NothingLeftError`.
 */
import { Dec, decimal } from './money.ts';
import { type MarkupTerms, NO_MARKUP, markupAmount } from './markup.ts';

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
  /** The partner's markup taken from the gross ("0.00" when none). */
  markupAmountBrl: string;
}

/** Fees and markup would take the whole amount (or more): nothing would reach the customer or receiver. */
export class NothingLeftError extends RangeError {}

interface PriceInput {
  exchangeRate: string;
  tokenDecimals: number;
  rates: FeeRates;
  /** Default: none. */
  markup?: MarkupTerms | undefined;
}

const BRL_PLACES = 2;

function fees(grossBrl: Dec, rates: FeeRates, terms: MarkupTerms = NO_MARKUP) {
  const platform = grossBrl.times(rates.platformFeePercentage).toDecimalPlaces(BRL_PLACES, Dec.ROUND_HALF_EVEN);
  const merchant = grossBrl.times(rates.merchantFeePercentage).toDecimalPlaces(BRL_PLACES, Dec.ROUND_HALF_EVEN);
  const markup = markupAmount(grossBrl, terms);
  return { platform, merchant, markup, net: grossBrl.minus(platform).minus(merchant).minus(markup) };
}

function pricing(gross: Dec, amountToken: Dec, input: PriceInput): Pricing {
  const { platform, merchant, markup, net } = fees(gross, input.rates, input.markup);
  // A markup must leave something (a flat amount above a small order would not); fees alone
  // (rates below 1 together) never go past the gross.
  if (net.isNegative() || (net.isZero() && markup.gt(0))) throw new NothingLeftError(`fees and markup take all of ${gross.toFixed(BRL_PLACES)} BRL`);
  return {
    amountBrl: gross.toFixed(BRL_PLACES),
    amountToken: amountToken.toFixed(input.tokenDecimals),
    exchangeRate: decimal(input.exchangeRate).toString(),
    platformFeeAmountBrl: platform.toFixed(BRL_PLACES),
    merchantFeeAmountBrl: merchant.toFixed(BRL_PLACES),
    netAmountBrl: net.toFixed(BRL_PLACES),
    markupAmountBrl: markup.toFixed(BRL_PLACES),
  };
}

export function pricePayin(input: PriceInput & { amountBrl: string }): Pricing {
  const gross = decimal(input.amountBrl);
  const amountToken = Dec.max(0, fees(gross, input.rates, input.markup).net).dividedBy(input.exchangeRate).toDecimalPlaces(input.tokenDecimals, Dec.ROUND_DOWN);
  return pricing(gross, amountToken, input);
}

export function pricePayout(input: PriceInput & { amountToken: string }): Pricing {
  const amountToken = decimal(input.amountToken);
  return pricing(amountToken.times(input.exchangeRate).toDecimalPlaces(BRL_PLACES, Dec.ROUND_DOWN), amountToken, input);
}

/**
 * The centavo amounts among which the smallest gross whose net reaches `net` lies. Each fee rounds
 * by at most half a centavo, so fees are within a centavo of gross × f (f = both rates); the
 * markup is min(cap, ⌊gross × b⌋ + flat), within a centavo below gross × b + flat. So a gross
 * reaches the net only if (gross × (1 − f − b) − flat or, capped, gross × (1 − f) − cap) + 0.02
 * does, and surely reaches it once both lower bounds do: a window of a few centavos. Net is not
 * monotone in gross (one more centavo can add a centavo to both fees), hence a search, not a division.
 */
function grossCandidates(net: Dec, rates: FeeRates, terms: MarkupTerms): { first: Dec; last: Dec } {
  const keep = decimal(1).minus(rates.platformFeePercentage).minus(rates.merchantFeePercentage);
  const keepUncapped = keep.minus(decimal(terms.bps).dividedBy(10_000));
  if (!keepUncapped.gt(0)) throw new NothingLeftError(`fees of ${decimal(1).minus(keepUncapped).toString()} leave nothing of any amount`);
  const up = (value: Dec) => Dec.max('0.01', value.toDecimalPlaces(BRL_PLACES, Dec.ROUND_UP));
  const down = (value: Dec) => Dec.max('0.01', value.toDecimalPlaces(BRL_PLACES, Dec.ROUND_DOWN));
  let first = down(net.plus(terms.flatBrl).minus('0.02').dividedBy(keepUncapped));
  let last = up(net.plus(terms.flatBrl).plus('0.02').dividedBy(keepUncapped));
  if (terms.capBrl !== null) {
    first = Dec.min(first, down(net.plus(terms.capBrl).minus('0.02').dividedBy(keep)));
    last = Dec.min(last, up(net.plus(terms.capBrl).plus('0.02').dividedBy(keep)));
  }
  return { first, last };
}

function smallestGross(net: Dec, rates: FeeRates, terms: MarkupTerms, reaches: (gross: Dec) => boolean): Dec {
  const { first, last } = grossCandidates(net, rates, terms);
  for (let gross = first; gross.lte(last); gross = gross.plus('0.01')) {
    if (reaches(gross)) return gross;
  }
  throw new Error(`no amount from ${first.toFixed(BRL_PLACES)} to ${last.toFixed(BRL_PLACES)} BRL reaches a net of ${net.toString()}`);
}

/** Whether a gross leaves a positive net that satisfies `test` (a gross the markup takes whole does not). */
const leaves = (price: () => Pricing, test: (priced: Pricing) => boolean) => {
  try {
    return test(price());
  } catch (err) {
    if (err instanceof NothingLeftError) return false;
    throw err;
  }
};

/**
 * The smallest PAYIN amount in BRL whose token amount is at least `amountToken` (for quotes
 * given in crypto): the token is net ÷ rate rounded down, so it reaches `amountToken` exactly
 * when net reaches amountToken × rate.
 */
export function payinAmountForToken(input: PriceInput & { amountToken: string }): Pricing {
  const net = decimal(input.amountToken).times(input.exchangeRate);
  const amountBrl = smallestGross(net, input.rates, input.markup ?? NO_MARKUP, (gross) =>
    leaves(() => pricePayin({ ...input, amountBrl: gross.toFixed(BRL_PLACES) }), (priced) => decimal(priced.amountToken).gte(input.amountToken)),
  );
  return pricePayin({ ...input, amountBrl: amountBrl.toFixed(BRL_PLACES) });
}

/**
 * The smallest PAYOUT deposit whose net BRL is at least `netAmountBrl` (for quotes given in BRL):
 * first the smallest gross BRL whose net reaches the target, then the smallest token amount
 * worth that gross (token × rate ≥ gross, and gross has 2 decimals, so its floor stays ≥ gross).
 */
export function payoutTokenForNetBrl(input: PriceInput & { netAmountBrl: string }): Pricing {
  const gross = smallestGross(decimal(input.netAmountBrl), input.rates, input.markup ?? NO_MARKUP, (candidate) => {
    const { net, markup } = fees(candidate, input.rates, input.markup);
    return net.gte(input.netAmountBrl) && (net.gt(0) || markup.isZero());
  });
  const amountToken = gross.dividedBy(input.exchangeRate).toDecimalPlaces(input.tokenDecimals, Dec.ROUND_UP);
  return pricePayout({ ...input, amountToken: amountToken.toFixed(input.tokenDecimals) });
}
