/**
 * Pieces of the approvals pages: the types, what each action needs to be decided (the API's
 * `src/modules/approvals/actions.ts`: its permission, used only to disable buttons), its status
 * badge and a link to its target (an order's page, a merchant's page by address: that page is
 * another area's, app-link.tsx).
 */
import { Anchor, Badge, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { OperatorPermission } from '../../../api/operator-session.ts';
import type { components } from '../../../api/schema.ts';
import { TONE } from '../../../components/readable.ts';
import { useI18n } from '../../../i18n/context.tsx';
import { AppLink } from '../../overview/app-link.tsx';
import type { ApprovalAction } from '../approvals-api.ts';

export type Approval = components['schemas']['Approval'];
export type ApprovalStatus = Approval['status'];
export const APPROVAL_STATUSES: readonly ApprovalStatus[] = ['PENDING', 'APPROVED', 'REJECTED'];

/** The permission proposing or deciding each action takes (the API checks it: 403 ROLE_NOT_ALLOWED). */
export const ACTION_PERMISSION: Record<ApprovalAction, OperatorPermission> = {
  ORDER_REFUND: 'orders.operate',
  PAYOUT_RETRY: 'orders.operate',
  MERCHANT_ENABLE: 'merchants.manage',
  PLATFORM_FEE_CHANGE: 'fees.manage',
  TREASURY_WITHDRAWAL: 'treasury.manage',
  OPERATOR_CREATE: 'operators.manage',
  OPERATOR_ROLE_CHANGE: 'operators.manage',
  OPERATOR_ENABLE: 'operators.manage',
  SERVICE_ACCOUNT_ACTIVATE: 'operators.manage',
  SETTLEMENT_PIX_KEY: 'treasury.manage',
};

/** The actions whose target is an order. */
const ORDER_TARGETS = new Set<ApprovalAction>(['ORDER_REFUND', 'PAYOUT_RETRY']);

const STATUS_TONE: Record<ApprovalStatus, string> = { PENDING: TONE.warn, APPROVED: TONE.ok, REJECTED: TONE.neutral };

export function ApprovalStatusBadge({ status }: { status: ApprovalStatus }) {
  const { t } = useI18n();
  return <Badge variant="filled" color={STATUS_TONE[status]} tt="none">{t(`opsApprovals.status.${status}`)}</Badge>;
}

export function ApprovalTarget({ approval }: { approval: Pick<Approval, 'action' | 'targetId'> }) {
  const { t } = useI18n();
  // The whole id (components/entity-id.tsx says why not its first 8 characters).
  const short = approval.targetId;
  if (ORDER_TARGETS.has(approval.action)) {
    return (
      <Anchor renderRoot={(props) => <Link {...props} to="/ops/orders/$id" params={{ id: approval.targetId }} />} size="sm">
        {t('opsApprovals.target.order', { id: short })}
      </Anchor>
    );
  }
  if (approval.action === 'SERVICE_ACCOUNT_ACTIVATE') return <Text size="sm">{t('opsApprovals.target.serviceAccount', { id: short })}</Text>;
  if (approval.action === 'MERCHANT_ENABLE') return <AppLink path={`/ops/merchants/${approval.targetId}`}>{t('opsApprovals.target.merchant', { id: short })}</AppLink>;
  if (approval.action === 'OPERATOR_CREATE') return <Text size="sm">{t('opsApprovals.target.invitation', { email: approval.targetId })}</Text>;
  if (approval.action === 'OPERATOR_ROLE_CHANGE' || approval.action === 'OPERATOR_ENABLE') return <AppLink path="/ops/operators">{t('opsApprovals.target.operator', { id: short })}</AppLink>;
  if (approval.action === 'SETTLEMENT_PIX_KEY') return <Text size="sm">{t('opsApprovals.target.settlementPixKey', { id: short })}</Text>;
  if (approval.action === 'TREASURY_WITHDRAWAL') return <Text size="sm">{t('opsApprovals.target.treasury', { id: approval.targetId })}</Text>;
  return <Text size="sm">{t('opsApprovals.target.fees', { type: approval.targetId })}</Text>;
}
