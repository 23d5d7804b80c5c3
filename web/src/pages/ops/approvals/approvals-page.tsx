/**
 * The four-eyes proposals (GET /admin/approvals): PENDING by default, any status or all from the
 * filter (kept in the address as `?status=`, ALL for every status), newest first, keyset paging by
 * `cursor`. Each row: action, target (a link), proposer, reason, age and a link to decide it.
 */
import { Anchor, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { api, call } from '../../../api/client.ts';
import type { components } from '../../../api/schema.ts';
import { opsKeys } from '../../../api/query-keys.ts';
import { CursorPager, DataTable, ListState, type Column } from '../../../components/data-table.tsx';
import { useI18n } from '../../../i18n/context.tsx';
import { formatDateTime } from '../../../i18n/format.ts';
import { formatAge, secondsSince } from '../orders/admin-orders.ts';
import { actionLabelKey } from '../approvals-api.ts';
import { APPROVAL_STATUSES, ApprovalStatusBadge, ApprovalTarget } from './approval-parts.tsx';
import { approvalsSearch, type ApprovalsSearch } from './approvals-search.ts';

const PAGE_SIZE = 50;
type Approval = components['schemas']['Approval'];

export function ApprovalsPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const search = approvalsSearch(useSearch({ strict: false }));
  const status = search.status ?? 'PENDING';
  const query = { ...(status === 'ALL' ? {} : { status }), ...(search.cursor ? { cursor: search.cursor } : {}), limit: PAGE_SIZE };
  const approvals = useQuery({
    queryKey: opsKeys.approvals.list(query),
    queryFn: () => call(api.GET('/admin/approvals', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const go = (next: ApprovalsSearch) => navigate({ to: '/ops/approvals', search: next });
  // Ages as of the answer (a render must not read the clock): refreshed with the list.
  const now = approvals.dataUpdatedAt;
  const columns: Column<Approval>[] = [
    {
      id: 'action',
      header: t('opsApprovals.col.action'),
      cell: (approval) => (
        <Anchor renderRoot={(props) => <Link {...props} to="/ops/approvals/$id" params={{ id: approval.id }} />} size="sm">
          {t(actionLabelKey(approval.action))}
        </Anchor>
      ),
    },
    { id: 'target', header: t('opsApprovals.col.target'), cell: (approval) => <ApprovalTarget approval={approval} /> },
    { id: 'proposer', header: t('opsApprovals.col.proposer'), cell: (approval) => approval.proposedBy.email },
    { id: 'reason', header: t('opsApprovals.col.reason'), cell: (approval) => <Text size="sm" maw={320} style={{ overflowWrap: 'anywhere' }}>{approval.reason}</Text> },
    { id: 'age', header: t('opsApprovals.col.age'), cell: (approval) => <span title={formatDateTime(approval.proposedAt)}>{formatAge(secondsSince(approval.proposedAt, now))}</span> },
    { id: 'status', header: t('opsApprovals.col.status'), cell: (approval) => <ApprovalStatusBadge status={approval.status} /> },
  ];

  return (
    <Stack>
      <Title order={1}>{t('opsApprovals.title')}</Title>
      <Text>{t('opsApprovals.intro')}</Text>
      <Group align="end">
        <NativeSelect
          label={t('opsApprovals.filter.status')}
          value={status}
          onChange={(event) => go(approvalsSearch({ status: event.currentTarget.value }))}
          data={[...APPROVAL_STATUSES.map((value) => ({ value, label: t(`opsApprovals.status.${value}`) })), { value: 'ALL', label: t('opsApprovals.filter.all') }]}
        />
      </Group>
      <ListState query={approvals} isEmpty={(data) => data.data.length === 0} empty={<span role="status">{t('opsApprovals.empty')}</span>}>
        {(data) => (
          <>
            <DataTable caption={t('opsApprovals.caption')} columns={columns} rows={data.data} rowKey={(approval) => approval.id} rowProps={(approval) => ({ 'data-approval-id': approval.id })} minWidth={900} />
            <CursorPager isFirst={!search.cursor} nextCursor={data.nextCursor} onFirst={() => go({ ...search, cursor: undefined })} onNext={(cursor) => go({ ...search, cursor })} label={t('opsApprovals.paging')} />
          </>
        )}
      </ListState>
    </Stack>
  );
}
