/**
 * Every migration, listed explicitly so they load the same way under tsx, Vitest and a bundle.
 * Names are timestamps; Kysely applies them in name order. A landed migration is never edited.
 * A new append-only table calls `appendOnly(db, table)` (src/db/append-only.ts): one shared trigger function.
 */
import type { Migration } from 'kysely';
import * as foundation from './20261122_0001_foundation.ts';
import * as receiversFeeTiers from './20261122_0002_receivers_fee_tiers.ts';
import * as orders from './20261122_0003_orders.ts';
import * as webhooks from './20261122_0004_webhooks.ts';
import * as idempotency from './20261122_0005_idempotency.ts';
import * as sandbox from './20261122_0006_sandbox.ts';
import * as ledger from './20261122_0007_ledger.ts';
import * as wallets from './20261122_0008_wallets.ts';
import * as orderCounts from './20261122_0009_order_counts.ts';
import * as completedVolume from './20261124_0010_completed_volume.ts';
import * as idempotencyOwners from './20261124_0011_idempotency_owners.ts';
import * as webhookReliability from './20261124_0012_webhook_reliability.ts';
import * as sandboxFailureInjections from './20261124_0013_sandbox_failure_injections.ts';
import * as webhookDeliveryLeases from './20261125_0014_webhook_delivery_leases.ts';
import * as pixNotificationRejections from './20261125_0015_pix_notification_rejections.ts';
import * as depositExcess from './20261125_0016_deposit_excess.ts';
import * as sponsorFeeBudget from './20261125_0017_sponsor_fee_budget.ts';
import * as destinationPolicy from './20261125_0018_destination_policy.ts';
import * as ordersIndexes from './20261126_0021_orders_indexes.ts';
import * as platformKeys from './20261126_0022_platform_keys.ts';
import * as chainTransferPrepared from './20261126_0023_chain_transfer_prepared.ts';
import * as treasury from './20261126_0024_treasury.ts';
import * as depositAddresses from './20261126_0025_deposit_addresses.ts';
import * as depositSweeps from './20261126_0026_deposit_sweeps.ts';
import * as usersSessions from './20261126_0027_users_sessions.ts';
import * as credentialLabels from './20261126_0028_credential_labels.ts';
import * as userLinks from './20261126_0029_user_links.ts';
import * as credentialRestrictions from './20261126_0030_credential_restrictions.ts';
import * as teamAudit from './20261126_0031_team_audit.ts';
import * as eventsOrderIdx from './20261126_0032_events_order_idx.ts';
import * as operatorsApprovals from './20261126_0033_operators_approvals.ts';
import * as operatorReads from './20261126_0034_operator_reads.ts';
import * as backOfficeReads from './20261126_0035_back_office_reads.ts';
import * as payoutRetry from './20261126_0036_payout_retry.ts';
import * as pspReconciliationRuns from './20261126_0037_psp_reconciliation_runs.ts';
import * as treasuryWithdrawals from './20261126_0038_treasury_withdrawals.ts';
import * as compliancePolicies from './20261126_0039_compliance_policies.ts';
import * as operationsRegister from './20261126_0041_operations_register.ts';
import * as disputes from './20261126_0042_disputes.ts';
import * as operatorInvitations from './20261205_0043_operator_invitations.ts';
import * as signInControls from './20261205_0044_sign_in_controls.ts';
import * as unprovenWalletDailyUsage from './20261205_0045_unproven_wallet_daily_usage.ts';
import * as personalDataSealed from './20261205_0046_personal_data_sealed.ts';
import * as registerAccountsSealed from './20261205_0047_register_accounts_sealed.ts';
import * as appendOnlyShared from './20261205_0049_append_only_shared.ts';
import * as serviceAccountsActivated from './20261205_0051_service_accounts_activated.ts';
import * as personalDataSealingMarker from './20261205_0052_personal_data_sealing_marker.ts';
import * as unprovenWalletRelease from './20261205_0053_unproven_wallet_release.ts';
import * as workers from './20261205_0054_workers.ts';
import * as depositSweepsUnfinished from './20261205_0056_deposit_sweeps_unfinished.ts';
import * as auditLogSealedNames from './20261205_0057_audit_log_sealed_names.ts';
import * as disputeEventSequence from './20261205_0058_dispute_event_sequence.ts';
import * as chargebacksOwed from './20261205_0059_chargebacks_owed.ts';
import * as partnerMarkup from './20261205_0061_partner_markup.ts';
import * as orderSources from './20261205_0062_order_sources.ts';
import * as settlementPayouts from './20261205_0063_settlement_payouts.ts';
import * as standingPixCharges from './20261205_0064_standing_pix_charges.ts';
import * as depositBalances from './20261205_0065_deposit_balances.ts';
import * as payoutBatches from './20261205_0068_payout_batches.ts';
import * as payoutBatchSweepsSealing from './20261205_0069_payout_batch_sweeps_sealing.ts';
import * as standingDepositAddresses from './20261205_0070_standing_deposit_addresses.ts';
import * as standingDepositSweeps from './20261206_0071_standing_deposit_sweeps.ts';
import * as unfundedBatchDeposits from './20261206_0072_unfunded_batch_deposits.ts';
import * as chainTransferBatches from './20261206_0074_chain_transfer_batches.ts';
import * as standingAddressesSealed from './20261206_0076_standing_addresses_sealed.ts';
import * as counterShardPerTransaction from './20261206_0077_counter_shard_per_transaction.ts';
import * as chainLookupTables from './20261206_0078_chain_lookup_tables.ts';
import * as treasuryWallets from './20261206_0079_treasury_wallets.ts';
import * as orderQueueOrder from './20261206_0080_order_queue_order.ts';
import * as ordersFillfactor from './20261207_0081_orders_fillfactor.ts';
import * as statementLevelCounters from './20261207_0082_statement_level_counters.ts';

