/**
 * Orders across every merchant (GET /admin/orders): any id (`q`), status, type, merchant and São
 * Paulo dates, kept in the address (admin-orders.ts); keyset paging by `cursor` (the API's
 * `nextCursor`: "next page" moves on, "first page" starts again, the browser's back goes back).
 */
import { Button, Card, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../../api/client.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { READABLE } from '../../../components/readable.ts';
import { useI18n } from '../../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../../i18n/format.ts';
import { OrderStatusBadge } from '../../orders/labels.tsx';
import { ORDER_STATUSES, ORDER_TYPES } from '../../orders/statuses.ts';
import { opsOrdersQuery, opsOrdersSearch, type OpsOrderFilters, type OpsOrdersSearch } from './admin-orders.ts';
import { OrderLink } from './order-cells.tsx';
import { opsKeys } from '../../../api/query-keys.ts';

const PAGE_SIZE = 50;

export function OpsOrdersPage() {
  const { t, language } = useI18n();
  const navigate = useNavigate();
  const search = opsOrdersSearch(useSearch({ strict: false }));
  const query = { ...opsOrdersQuery(search), limit: PAGE_SIZE };
  const orders = useQuery({
    queryKey: opsKeys.orders.list(query),
    queryFn: () => call(api.GET('/admin/orders', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const go = (next: OpsOrdersSearch) => navigate({ to: '/ops/orders', search: next });
  const { cursor, ...filters } = search;
  const rows = orders.data?.data ?? [];

  return (
    <Stack>
      <Title order={1}>{t('opsOrders.title')}</Title>
      <FilterForm key={JSON.stringify(filters)} filters={filters} onApply={go} />
      {orders.error ? <ErrorAlert error={orders.error} /> : null}
      {orders.isPending ? <Loading /> : null}
      {orders.data && rows.length === 0 ? <Text role="status">{t('opsOrders.empty')}</Text> : null}
      {rows.length > 0 ? (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover>
            <Table.Caption c="dark.8">{t('opsOrders.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('opsOrders.col.createdAt')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.id')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.merchant')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.type')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.status')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.externalId')}</Table.Th>
                <Table.Th scope="col" ta="right">{t('opsOrders.col.amountBrl')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((order) => (
                <Table.Tr key={order.id}>
                  <Table.Td>{formatDateTime(order.createdAt)}</Table.Td>
                  <Table.Td><OrderLink id={order.id} /></Table.Td>
                  <Table.Td>{order.merchantName}</Table.Td>
                  <Table.Td>{order.type}</Table.Td>
                  <Table.Td><OrderStatusBadge status={order.status} /></Table.Td>
                  <Table.Td>{order.externalId ?? t('common.none')}</Table.Td>
                  <Table.Td ta="right">{formatBrl(order.amountBrl, language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {cursor || orders.data?.nextCursor ? (
        <Group justify="center" component="nav" aria-label={t('opsOrders.paging')}>
          <Button variant="default" disabled={!cursor} onClick={() => go(filters)}>{t('opsOrders.firstPage')}</Button>
          <Button variant="default" disabled={!orders.data?.nextCursor} onClick={() => go({ ...filters, cursor: orders.data?.nextCursor ?? undefined })}>
            {t('opsOrders.nextPage')} →
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/** The filters as a form, applied together (one navigation, one request). */
function FilterForm({ filters, onApply }: { filters: OpsOrderFilters; onApply: (filters: OpsOrderFilters) => void }) {
  const { t } = useI18n();
  const merchants = useQuery({
    queryKey: opsKeys.merchants.choices,
    queryFn: () => call(api.GET('/admin/merchants', { params: { query: { limit: 100 } } })),
    staleTime: 60_000,
  });
  const [draft, setDraft] = useState({ q: filters.q ?? '', status: filters.status ?? '', type: filters.type ?? '', merchantId: filters.merchantId ?? '', from: filters.from ?? '', to: filters.to ?? '' });
  const set = (field: keyof typeof draft) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setDraft((current) => ({ ...current, [field]: value }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(opsOrdersSearch(draft));
  };
  const any = { value: '', label: t('opsOrders.filter.any') };

  return (
    <Card withBorder component="form" role="search" onSubmit={submit} aria-labelledby="ops-orders-filters">
      <Title order={2} size="h4" id="ops-orders-filters" mb="sm">{t('opsOrders.filters')}</Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <TextInput label={t('opsOrders.filter.q')} description={t('opsOrders.filter.qHint')} value={draft.q} onChange={set('q')} maxLength={200} styles={READABLE} />
        <NativeSelect label={t('opsOrders.filter.status')} value={draft.status} onChange={set('status')} data={[any, ...ORDER_STATUSES.map((status) => ({ value: status, label: t(`orders.status.${status}`) }))]} />
        <NativeSelect label={t('opsOrders.filter.type')} value={draft.type} onChange={set('type')} data={[any, ...ORDER_TYPES.map((type) => ({ value: type, label: type }))]} />
        <NativeSelect label={t('opsOrders.filter.merchant')} value={draft.merchantId} onChange={set('merchantId')} data={[any, ...(merchants.data?.data ?? []).map((merchant) => ({ value: merchant.id, label: merchant.name }))]} />
        <TextInput type="date" label={t('opsOrders.filter.from')} value={draft.from} onChange={set('from')} />
        <TextInput type="date" label={t('opsOrders.filter.to')} value={draft.to} onChange={set('to')} />
      </SimpleGrid>
      <Group mt="md">
        <Button type="submit">{t('opsOrders.filter.apply')}</Button>
        <Button variant="subtle" onClick={() => onApply({})}>{t('opsOrders.filter.clear')}</Button>
      </Group>
    </Card>
  );
}
