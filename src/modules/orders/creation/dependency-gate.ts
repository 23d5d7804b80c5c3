/**
 * Orders are not taken while a dependency they need is down (docs/architecture/dependency-health.md,
 * "Orders refused"): answered from memory, so POST /payin and /payout make no call to find out.
 *
 * Both types need both the PSP and the chain's node:
 * - a PAYIN's PIX charge is made at the PSP at once, and its tokens leave by a transfer on the
 *   chain (a PAYIN taken while the node is down has the customer pay for tokens that cannot be
 *   sent, refunded if the outage outlasts the transfer's attempts); its treasury balance unknown
 *   is refused too, by the liquidity check (treasury/liquidity.ts);
 * - a PAYOUT's deposit address is derived from the token's mint read on the node (and watched and
 *   swept there), and its PIX goes out through the PSP once the deposit lands: a customer who
 *   deposits while the PSP is down waits for reais no one can send.
 * With the sandbox PSP and chain (in this process) neither is ever down.
 */
import { AppError } from '../../../errors.ts';
import { ORDER_TYPES, type OrderType } from '../../../lib/order-types.ts';
import type { Dependency, DependencyState } from '../../../platform/dependency-health.ts';

export const ORDER_NEEDS: Readonly<Record<OrderType, readonly Dependency[]>> = { PAYIN: ['psp', 'chain'], PAYOUT: ['psp', 'chain'] };

/** The dependency health's side the gate reads (platform/dependency-health.ts). */
export interface DependencyGate {
  firstDown(needs: readonly Dependency[]): Dependency | undefined;
}

/** How a refusal names each dependency: our words, never the provider's own nor its host. */
const NAMES: Record<Dependency, string> = {
  database: 'The database',
  psp: 'The PIX provider',
  chain: "The chain's RPC node",
  prices: 'The price source',
  mail: 'The mail server',
};

/** 503 PROVIDER_UNAVAILABLE naming the dependency (`details.dependency`, as GET /readyz names it). */
export function dependencyDown(type: OrderType, dependency: Dependency): AppError {
  return new AppError('PROVIDER_UNAVAILABLE', `${NAMES[dependency]} is unavailable, so no ${type} is taken now; the order was not created. Retry later.`, { dependency });
}

/** The order types refused now (GET /readyz's ordersRefused). */
export function refusedOrderTypes(state: (dependency: Dependency) => DependencyState): OrderType[] {
  return ORDER_TYPES.filter((type) => ORDER_NEEDS[type].some((dependency) => state(dependency) === 'down'));
}
