/**
 * An order's operator actions, as its `allowedActions` offers them: retry the worker's step
 * (POST /admin/orders/{id}/retry-step), mark it failed with a reason (…/mark-failed), and the
 * refund, which is four-eyes: a proposal (POST /admin/approvals, ORDER_REFUND) that another
 * operator approves. A pending refund proposal for the order is shown with a link instead of a
 * second proposal. Without `orders.operate` (the session's permissions) the buttons are disabled
 * and say why; the API refuses regardless (403).
 */
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, call } from '../../../api/client.ts';
import { useOperatorMay } from '../../../api/operator-session.ts';
import { OPS_KEY } from '../../../api/query-client.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { useI18n } from '../../../i18n/context.tsx';
import { formatDateTime } from '../../../i18n/format.ts';
import type { AdminOrderDetail } from './admin-orders.ts';
import { ReasonModal } from './reason-modal.tsx';

/** The pending proposals (at most 100: the queue of decisions is short), to find this order's refund. */
const PENDING_QUERY = { status: 'PENDING' as const, limit: 100 };
export const pendingApprovalsKey = [OPS_KEY, 'approvals', 'list', PENDING_QUERY] as const;

export function OrderActions({ order }: { order: AdminOrderDetail }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const may = useOperatorMay('orders.operate');
  const [markOpen, markModal] = useDisclosure(false);
  const [refundOpen, refundModal] = useDisclosure(false);
  const pending = useQuery({
    queryKey: pendingApprovalsKey,
    queryFn: () => call(api.GET('/admin/approvals', { params: { query: PENDING_QUERY } })),
    enabled: order.allowedActions.includes('REFUND'),
  });
  const proposal = pending.data?.data.find((approval) => approval.action === 'ORDER_REFUND' && approval.targetId === order.id);
  const refreshOrder = () => queryClient.invalidateQueries({ queryKey: [OPS_KEY, 'orders'] });

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
  const refund = useMutation({
    mutationFn: (reason: string) => call(api.POST('/admin/approvals', { body: { action: 'ORDER_REFUND', targetId: order.id, reason } })),
    onSuccess: async () => {
      refundModal.close();
      await queryClient.invalidateQueries({ queryKey: [OPS_KEY, 'approvals'] });
    },
  });

  const actions = order.allowedActions;
  if (actions.length === 0) return <Text>{t('opsOrders.actions.none')}</Text>;
  return (
    <Stack>
      {!may ? <Text id="order-actions-why">{t('opsOrders.actions.notAllowed')}</Text> : null}
      {proposal ? (
        <Alert color="blue" title={t('opsOrders.pending.title')} role="status" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
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
        {actions.includes('REFUND') ? (
          <Button disabled={!may || Boolean(proposal) || pending.isPending} onClick={refundModal.open} aria-describedby={may ? undefined : 'order-actions-why'}>
            {t('opsOrders.action.REFUND')}
          </Button>
        ) : null}
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
      <ReasonModal
        key={`refund-${String(refundOpen)}`}
        opened={refundOpen}
        title={t('opsOrders.actions.refundTitle')}
        text={t('opsOrders.actions.refundText')}
        label={t('opsOrders.actions.reason')}
        confirm={t('opsOrders.actions.confirmRefund')}
        pending={refund.isPending}
        error={refund.error}
        onClose={() => {
          refund.reset();
          refundModal.close();
        }}
        onConfirm={(reason) => refund.mutate(reason)}
      />
    </Stack>
  );
}
