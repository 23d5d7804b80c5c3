/**
 * What a person types in the fee-tier form, read as decimal text (never a float): BRL amounts
 * with at most 2 decimals, and fees as a PERCENTAGE with at most 4 decimals, sent to the API as
 * the FRACTION it takes (1,5 % → "0.015", 6 decimals at most: the API's limit). Either separator,
 * comma or point, is accepted. The API checks everything again (bands.ts); these catch typos early.
 */
const AMOUNT = /^(\d{1,13})(?:[.,](\d{1,2}))?$/;
const PERCENT = /^(\d{1,3})(?:[.,](\d{1,4}))?$/;

/** "1000,5" → "1000.50"; undefined when not a plain amount with at most 2 decimals. */
export function readAmount(text: string): string | undefined {
  const match = AMOUNT.exec(text.trim());
  if (!match) return undefined;
  return `${BigInt(match[1]!)}.${(match[2] ?? '').padEnd(2, '0')}`;
}

/** An amount text ("1000.50") in cents, to compare two bounds exactly. */
export const cents = (amount: string): bigint => BigInt(amount.replace('.', ''));

const trimZeros = (text: string) => text.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

/** "1,5" (per cent) → "0.015" (fraction); undefined when not 0–100 with at most 4 decimals. */
export function percentToFraction(text: string): string | undefined {
  const match = PERCENT.exec(text.trim());
  if (!match) return undefined;
  // Percent × 10^4 is the fraction × 10^6: the same integer, the point moved two places.
  const millionths = BigInt(match[1]!) * 10_000n + BigInt((match[2] ?? '').padEnd(4, '0'));
  if (millionths > 1_000_000n) return undefined;
  return trimZeros(`${millionths / 1_000_000n}.${String(millionths % 1_000_000n).padStart(6, '0')}`);
}

/**
 * A fraction as the API sends it (a JSON number of at most 8 decimals) as a percentage text:
 * 0.015 → "1.5". toFixed(8) gives its exact decimal digits; the point is then moved as text.
 */
export function fractionToPercent(fraction: number): string {
  const [whole = '0', decimals = ''] = fraction.toFixed(8).split('.');
  const digits = `${whole}${decimals.slice(0, 2)}`;
  return trimZeros(`${BigInt(digits)}.${decimals.slice(2)}`);
}

/** The language's decimal separator in place of the point. */
export const localDecimal = (text: string, language: string) => (language === 'pt-BR' ? text.replace('.', ',') : text);
