/**
 * GET /overview's sums are BRL decimal text ("1234.50"): totals and the chart's scale are worked
 * out in integer cents (BigInt), never as floats, and written back as decimal text for formatBrl.
 */
const BRL_TEXT = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

export function toCents(text: string): bigint {
  const match = BRL_TEXT.exec(text);
  if (!match) return 0n;
  const [, sign, whole = '0', fraction = ''] = match;
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign ? -cents : cents;
}

export function centsText(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** `part / whole` as a fraction 0..1 with 4 digits, for drawing only (the amounts stay exact). */
export function share(part: bigint, whole: bigint): number {
  if (whole <= 0n || part <= 0n) return 0;
  return Number((part * 10_000n) / whole) / 10_000;
}
