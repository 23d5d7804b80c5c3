/**
 * A partner's markup (issue 43, item 4; docs/decisions/0042-partner-markup.md): the merchant's own
 * charge on top of the fees, basis points of the order's gross BRL plus a flat BRL amount, at most
 * a cap. It is apart from the spec's merchant fee (merchantFeePercentage keeps its meaning) and is
 * computed on the same gross as the fees.
 *
 * Rounding: the basis-point part rounds DOWN to centavos, in the payer's favour, so no payer is
 * charged a fraction of a centavo above the rate the merchant published; flat and cap are whole
 * centavos already (the API refuses more decimals).
 */
import { Dec, decimal } from './money.ts';

export interface MarkupTerms {
  /** Basis points of the gross BRL (100 = 1 %), an integer from 0 to MAX_MARKUP_BPS. */
  bps: number;
  /** Decimal text, 2 places, ≥ 0. */
  flatBrl: string;
  /** Decimal text, 2 places, ≥ flatBrl; null: no cap. */
  capBrl: string | null;
}

/** The most a markup's percentage may be: 10 %, so fees and markup always leave most of an order. */
export const MAX_MARKUP_BPS = 1000;
export const NO_MARKUP: MarkupTerms = { bps: 0, flatBrl: '0.00', capBrl: null };

export const isNoMarkup = (terms: MarkupTerms) => terms.bps === 0 && decimal(terms.flatBrl).isZero();

/** The markup on a gross BRL amount: min(cap, ⌊gross × bps ÷ 10000⌋ + flat), in centavos, never negative. */
export function markupAmount(grossBrl: Dec | string, terms: MarkupTerms): Dec {
  const variable = decimal(grossBrl).times(terms.bps).dividedBy(10_000).toDecimalPlaces(2, Dec.ROUND_DOWN);
  const uncapped = variable.plus(terms.flatBrl);
  const amount = terms.capBrl === null ? uncapped : Dec.min(uncapped, terms.capBrl);
  return Dec.max(amount, 0);
}

/** Why terms are unacceptable (for a 400 naming the field), or null when they are. */
export function markupTermsProblem(terms: MarkupTerms): { field: 'bps' | 'flatBrl' | 'capBrl'; problem: string } | null {
  if (!Number.isInteger(terms.bps) || terms.bps < 0 || terms.bps > MAX_MARKUP_BPS) return { field: 'bps', problem: `must be an integer from 0 to ${MAX_MARKUP_BPS}` };
  const flat = decimal(terms.flatBrl);
  if (flat.isNegative() || flat.decimalPlaces() > 2) return { field: 'flatBrl', problem: 'must be at least 0 with at most 2 decimals' };
  if (terms.capBrl !== null) {
    const cap = decimal(terms.capBrl);
    if (cap.decimalPlaces() > 2 || cap.lt(flat)) return { field: 'capBrl', problem: 'must be at least flatBrl with at most 2 decimals, or null' };
  }
  return null;
}
