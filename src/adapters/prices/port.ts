/** The price source: how many BRL one unit of a token is worth, as decimal text. */
export interface PriceSource {
  /** e.g. getRate('USDC') → "5.40" (BRL per USDC). */
  getRate(token: string): Promise<string>;
}