export const migrations: Record<string, Migration> = {
  '20261122_0001_foundation': foundation,
  '20261122_0002_receivers_fee_tiers': receiversFeeTiers,
  '20261122_0003_orders': orders,
  '20261122_0004_webhooks': webhooks,
  '20261122_0005_idempotency': idempotency,
  '20261122_0006_sandbox': sandbox,
  '20261122_0007_ledger': ledger,
  '20261122_0008_wallets': wallets,
  '20261122_0009_order_counts': orderCounts,
  '20261124_0010_completed_volume': completedVolume,
  '20261124_0011_idempotency_owners': idempotencyOwners,
  '20261124_0012_webhook_reliability': webhookReliability,
  '20261124_0013_sandbox_failure_injections': sandboxFailureInjections,
  '20261125_0014_webhook_delivery_leases': webhookDeliveryLeases,
  '20261125_0015_pix_notification_rejections': pixNotificationRejections,
  '20261125_0016_deposit_excess': depositExcess,
  '20261125_0017_sponsor_fee_budget': sponsorFeeBudget,
  '20261125_0018_destination_policy': destinationPolicy,
  '20261126_0021_orders_indexes': ordersIndexes,
  '20261126_0022_platform_keys': platformKeys,
  '20261126_0023_chain_transfer_prepared': chainTransferPrepared,
  '20261126_0024_treasury': treasury,
  '20261126_0025_deposit_addresses': depositAddresses,
  '20261126_0026_deposit_sweeps': depositSweeps,
  '20261126_0027_users_sessions': usersSessions,
  '20261126_0028_credential_labels': credentialLabels,
  '20261126_0029_user_links': userLinks,
  '20261126_0030_credential_restrictions': credentialRestrictions,
  '20261126_0031_team_audit': teamAudit,
  '20261126_0032_events_order_idx': eventsOrderIdx,
  '20261126_0033_operators_approvals': operatorsApprovals,
  '20261126_0034_operator_reads': operatorReads,
  '20261126_0035_back_office_reads': backOfficeReads,
  '20261126_0036_payout_retry': payoutRetry,
  '20261126_0037_psp_reconciliation_runs': pspReconciliationRuns,
  '20261126_0038_treasury_withdrawals': treasuryWithdrawals,
  '20261126_0039_compliance_policies': compliancePolicies,
  '20261126_0041_operations_register': operationsRegister,
  '20261126_0042_disputes': disputes,
  '20261205_0043_operator_invitations': operatorInvitations,
  '20261205_0044_sign_in_controls': signInControls,
  '20261205_0045_unproven_wallet_daily_usage': unprovenWalletDailyUsage,
  '20261205_0046_personal_data_sealed': personalDataSealed,
  '20261205_0047_register_accounts_sealed': registerAccountsSealed,
  '20261205_0049_append_only_shared': appendOnlyShared,
  '20261205_0051_service_accounts_activated': serviceAccountsActivated,
  '20261205_0052_personal_data_sealing_marker': personalDataSealingMarker,
  '20261205_0053_unproven_wallet_release': unprovenWalletRelease,
  '20261205_0054_workers': workers,
  '20261205_0056_deposit_sweeps_unfinished': depositSweepsUnfinished,
  '20261205_0057_audit_log_sealed_names': auditLogSealedNames,
  '20261205_0058_dispute_event_sequence': disputeEventSequence,
  '20261205_0059_chargebacks_owed': chargebacksOwed,
  '20261205_0061_partner_markup': partnerMarkup,
  '20261205_0062_order_sources': orderSources,
  '20261205_0063_settlement_payouts': settlementPayouts,
  '20261205_0064_standing_pix_charges': standingPixCharges,
  '20261205_0065_deposit_balances': depositBalances,
  '20261205_0068_payout_batches': payoutBatches,
  '20261205_0069_payout_batch_sweeps_sealing': payoutBatchSweepsSealing,
  '20261205_0070_standing_deposit_addresses': standingDepositAddresses,
  '20261206_0071_standing_deposit_sweeps': standingDepositSweeps,
  '20261206_0072_unfunded_batch_deposits': unfundedBatchDeposits,
  '20261206_0074_chain_transfer_batches': chainTransferBatches,
  '20261206_0076_standing_addresses_sealed': standingAddressesSealed,
  '20261206_0077_counter_shard_per_transaction': counterShardPerTransaction,
  '20261206_0078_chain_lookup_tables': chainLookupTables,
  '20261206_0079_treasury_wallets': treasuryWallets,
  '20261206_0080_order_queue_order': orderQueueOrder,
  '20261207_0081_orders_fillfactor': ordersFillfactor,
  '20261207_0082_statement_level_counters': statementLevelCounters,
};
