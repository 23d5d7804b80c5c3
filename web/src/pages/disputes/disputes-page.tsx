/**
 * The merchant's MED claims (/app/disputes, GET /disputes), newest first, 20 a page: all of them
 * or one status, kept in the address with the page (`?status=&page=`, lib/disputes.ts). Each row:
 * reported (the link to the claim), the order, the amount, the PSP's reason, the status, and the
 * defence deadline with a badge when an OPEN claim's is within 24 h or past.
 */
import { Anchor, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { DataTable, ListState, PagePager, type Column } from '../../components/data-table.tsx';
import { Deadline, DisputeStatusBadge } from '../../components/dispute-badges.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../i18n/format.ts';
import { OrderLink } from './order-link.tsx';
import { DISPUTE_STATUSES, disputesSearch, type Dispute } from '../../lib/disputes.ts';

const PAGE_SIZE = 20;

export function DisputesPage() {
  const { t, tn, language } = useI18n();
  const navigate = useNavigate();
  const search = disputesSearch(useSearch({ strict: false }));
  const page = search.page ?? 1;
  const query = { page, limit: PAGE_SIZE, ...(search.status ? { status: search.status } : {}) };
  const disputes = useQuery({
    queryKey: keys.disputes.list(query),
    queryFn: () => call(api.GET('/disputes', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const go = (next: Record<string, unknown>) => navigate({ to: '/disputes', search: disputesSearch(next) });
  // Deadlines as of the answer (a render must not read the clock): refreshed with the list.
  const now = disputes.dataUpdatedAt;

  const columns: Column<Dispute>[] = [
    {
      id: 'reportedAt',
      header: t('disputes.col.reportedAt'),
      cell: (dispute) => (
        <Anchor renderRoot={(props) => <Link {...props} to="/disputes/$id" params={{ id: dispute.id }} />} size="sm" aria-label={t('disputes.openClaim', { at: formatDateTime(dispute.reportedAt) })}>
          {formatDateTime(dispute.reportedAt)}
        </Anchor>
      ),
    },
    { id: 'order', header: t('disputes.col.order'), cell: (dispute) => <OrderLink dispute={dispute} /> },
    { id: 'amountBrl', header: t('disputes.col.amountBrl'), align: 'right', cell: (dispute) => formatBrl(dispute.amountBrl, language) },
    { id: 'reason', header: t('disputes.col.reason'), cell: (dispute) => <Text size="sm" lineClamp={2} maw={320} style={{ overflowWrap: 'anywhere' }}>{dispute.reason}</Text> },
    { id: 'status', header: t('disputes.col.status'), cell: (dispute) => <DisputeStatusBadge status={dispute.status} /> },
    { id: 'deadline', header: t('disputes.col.deadline'), cell: (dispute) => <Deadline dispute={dispute} now={now} /> },
  ];

  return (
    <Stack>
      <Title order={1}>{t('disputes.title')}</Title>
      <Text>{t('disputes.intro')}</Text>
      <Group align="end">
        <NativeSelect
          label={t('disputes.filter.status')}
          value={search.status ?? ''}
          onChange={(event) => go({ status: event.currentTarget.value })}
          data={[{ value: '', label: t('disputes.filter.all') }, ...DISPUTE_STATUSES.map((value) => ({ value, label: t(`disputes.status.${value}`) }))]}
        />
      </Group>
      <ListState query={disputes} isEmpty={(data) => data.data.length === 0} empty={t('disputes.empty')}>
        {(data) => (
          <>
            <DataTable caption={tn('disputes.caption', data.total)} columns={columns} rows={data.data} rowKey={(dispute) => dispute.id} minWidth={960} />
            <PagePager page={page} totalPages={Math.max(1, Math.ceil(data.total / PAGE_SIZE))} onChange={(next) => go({ ...search, page: next })} label={t('disputes.paging')} />
          </>
        )}
      </ListState>
    </Stack>
  );
}
