/**
 * A merchant's destination policy (tables.ts `DestinationPolicy`): read by operators, changed only
 * by an operator (admin API or CLI), each change audited in its own transaction. Order creation
 * reads the column with the rest of its context (orders/creation-repo.ts), not through here.
 */
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import { notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { type AuditActor, recordAudit } from '../audit/record.ts';
import type { DestinationPolicy } from './tables.ts';

export interface MerchantDestinationPolicy {
  merchantId: string;
  destinationPolicy: DestinationPolicy;
  updatedAt: string;
}

const toPolicy = (row: { id: string; destination_policy: DestinationPolicy; updated_at: Date }): MerchantDestinationPolicy => ({
  merchantId: row.id,
  destinationPolicy: row.destination_policy,
  updatedAt: row.updated_at.toISOString(),
});

export function createDestinationPolicies(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const find = (executor: Db, id: string, forUpdate = false) => {
    const query = executor.selectFrom('merchants').select(['id', 'destination_policy', 'updated_at']).where('id', '=', id);
    return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
  };

  return {
    async get(merchantId: string): Promise<MerchantDestinationPolicy> {
      const row = await find(db, merchantId);
      if (!row) throw notFound('Merchant');
      return toPolicy(row);
    },

    /** Sets the policy; a change (not a repeat of the current one) is audited with the operator's reason. */
    async set(merchantId: string, input: { policy: DestinationPolicy; reason?: string }, by: AuditActor): Promise<MerchantDestinationPolicy> {
      return inTransaction(db, async (trx) => {
        const current = await find(trx, merchantId, true);
        if (!current) throw notFound('Merchant');
        if (current.destination_policy === input.policy) return toPolicy(current);
        const updated = await trx
          .updateTable('merchants')
          .set({ destination_policy: input.policy, updated_at: clock.now() })
          .where('id', '=', merchantId)
          .returning(['id', 'destination_policy', 'updated_at'])
          .executeTakeFirstOrThrow();
        await recordAudit(trx, by, {
          action: 'merchant.destination_policy',
          targetType: 'merchant',
          targetId: merchantId,
          details: { from: current.destination_policy, to: input.policy, ...(input.reason ? { reason: input.reason } : {}) },
        });
        return toPolicy(updated);
      });
    },
  };
}

export type DestinationPolicies = ReturnType<typeof createDestinationPolicies>;
