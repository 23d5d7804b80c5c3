/**
 * A merchant's compliance policies, one place for all of them (docs/architecture/
 * compliance-policies.md): where its orders may send money (destination), who may pay a PAYIN
 * (payer) and what a PAYIN to a wallet not proven the receiver's does (wallet ownership, with its
 * daily cap per wallet). Read by operators and by the merchant itself (GET /merchant/policies),
 * changed only by an operator (admin API or CLI); each change of each policy is audited
 * (`merchant.<policy column>`) with the operator's reason, in the change's transaction. Order
 * creation and payment read the columns with the rest of their context
 * (orders/creation/creation-repo.ts, orders/repo.ts), not through here.
 */
import type { Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal, toJsonNumber } from '../../lib/money.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import type { DestinationPolicy, MerchantsTable, PayerPolicy, WalletOwnershipPolicy } from './tables.ts';

export interface MerchantPolicies {
  merchantId: string;
  destinationPolicy: DestinationPolicy;
  payerPolicy: PayerPolicy;
  walletOwnershipPolicy: WalletOwnershipPolicy;
  /** Under LIMITED, the BRL the PAYINs of one São Paulo day to one unproven wallet may total; null when unset. */
  unprovenWalletLimitBrl: number | null;
  updatedAt: string;
}

export interface PolicyChanges {
  destinationPolicy?: DestinationPolicy;
  payerPolicy?: PayerPolicy;
  walletOwnershipPolicy?: WalletOwnershipPolicy;
  /** Decimal text or number; null clears it (not while the policy is LIMITED). */
  unprovenWalletLimitBrl?: string | number | null;
  reason?: string;
}

const COLUMNS = ['id', 'destination_policy', 'payer_policy', 'wallet_ownership_policy', 'unproven_wallet_limit_brl', 'updated_at'] as const;
type PolicyRow = { id: string; destination_policy: DestinationPolicy; payer_policy: PayerPolicy; wallet_ownership_policy: WalletOwnershipPolicy; unproven_wallet_limit_brl: string | null; updated_at: Date };
type PolicyColumn = 'destination_policy' | 'payer_policy' | 'wallet_ownership_policy' | 'unproven_wallet_limit_brl';

const toPolicies = (row: PolicyRow): MerchantPolicies => ({
  merchantId: row.id,
  destinationPolicy: row.destination_policy,
  payerPolicy: row.payer_policy,
  walletOwnershipPolicy: row.wallet_ownership_policy,
  unprovenWalletLimitBrl: row.unproven_wallet_limit_brl === null ? null : toJsonNumber(row.unproven_wallet_limit_brl),
  updatedAt: row.updated_at.toISOString(),
});

/** A cap as stored: a non-negative amount with at most 2 decimal places. */
function capOf(value: string | number | null): string | null {
  if (value === null) return null;
  const text = String(value);
  if (!/^\d{1,16}(\.\d{1,2})?$/.test(text)) {
    throw new AppError('VALIDATION_ERROR', 'unprovenWalletLimitBrl must be a non-negative BRL amount with at most 2 decimal places', { 'body.unprovenWalletLimitBrl': 'is not a BRL amount' });
  }
  return decimal(text).toFixed(2);
}

export function createMerchantPolicies(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const find = (executor: Db, id: string, forUpdate = false) => {
    const query = executor.selectFrom('merchants').select(COLUMNS).where('id', '=', id);
    return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
  };

  return {
    async get(merchantId: string): Promise<MerchantPolicies> {
      const row = await find(db, merchantId);
      if (!row) throw notFound('Merchant');
      return toPolicies(row);
    },

    /**
     * Sets the policies given; each one that changes (not a repeat of the current value) is
     * audited with the reason. LIMITED needs a cap, given now or set before (400 otherwise).
     */
    async set(merchantId: string, input: PolicyChanges, by: AuditActor): Promise<MerchantPolicies> {
      return inTransaction(db, async (trx) => {
        const current = await find(trx, merchantId, true);
        if (!current) throw notFound('Merchant');
        const wanted: Partial<Record<PolicyColumn, string | null>> = {
          ...(input.destinationPolicy !== undefined ? { destination_policy: input.destinationPolicy } : {}),
          ...(input.payerPolicy !== undefined ? { payer_policy: input.payerPolicy } : {}),
          ...(input.walletOwnershipPolicy !== undefined ? { wallet_ownership_policy: input.walletOwnershipPolicy } : {}),
          ...(input.unprovenWalletLimitBrl !== undefined ? { unproven_wallet_limit_brl: capOf(input.unprovenWalletLimitBrl) } : {}),
        };
        const policy = wanted.wallet_ownership_policy ?? current.wallet_ownership_policy;
        const cap = 'unproven_wallet_limit_brl' in wanted ? wanted.unproven_wallet_limit_brl : current.unproven_wallet_limit_brl;
        if (policy === 'LIMITED' && cap === null) {
          throw new AppError('VALIDATION_ERROR', 'walletOwnershipPolicy LIMITED needs unprovenWalletLimitBrl, the BRL a PAYIN to an unproven wallet may reach', {
            'body.unprovenWalletLimitBrl': 'is required with LIMITED',
          });
        }
        const same = (column: PolicyColumn, value: string | null) =>
          column === 'unproven_wallet_limit_brl' ? (value === null ? current[column] === null : current[column] !== null && decimal(value).eq(current[column])) : current[column] === value;
        const changed = (Object.entries(wanted) as [PolicyColumn, string | null][]).filter(([column, value]) => !same(column, value));
        if (changed.length === 0) return toPolicies(current);
        const updated = await trx
          .updateTable('merchants')
          .set({ ...(Object.fromEntries(changed) as Updateable<MerchantsTable>), updated_at: clock.now() })
          .where('id', '=', merchantId)
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        for (const [column, to] of changed) {
          await recordAudit(trx, by, {
            action: `merchant.${column}`,
            targetType: 'merchant',
            targetId: merchantId,
            details: { from: current[column], to, ...(input.reason ? { reason: input.reason } : {}) },
          });
        }
        return toPolicies(updated);
      });
    },
  };
}

export type MerchantPoliciesService = ReturnType<typeof createMerchantPolicies>;
