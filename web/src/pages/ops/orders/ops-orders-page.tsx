/**
 * Orders across every merchant (GET /admin/orders): any id (`q`), status, type, merchant and São
 * Paulo dates, kept in the address (admin-orders.ts); keyset paging by `cursor` (the API's
 * `nextCursor`: "next page" moves on, "first page" starts again, the browser's back goes back).
 */
import { Button, Card, Group, NativeSelect, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../../api/client.ts';
import { opsKeys } from '../../../api/query-keys.ts';
import { CursorPager, DataTable, ListState, type Column } from '../../../components/data-table.tsx';
import { READABLE } from '../../../components/readable.ts';
import { useI18n } from '../../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../../i18n/format.ts';
import { OrderStatusBadge } from '../../orders/labels.tsx';
import { ORDER_STATUSES, ORDER_TYPES } from '../../orders/statuses.ts';
import { opsOrdersQuery, opsOrdersSearch, type AdminOrder, type OpsOrderFilters, type OpsOrdersSearch } from './admin-orders.ts';
import { OrderLink } from './order-cells.tsx';

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
  const columns: Column<AdminOrder>[] = [
    { id: 'createdAt', header: t('opsOrders.col.createdAt'), cell: (order) => formatDateTime(order.createdAt) },
    { id: 'id', header: t('opsOrders.col.id'), cell: (order) => <OrderLink id={order.id} externalId={order.externalId} /> },
    { id: 'merchant', header: t('opsOrders.col.merchant'), cell: (order) => order.merchantName },
    { id: 'type', header: t('opsOrders.col.type'), cell: (order) => order.type },
    { id: 'status', header: t('opsOrders.col.status'), cell: (order) => <OrderStatusBadge status={order.status} /> },
    { id: 'externalId', header: t('opsOrders.col.externalId'), cell: (order) => order.externalId ?? t('common.none') },
    { id: 'amountBrl', header: t('opsOrders.col.amountBrl'), align: 'right', cell: (order) => formatBrl(order.amountBrl, language) },
  ];

  return (
    <Stack>
      <Title order={1}>{t('opsOrders.title')}</Title>
      <FilterForm key={JSON.stringify(filters)} filters={filters} onApply={go} />
      <ListState query={orders} isEmpty={(data) => data.data.length === 0} empty={<span role="status">{t('opsOrders.empty')}</span>}>
        {(data) => (
          <>
            <DataTable caption={t('opsOrders.caption')} columns={columns} rows={data.data} rowKey={(order) => order.id} minWidth={900} />
            <CursorPager isFirst={!cursor} nextCursor={data.nextCursor} onFirst={() => go(filters)} onNext={(next) => go({ ...filters, cursor: next })} label={t('opsOrders.paging')} />
          </>
        )}
      </ListState>
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
