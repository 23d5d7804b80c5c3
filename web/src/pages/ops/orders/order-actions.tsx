/**
 * An order's operator actions, as its `allowedActions` offers them: retry the worker's step
 * (POST /admin/orders/{id}/retry-step), mark it failed with a reason (…/mark-failed), and two
 * four-eyes ones, each a proposal (POST /admin/approvals) that another operator approves: the
 * refund (REFUND → ORDER_REFUND) and the payout's new PIX attempt (RETRY_PAYOUT → PAYOUT_RETRY).
 * A pending proposal for the order is shown with a link instead of a second proposal. Without `orders.operate` (the session's permissions) the buttons are disabled
 * and say why; the API refuses regardless (403).
 */
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../../api/client.ts';
import { useOperatorMay } from '../../../api/operator-session.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { useI18n } from '../../../i18n/context.tsx';
import { formatDateTime } from '../../../i18n/format.ts';
import type { MessageKey } from '../../../i18n/messages.ts';
import { type ApprovalAction, proposeApproval } from '../approvals-api.ts';
import type { AdminOrderDetail, OrderAction } from './admin-orders.ts';
import { ReasonModal } from './reason-modal.tsx';
import { opsKeys } from '../../../api/query-keys.ts';

/** The pending proposals (at most 100: the queue of decisions is short), to find this order's refund or payout retry. */
const PENDING_QUERY = { status: 'PENDING' as const, limit: 100 };
export const pendingApprovalsKey = opsKeys.approvals.list(PENDING_QUERY);

/** The four-eyes actions an order offers: the approval each proposes, and its dialog's texts. */
const PROPOSALS = [
  { action: 'REFUND', approval: 'ORDER_REFUND', title: 'opsOrders.actions.refundTitle', text: 'opsOrders.actions.refundText', confirm: 'opsOrders.actions.confirmRefund', pending: 'opsOrders.pending.title' },
  { action: 'RETRY_PAYOUT', approval: 'PAYOUT_RETRY', title: 'opsOrders.actions.retryPayoutTitle', text: 'opsOrders.actions.retryPayoutText', confirm: 'opsOrders.actions.confirmRetryPayout', pending: 'opsOrders.pending.titleRetryPayout' },
] as const satisfies readonly { action: OrderAction; approval: ApprovalAction; title: MessageKey; text: MessageKey; confirm: MessageKey; pending: MessageKey }[];
type Proposal = (typeof PROPOSALS)[number];
const ORDER_APPROVALS = new Set<ApprovalAction>(PROPOSALS.map((proposal) => proposal.approval));

export function OrderActions({ order }: { order: AdminOrderDetail }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const may = useOperatorMay('orders.operate');
  const [markOpen, markModal] = useDisclosure(false);
  const [proposing, setProposing] = useState<Proposal | null>(null);
  const actions: readonly OrderAction[] = order.allowedActions;
  const offered = PROPOSALS.filter((proposal) => actions.includes(proposal.action));
  const pending = useQuery({
    queryKey: pendingApprovalsKey,
    queryFn: () => call(api.GET('/admin/approvals', { params: { query: PENDING_QUERY } })),
    enabled: offered.length > 0,
  });
  const proposal = pending.data?.data.find((approval) => ORDER_APPROVALS.has(approval.action) && approval.targetId === order.id);
  const pendingTitle = PROPOSALS.find((known) => known.approval === proposal?.action)?.pending ?? 'opsOrders.pending.title';
  const refreshOrder = () => queryClient.invalidateQueries({ queryKey: opsKeys.orders.all });

  const retry = useMutation({
    mutationFn: () => call(api.POST('/admin/orders/{id}/retry-step', { params: { path: { id: order.id } } })),
    onSuccess: refreshOrder,
  });
  const markFailed = useMutation({
    mutationFn: (reason: string) => call(api.POST('/admin/orders/{id}/mark-failed', { params: { path: { id: order.id } }, body: { reason } })),
    onSuccess: async () => {
      markModal.close();
      await refreshOrder();
    },
  });
  const propose = useMutation({
    mutationFn: ({ approval, reason }: { approval: ApprovalAction; reason: string }) => proposeApproval({ action: approval, targetId: order.id, reason }),
    onSuccess: async () => {
      setProposing(null);
      await queryClient.invalidateQueries({ queryKey: opsKeys.approvals.all });
    },
  });

  if (actions.length === 0) return <Text>{t('opsOrders.actions.none')}</Text>;
  return (
    <Stack>
      {!may ? <Text id="order-actions-why">{t('opsOrders.actions.notAllowed')}</Text> : null}
      {proposal ? (
        <Alert color="blue" title={t(pendingTitle)} role="status" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
          <Text size="sm">{t('opsOrders.pending.text', { email: proposal.proposedBy.email, at: formatDateTime(proposal.proposedAt), reason: proposal.reason })}</Text>
          <Anchor renderRoot={(props) => <Link {...props} to="/ops/approvals/$id" params={{ id: proposal.id }} />} size="sm">
            {t('opsOrders.pending.link')}
          </Anchor>
        </Alert>
      ) : null}
      <Group>
        {actions.includes('RETRY_STEP') ? (
          <Button disabled={!may} loading={retry.isPending} onClick={() => retry.mutate()} title={t('opsOrders.actions.retryHint')} aria-describedby={may ? undefined : 'order-actions-why'}>
            {t('opsOrders.action.RETRY_STEP')}
          </Button>
        ) : null}
        {offered.map((offer) => (
          <Button key={offer.action} disabled={!may || Boolean(proposal) || pending.isPending} onClick={() => setProposing(offer)} aria-describedby={may ? undefined : 'order-actions-why'}>
            {t(`opsOrders.action.${offer.action}`)}
          </Button>
        ))}
        {actions.includes('MARK_FAILED') ? (
          <Button color="red.9" disabled={!may} onClick={markModal.open} aria-describedby={may ? undefined : 'order-actions-why'}>
            {t('opsOrders.action.MARK_FAILED')}
          </Button>
        ) : null}
      </Group>
      {retry.error ? <ErrorAlert error={retry.error} /> : null}
      {retry.data ? <Text role="status">{t('opsOrders.actions.retried', { status: t(`orders.status.${retry.data.status}`) })}</Text> : null}
      <ReasonModal
        key={`mark-${String(markOpen)}`}
        opened={markOpen}
        title={t('opsOrders.actions.markFailedTitle')}
        text={t('opsOrders.actions.markFailedText')}
        label={t('opsOrders.actions.reason')}
        confirm={t('opsOrders.actions.confirmMarkFailed')}
        danger
        pending={markFailed.isPending}
        error={markFailed.error}
        onClose={() => {
          markFailed.reset();
          markModal.close();
        }}
        onConfirm={(reason) => markFailed.mutate(reason)}
      />
      {proposing ? (
        <ReasonModal
          key={proposing.action}
          opened
          title={t(proposing.title)}
          text={t(proposing.text)}
          label={t('opsOrders.actions.reason')}
          confirm={t(proposing.confirm)}
          pending={propose.isPending}
          error={propose.error}
          onClose={() => {
            propose.reset();
            setProposing(null);
          }}
          onConfirm={(reason) => propose.mutate({ approval: proposing.approval, reason })}
        />
      ) : null}
    </Stack>
  );
}
