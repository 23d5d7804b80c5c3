/**
 * One four-eyes proposal (GET /admin/approvals/{id}) and its decision: Approve with an optional
 * note (POST …/approve) or Reject with a reason (POST …/reject, in a dialog). Both are disabled,
 * with the reason written beside them, when the signed-in operator made the proposal (another
 * must decide it) or lacks the action's permission; the API refuses regardless (403 OWN_PROPOSAL,
 * ROLE_NOT_ALLOWED), and a refusal is shown as its error. Once decided: who, when, the note or
 * reason, and what the approved action did (`result`).
 */
import { Anchor, Button, Card, Code, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../../api/client.ts';
import { isApiError } from '../../../api/errors.ts';
import { operatorSessionQuery } from '../../../api/operator-session.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Facts } from '../../../components/facts.tsx';
import { Loading } from '../../../components/loading.tsx';
import { READABLE } from '../../../components/readable.ts';
import { useI18n } from '../../../i18n/context.tsx';
import { formatDateTime } from '../../../i18n/format.ts';
import { ORDER_STATUSES, type OrderStatus } from '../../orders/statuses.ts';
import { ReasonModal } from '../orders/reason-modal.tsx';
import { actionLabelKey } from '../approvals-api.ts';
import { ACTION_PERMISSION, type Approval, ApprovalStatusBadge, ApprovalTarget } from './approval-parts.tsx';
import { opsKeys } from '../../../api/query-keys.ts';

const KNOWN_REFUSALS = new Set(['OWN_PROPOSAL', 'ROLE_NOT_ALLOWED', 'OWN_SERVICE_ACCOUNT']);

/** The API's error, and our sentence for the four-eyes refusals it names in details.reason. */
function Refusal({ error }: { error: unknown }) {
  const { t } = useI18n();
  const reason = isApiError(error) ? error.details?.reason : undefined;
  return (
    <>
      <ErrorAlert error={error} />
      {typeof reason === 'string' && KNOWN_REFUSALS.has(reason) ? <Text>{t(`opsApprovals.refused.${reason as 'OWN_PROPOSAL' | 'ROLE_NOT_ALLOWED' | 'OWN_SERVICE_ACCOUNT'}`)}</Text> : null}
    </>
  );
}

/** The order status an approved ORDER_REFUND or PAYOUT_RETRY left ({order: {status}}), if the result says. */
const orderStatusOf = (result: Approval['result']): OrderStatus | undefined => {
  const order = result?.order as { status?: unknown } | undefined;
  return ORDER_STATUSES.find((status) => status === order?.status);
};

export function ApprovalPage() {
  const { t } = useI18n();
  const { id = '' } = useParams({ strict: false });
  const queryClient = useQueryClient();
  const key = opsKeys.approvals.detail(id);
  const approval = useQuery({ queryKey: key, queryFn: () => call(api.GET('/admin/approvals/{id}', { params: { path: { id } } })) });
  const session = useQuery(operatorSessionQuery);
  const [note, setNote] = useState('');
  const [rejectOpen, rejectModal] = useDisclosure(false);

  const decided = async (answer: Approval) => {
    queryClient.setQueryData(key, answer);
    await queryClient.invalidateQueries({ queryKey: opsKeys.approvals.lists });
    await queryClient.invalidateQueries({ queryKey: opsKeys.orders.all });
  };
  const approve = useMutation({
    mutationFn: () => call(api.POST('/admin/approvals/{id}/approve', { params: { path: { id } }, body: note.trim() ? { note: note.trim() } : {} })),
    onSuccess: decided,
  });
  const reject = useMutation({
    mutationFn: (reason: string) => call(api.POST('/admin/approvals/{id}/reject', { params: { path: { id } }, body: { reason } })),
    onSuccess: async (answer) => {
      rejectModal.close();
      await decided(answer);
    },
  });

  const data = approval.data;
  const none = t('common.none');
  const own = Boolean(data && session.data && data.proposedBy.id === session.data.operator.id);
  const permission = data ? ACTION_PERMISSION[data.action] : undefined;
  const may = Boolean(permission && session.data?.permissions.includes(permission));
  const why = own ? t('opsApprovals.own') : !may && permission ? t('opsApprovals.noPermission', { permission }) : undefined;
  const orderStatus = data ? orderStatusOf(data.result) : undefined;

  return (
    <Stack>
      <Anchor component={Link} to="/ops/approvals">← {t('common.back')}</Anchor>
      {approval.error ? <ErrorAlert error={approval.error} /> : null}
      {approval.isPending ? <Loading /> : null}
      {data ? (
        <>
          <Title order={1}>{t('opsApprovals.detail.title', { action: t(actionLabelKey(data.action)) })}</Title>
          <Card withBorder component="section" aria-labelledby="approval-facts">
            <Title order={2} size="h3" id="approval-facts" mb="sm">{t('opsApprovals.detail.facts')}</Title>
            <Facts
              rows={[
                [t('opsApprovals.field.status'), <ApprovalStatusBadge status={data.status} />],
                [t('opsApprovals.field.action'), t(actionLabelKey(data.action))],
                [t('opsApprovals.field.target'), <ApprovalTarget approval={data} />],
                [t('opsApprovals.field.reason'), data.reason],
                [t('opsApprovals.field.proposedBy'), data.proposedBy.email],
                [t('opsApprovals.field.proposedAt'), formatDateTime(data.proposedAt)],
                ...(Object.keys(data.params).length > 0 ? ([[t('opsApprovals.field.params'), <Code block>{JSON.stringify(data.params, null, 2)}</Code>]] as [string, React.ReactNode][]) : []),
              ]}
            />
          </Card>
          <Card withBorder component="section" aria-labelledby="approval-decision">
            <Title order={2} size="h3" id="approval-decision" mb="sm">{t('opsApprovals.detail.decision')}</Title>
            {data.status === 'PENDING' ? (
              <Stack>
                {why ? <Text id="approval-why" fw={600}>{why}</Text> : null}
                <Textarea label={t('opsApprovals.note')} description={t('opsApprovals.noteHint')} value={note} onChange={(event) => setNote(event.currentTarget.value)} maxLength={500} autosize minRows={2} disabled={Boolean(why)} styles={READABLE} />
                <Group>
                  <Button disabled={Boolean(why)} loading={approve.isPending} onClick={() => approve.mutate()} aria-describedby={why ? 'approval-why' : undefined}>
                    {t('opsApprovals.approve')}
                  </Button>
                  <Button color="red.9" variant="outline" disabled={Boolean(why)} onClick={rejectModal.open} aria-describedby={why ? 'approval-why' : undefined}>
                    {t('opsApprovals.reject')}
                  </Button>
                </Group>
                {approve.error ? <Refusal error={approve.error} /> : null}
              </Stack>
            ) : (
              <Stack>
                <Text role="status" fw={600}>
                  {t(data.status === 'APPROVED' ? 'opsApprovals.approved' : 'opsApprovals.rejected', { email: data.decidedBy?.email ?? none, at: data.decidedAt ? formatDateTime(data.decidedAt) : none })}
                </Text>
                {orderStatus ? <Text>{t('opsApprovals.resultOrder', { status: t(`orders.status.${orderStatus}`) })}</Text> : null}
                <Facts
                  rows={[
                    [t('opsApprovals.field.decidedBy'), data.decidedBy?.email ?? none],
                    [t('opsApprovals.field.decidedAt'), data.decidedAt ? formatDateTime(data.decidedAt) : none],
                    [t('opsApprovals.field.decisionReason'), data.decisionReason ?? none],
                    [t('opsApprovals.field.result'), data.result ? <Code block>{JSON.stringify(data.result, null, 2)}</Code> : none],
                  ]}
                />
              </Stack>
            )}
          </Card>
          <ReasonModal
            key={`reject-${String(rejectOpen)}`}
            opened={rejectOpen}
            title={t('opsApprovals.rejectTitle')}
            text={t('opsApprovals.rejectText')}
            label={t('opsApprovals.rejectReason')}
            confirm={t('opsApprovals.reject')}
            danger
            pending={reject.isPending}
            error={reject.error}
            onClose={() => {
              reject.reset();
              rejectModal.close();
            }}
            onConfirm={(reason) => reject.mutate(reason)}
          />
        </>
      ) : null}
    </Stack>
  );
}
