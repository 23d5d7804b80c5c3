/**
 * The `markup` of a quote or an order (OrderMarkupSchema) from the columns both carry: null when
 * the terms locked at pricing charged nothing, so a merchant without a markup sees no change.
 */
import type { Static } from 'typebox';
import { toJsonNumber } from '../../lib/money.ts';
import { type MarkupTerms, isNoMarkup } from '../../lib/markup.ts';
import type { OrderMarkupSchema } from './schemas.ts';

export type OrderMarkup = Static<typeof OrderMarkupSchema>;

interface MarkupColumns {
  markup_bps: number;
  markup_flat_brl: string;
  markup_cap_brl: string | null;
  markup_amount_brl: string;
}

export function toOrderMarkup(row: MarkupColumns): OrderMarkup {
  if (isNoMarkup(markupTermsOf(row))) return null;
  return {
    bps: row.markup_bps,
    flatBrl: toJsonNumber(row.markup_flat_brl),
    capBrl: row.markup_cap_brl === null ? null : toJsonNumber(row.markup_cap_brl),
    amountBrl: toJsonNumber(row.markup_amount_brl),
  };
}

/** The terms a quote or order locked, to price it again (a quote's order, a smaller deposit). */
export const markupTermsOf = (row: Pick<MarkupColumns, 'markup_bps' | 'markup_flat_brl' | 'markup_cap_brl'>): MarkupTerms => ({
  bps: row.markup_bps,
  flatBrl: row.markup_flat_brl,
  capBrl: row.markup_cap_brl,
});

/** The columns quotes and orders store for the terms and the amount they took. */
export const markupColumns = (terms: MarkupTerms, amountBrl: string) => ({
  markup_bps: terms.bps,
  markup_flat_brl: terms.flatBrl,
  markup_cap_brl: terms.capBrl,
  markup_amount_brl: amountBrl,
});
