/**
 * How a batched transfer's chain costs are shared out to its orders in the ledger (decision 0053):
 * - the fee (its own plus the fees of the failed batches it was split from) evenly over the
 *   batch's orders, the remainder lamports to the first order (lowest instruction index);
 * - the rent of the token accounts it created to the orders whose instructions created them,
 *   evenly (every token account of a mint costs the same rent), the remainder to the first of
 *   them; rent with no creator recorded (an account the node said existed, gone since) to the first order.
 * Every lamport the chain charged goes to exactly one order: the shares sum to the totals.
 */
export interface CostShare {
  feeLamports: bigint;
  rentLamports: bigint;
}

function evenly(total: bigint, among: readonly string[]): Map<string, bigint> {
  const shares = new Map<string, bigint>();
  if (among.length === 0) return shares;
  const each = total / BigInt(among.length);
  const remainder = total - each * BigInt(among.length);
  among.forEach((id, i) => shares.set(id, (shares.get(id) ?? 0n) + each + (i === 0 ? remainder : 0n)));
  return shares;
}

export function shareChainCosts(orderIds: readonly string[], accountCreators: readonly string[], totals: CostShare): Map<string, CostShare> {
  const fees = evenly(totals.feeLamports, orderIds);
  const creators = accountCreators.filter((id) => orderIds.includes(id));
  const rents = evenly(totals.rentLamports, creators.length > 0 ? creators : orderIds.slice(0, 1));
  return new Map(orderIds.map((id) => [id, { feeLamports: fees.get(id) ?? 0n, rentLamports: rents.get(id) ?? 0n }]));
}
