/**
 * A merchant's destination policy (tables.ts `DestinationPolicy`), through the one place for
 * merchants' compliance policies (compliance-policies.ts): its own admin routes and CLI command
 * predate the others and stay. Each change is audited as `merchant.destination_policy`.
 */
import type { AuditActor } from '../../platform/audit/record.ts';
import type { MerchantPolicies, MerchantPoliciesService } from './compliance-policies.ts';
import type { DestinationPolicy } from './tables.ts';

export interface MerchantDestinationPolicy {
  merchantId: string;
  destinationPolicy: DestinationPolicy;
  updatedAt: string;
}

const toPolicy = ({ merchantId, destinationPolicy, updatedAt }: MerchantPolicies): MerchantDestinationPolicy => ({ merchantId, destinationPolicy, updatedAt });

export function createDestinationPolicies(deps: { policies: MerchantPoliciesService }) {
  const { policies } = deps;
  return {
    async get(merchantId: string): Promise<MerchantDestinationPolicy> {
      return toPolicy(await policies.get(merchantId));
    },

    /** Sets the policy; a change (not a repeat of the current one) is audited with the operator's reason. */
    async set(merchantId: string, input: { policy: DestinationPolicy; reason?: string }, by: AuditActor): Promise<MerchantDestinationPolicy> {
      return toPolicy(await policies.set(merchantId, { destinationPolicy: input.policy, ...(input.reason ? { reason: input.reason } : {}) }, by));
    },
  };
}

export type DestinationPolicies = ReturnType<typeof createDestinationPolicies>;
