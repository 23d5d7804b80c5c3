/**
 * MED claims of every merchant (/app/ops/disputes, GET /admin/disputes), newest first: all of them,
 * or one status ("open" first: a defense is still possible), kept in the address with the page
 * (`?status=&page=`), 50 a page. Each row: reported, merchant, order, amount, status, the defense
 * deadline (highlighted when an OPEN claim's is within 24 h or past), held, outcome, the MED
 * return's status. A row opens the claim (its reported time is the link; a click anywhere else on
 * the row too). Read-only: the merchant defends, the PSP decides.
 */
import { Anchor, Button, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import type { MouseEvent } from 'react';
import { api, call } from '../../../api/client.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { useI18n } from '../../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../../i18n/format.ts';
import { OrderLink } from '../orders/order-cells.tsx';
import { Deadline, DisputeStatusBadge, Held, MerchantLink, Outcome, ReturnStatus, useMerchantNames } from './dispute-parts.tsx';
import { DISPUTE_STATUSES, disputesSearch, type DisputesSearch } from './disputes-search.ts';
import { opsKeys } from '../../../api/query-keys.ts';

const PAGE_SIZE = 50;
const COLUMNS = ['reportedAt', 'merchant', 'order', 'amountBrl', 'status', 'deadline', 'held', 'outcome', 'returnStatus'] as const;

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
  const onRowClick = (id: string) => (event: MouseEvent<HTMLTableRowElement>) => {
    if (!(event.target as HTMLElement).closest('a')) void open(id);
  };
  const rows = disputes.data?.data ?? [];
  const pages = disputes.data ? Math.max(1, Math.ceil(disputes.data.total / PAGE_SIZE)) : 1;
  // Deadlines as of the answer (a render must not read the clock): refreshed with the list.
  const now = disputes.dataUpdatedAt;

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
      {disputes.error ? <ErrorAlert error={disputes.error} /> : null}
      {disputes.isPending ? <Loading /> : null}
      {disputes.data && rows.length === 0 ? <Text role="status">{t('opsDisputes.empty')}</Text> : null}
      {rows.length > 0 ? (
        <Table.ScrollContainer minWidth={1100}>
          <Table striped highlightOnHover>
            <Table.Caption c="dark.8">{tn('opsDisputes.caption', disputes.data?.total ?? rows.length)}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((column) => (
                  <Table.Th scope="col" key={column} ta={column === 'amountBrl' ? 'right' : undefined}>{t(`opsDisputes.col.${column}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((dispute) => (
                <Table.Tr key={dispute.id} data-dispute-id={dispute.id} onClick={onRowClick(dispute.id)} style={{ cursor: 'pointer' }}>
                  <Table.Td>
                    <Anchor renderRoot={(props) => <Link {...props} to="/ops/disputes/$id" params={{ id: dispute.id }} />} size="sm" aria-label={t('opsDisputes.openClaim', { at: formatDateTime(dispute.reportedAt) })}>
                      {formatDateTime(dispute.reportedAt)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td><MerchantLink id={dispute.merchantId} names={names} /></Table.Td>
                  <Table.Td><OrderLink id={dispute.orderId} /></Table.Td>
                  <Table.Td ta="right">{formatBrl(dispute.amountBrl, language)}</Table.Td>
                  <Table.Td><DisputeStatusBadge status={dispute.status} /></Table.Td>
                  <Table.Td><Deadline dispute={dispute} now={now} /></Table.Td>
                  <Table.Td><Held held={dispute.orderHeld} /></Table.Td>
                  <Table.Td><Outcome outcome={dispute.outcome} /></Table.Td>
                  <Table.Td><ReturnStatus status={dispute.returnStatus} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {pages > 1 || page > 1 ? (
        <Group justify="center" component="nav" aria-label={t('opsDisputes.paging')}>
          <Button variant="default" disabled={page <= 1} onClick={() => go({ ...search, page: page - 1 })}>{t('common.previous')}</Button>
          <Text>{t('common.pageOf', { page, pages })}</Text>
          <Button variant="default" disabled={page >= pages} onClick={() => go({ ...search, page: page + 1 })}>{t('common.next')}</Button>
        </Group>
      ) : null}
    </Stack>
  );
}
