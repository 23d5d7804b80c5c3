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
 * The smallest PAYIN amount in BRL whose token amount is at least `amountToken` (for quotes
 * given in crypto). Fee rounding makes the exact inverse off by a few centavos either way, so it
 * starts a little below it and steps up by centavos.
 */
export function payinAmountForToken(input: { amountToken: string; exchangeRate: string; tokenDecimals: number; rates: FeeRates }): Pricing {
  const keep = decimal(1).minus(input.rates.platformFeePercentage).minus(input.rates.merchantFeePercentage);
  let amountBrl = Dec.max(
    '0.01',
    decimal(input.amountToken).times(input.exchangeRate).dividedBy(keep).toDecimalPlaces(BRL_PLACES, Dec.ROUND_DOWN).minus('0.05'),
  );
  for (let step = 0; step < 20; step++) {
    const priced = pricePayin({ ...input, amountBrl: amountBrl.toFixed(BRL_PLACES) });
    if (decimal(priced.amountToken).gte(input.amountToken)) return priced;
    amountBrl = amountBrl.plus('0.01');
  }
  throw new Error('payinAmountForToken did not converge');
}

/**
 * The smallest PAYOUT deposit whose net BRL is at least `netAmountBrl` (for quotes given in BRL):
 * first the smallest gross BRL whose net reaches the target, then the smallest token amount
 * worth that gross (token × rate ≥ gross, and gross has 2 decimals, so its floor stays ≥ gross).
 */
export function payoutTokenForNetBrl(input: { netAmountBrl: string; exchangeRate: string; tokenDecimals: number; rates: FeeRates }): Pricing {
  const keep = decimal(1).minus(input.rates.platformFeePercentage).minus(input.rates.merchantFeePercentage);
  let gross = Dec.max('0.01', decimal(input.netAmountBrl).dividedBy(keep).toDecimalPlaces(BRL_PLACES, Dec.ROUND_DOWN).minus('0.05'));
  for (let step = 0; fees(gross, input.rates).net.lt(input.netAmountBrl); step++) {
    if (step >= 20) throw new Error('payoutTokenForNetBrl did not converge');
    gross = gross.plus('0.01');
  }
  const amountToken = gross.dividedBy(input.exchangeRate).toDecimalPlaces(input.tokenDecimals, Dec.ROUND_UP);
  return pricePayout({ ...input, amountToken: amountToken.toFixed(input.tokenDecimals) });
}
