/**
 * The four-eyes proposals (GET /admin/approvals): PENDING by default, any status or all from the
 * filter (kept in the address as `?status=`, ALL for every status), newest first, keyset paging by
 * `cursor`. Each row: action, target (a link), proposer, reason, age and a link to decide it.
 */
import { Anchor, Button, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { api, call } from '../../../api/client.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { useI18n } from '../../../i18n/context.tsx';
import { formatDateTime } from '../../../i18n/format.ts';
import { formatAge, secondsSince } from '../orders/admin-orders.ts';
import { actionLabelKey } from '../approvals-api.ts';
import { APPROVAL_STATUSES, ApprovalStatusBadge, ApprovalTarget } from './approval-parts.tsx';
import { approvalsSearch, type ApprovalsSearch } from './approvals-search.ts';
import { opsKeys } from '../../../api/query-keys.ts';

const PAGE_SIZE = 50;

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
  const rows = approvals.data?.data ?? [];
  // Ages as of the answer (a render must not read the clock): refreshed with the list.
  const now = approvals.dataUpdatedAt;

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
      {approvals.error ? <ErrorAlert error={approvals.error} /> : null}
      {approvals.isPending ? <Loading /> : null}
      {approvals.data && rows.length === 0 ? <Text role="status">{t('opsApprovals.empty')}</Text> : null}
      {rows.length > 0 ? (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover>
            <Table.Caption c="dark.8">{t('opsApprovals.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('opsApprovals.col.action')}</Table.Th>
                <Table.Th scope="col">{t('opsApprovals.col.target')}</Table.Th>
                <Table.Th scope="col">{t('opsApprovals.col.proposer')}</Table.Th>
                <Table.Th scope="col">{t('opsApprovals.col.reason')}</Table.Th>
                <Table.Th scope="col">{t('opsApprovals.col.age')}</Table.Th>
                <Table.Th scope="col">{t('opsApprovals.col.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((approval) => (
                <Table.Tr key={approval.id} data-approval-id={approval.id}>
                  <Table.Td>
                    <Anchor renderRoot={(props) => <Link {...props} to="/ops/approvals/$id" params={{ id: approval.id }} />} size="sm">
                      {t(actionLabelKey(approval.action))}
                    </Anchor>
                  </Table.Td>
                  <Table.Td><ApprovalTarget approval={approval} /></Table.Td>
                  <Table.Td>{approval.proposedBy.email}</Table.Td>
                  <Table.Td style={{ maxWidth: 320, overflowWrap: 'anywhere' }}>{approval.reason}</Table.Td>
                  <Table.Td title={formatDateTime(approval.proposedAt)}>{formatAge(secondsSince(approval.proposedAt, now))}</Table.Td>
                  <Table.Td><ApprovalStatusBadge status={approval.status} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {search.cursor || approvals.data?.nextCursor ? (
        <Group justify="center" component="nav" aria-label={t('opsApprovals.paging')}>
          <Button variant="default" disabled={!search.cursor} onClick={() => go({ ...search, cursor: undefined })}>{t('opsOrders.firstPage')}</Button>
          <Button variant="default" disabled={!approvals.data?.nextCursor} onClick={() => go({ ...search, cursor: approvals.data?.nextCursor ?? undefined })}>
            {t('opsOrders.nextPage')} →
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
