/**
 * Formatting of money, token amounts and times for the dashboard's two languages. Times are
 * always America/Sao_Paulo, the service's business time zone (daily limits and the night period
 * are counted there too), written the Brazilian way (dd/mm/aaaa 24 h) in both languages, so a
 * time reads the same as on the receipts. Token amounts are decimal strings: they are re-grouped
 * digit by digit, never turned into a float (a float would round 9 decimals of a large amount).
 */
import type { Language } from './messages.ts';

export const TIME_ZONE = 'America/Sao_Paulo';

/** BRL amounts: the API sends them as JSON numbers with at most 2 decimals; strings are accepted too and formatted exactly. */
export function formatBrl(amount: number | string, language: Language): string {
  const format = new Intl.NumberFormat(language, { style: 'currency', currency: 'BRL' });
  return format.format(amount as number | `${number}`);
}

/**
 * A fee percentage as the API sends it, a fraction (0.005 is 0.5 %), shown in per cent: Intl's
 * percent style scales the number's own decimal digits (0.0125 → 1,25 %), no float product.
 */
export function formatFeeFraction(fraction: number, language: Language): string {
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 6 }).format(fraction);
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A token amount given as a decimal string ("1234.500000"), grouped for the language; never parsed as a float. */
export function formatTokenAmount(amount: string, token: string, language: Language): string {
  const match = DECIMAL.exec(amount.trim());
  if (!match) return `${amount} ${token}`;
  const [, sign, integer = '0', fraction] = match;
  const grouped = new Intl.NumberFormat(language, { useGrouping: true }).format(BigInt(integer));
  const decimalSeparator = new Intl.NumberFormat(language).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
  return `${sign}${grouped}${fraction ? decimalSeparator + fraction : ''} ${token}`;
}

const dateTime = new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const dateOnly = new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' });

/** "26/11/2026 02:40" (São Paulo time) from an ISO 8601 timestamp. */
export function formatDateTime(iso: string): string {
  // Intl writes "26/11/2026, 02:40"; Brazilian documents write the time after a space.
  return dateTime.format(new Date(iso)).replace(', ', ' ');
}

/** "26/11/2026" (São Paulo date) from an ISO 8601 timestamp. */
export function formatDate(iso: string): string {
  return dateOnly.format(new Date(iso));
}
