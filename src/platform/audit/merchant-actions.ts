/**
 * The actions a merchant's own audit log holds (GET /audit-log: the entries recorded with its
 * merchant id), the one list: recordAudit takes a merchant id only with one of these
 * (record.ts), and the team's audit log in the dashboard offers them as its action
 * filter (web/src/pages/team/audit-log.tsx imports this file; test/web/audit-actions.test.ts).
 * Pure data, no imports: the dashboard's bundle takes it as is.
 */
export const MERCHANT_AUDIT_ACTIONS = [
  'user.invite',
  'user.withdraw_invitation',
  'user.accept_invitation',
  'user.create',
  'user.set_role',
  'user.remove',
  'credential.issue',
  'credential.revoke',
  'markups.set',
  'orders.export',
  'receiver.wallet_ownership_proven',
  'payout_batch.approve',
  'payout_batch.set_threshold',
  'settlement_pix_key.request',
  'settlement_pix_key.activate',
] as const;

export type MerchantAuditAction = (typeof MERCHANT_AUDIT_ACTIONS)[number];
