/**
 * MED claims of every merchant (/app/ops/disputes, GET /admin/disputes), newest first: all of them,
 * or one status ("open" first: a defense is still possible), kept in the address with the page
 * (`?status=&page=`), 50 a page. Each row: reported, merchant, order, amount, status, the defense
 * deadline (highlighted when an OPEN claim's is within 24 h or past), held, outcome, the MED
 * return's status. A row opens the claim (its reported time is the link; a click anywhere else on
 * the row too). Read-only: the merchant defends, the PSP decides.
 */
import { Anchor, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import type { MouseEvent } from 'react';
import { api, call } from '../../../api/client.ts';
import { opsKeys } from '../../../api/query-keys.ts';
import type { components } from '../../../api/schema.ts';
import { DataTable, ListState, PagePager, type Column } from '../../../components/data-table.tsx';
import { useI18n } from '../../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../../i18n/format.ts';
import { OrderLink } from '../orders/order-cells.tsx';
import { Deadline, DisputeStatusBadge, Held, MerchantLink, Outcome, ReturnStatus, useMerchantNames } from './dispute-parts.tsx';
import { DISPUTE_STATUSES, disputesSearch, type DisputesSearch } from './disputes-search.ts';

const PAGE_SIZE = 50;
type Dispute = components['schemas']['AdminDispute'];

export function DisputesPage() {
  const { t, tn, language } = useI18n();
  const navigate = useNavigate();
  const search = disputesSearch(useSearch({ strict: false }));
  const page = search.page ?? 1;
  const query = { page, limit: PAGE_SIZE, ...(search.status ? { status: search.status } : {}) };
  const disputes = useQuery({
    queryKey: opsKeys.disputes.list(query),
    queryFn: () => call(api.GET('/admin/disputes', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const names = useMerchantNames();
  const go = (next: DisputesSearch) => navigate({ to: '/ops/disputes', search: disputesSearch(next) });
  const open = (id: string) => navigate({ to: '/ops/disputes/$id', params: { id } });
  // A click on the row opens the claim, except on its links (the order, the merchant): they go where they say.
  const onRowClick = (dispute: Dispute, event: MouseEvent<HTMLTableRowElement>) => {
    if (!(event.target as HTMLElement).closest('a')) void open(dispute.id);
  };
  // Deadlines as of the answer (a render must not read the clock): refreshed with the list.
  const now = disputes.dataUpdatedAt;
  const columns: Column<Dispute>[] = [
    {
      id: 'reportedAt',
      header: t('opsDisputes.col.reportedAt'),
      cell: (dispute) => (
        <Anchor renderRoot={(props) => <Link {...props} to="/ops/disputes/$id" params={{ id: dispute.id }} />} size="sm" aria-label={t('opsDisputes.openClaim', { at: formatDateTime(dispute.reportedAt) })}>
          {formatDateTime(dispute.reportedAt)}
        </Anchor>
      ),
    },
    { id: 'merchant', header: t('opsDisputes.col.merchant'), cell: (dispute) => <MerchantLink id={dispute.merchantId} names={names} /> },
    { id: 'order', header: t('opsDisputes.col.order'), cell: (dispute) => <OrderLink id={dispute.orderId} externalId={dispute.externalId} /> },
    { id: 'amountBrl', header: t('opsDisputes.col.amountBrl'), align: 'right', cell: (dispute) => formatBrl(dispute.amountBrl, language) },
    { id: 'status', header: t('opsDisputes.col.status'), cell: (dispute) => <DisputeStatusBadge status={dispute.status} /> },
    { id: 'deadline', header: t('opsDisputes.col.deadline'), cell: (dispute) => <Deadline dispute={dispute} now={now} /> },
    { id: 'held', header: t('opsDisputes.col.held'), cell: (dispute) => <Held held={dispute.orderHeld} /> },
    { id: 'outcome', header: t('opsDisputes.col.outcome'), cell: (dispute) => <Outcome outcome={dispute.outcome} /> },
    { id: 'returnStatus', header: t('opsDisputes.col.returnStatus'), cell: (dispute) => <ReturnStatus status={dispute.returnStatus} /> },
  ];

  return (
    <Stack>
      <Title order={1}>{t('opsDisputes.title')}</Title>
      <Text>{t('opsDisputes.intro')}</Text>
      <Group align="end">
        <NativeSelect
          label={t('opsDisputes.filter.status')}
          value={search.status ?? ''}
          onChange={(event) => go(disputesSearch({ status: event.currentTarget.value }))}
          data={[{ value: '', label: t('opsDisputes.filter.all') }, ...DISPUTE_STATUSES.map((value) => ({ value, label: t(`opsDisputes.filter.${value}`) }))]}
        />
      </Group>
      <ListState query={disputes} isEmpty={(data) => data.data.length === 0 && page === 1} empty={<span role="status">{t('opsDisputes.empty')}</span>}>
        {(data) => (
          <>
            <DataTable caption={tn('opsDisputes.caption', data.total)} columns={columns} rows={data.data} rowKey={(dispute) => dispute.id} rowProps={(dispute) => ({ 'data-dispute-id': dispute.id })} onRowClick={onRowClick} minWidth={1100} />
            <PagePager page={page} totalPages={Math.max(page, Math.ceil(data.total / PAGE_SIZE))} onChange={(next) => go({ ...search, page: next })} label={t('opsDisputes.paging')} />
          </>
        )}
      </ListState>
    </Stack>
  );
}
