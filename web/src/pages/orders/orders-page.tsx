/**
 * The merchant's orders, newest first: GET /orders with the filters kept in the address
 * (filters.ts), keyset paging (startingAfter / endingBefore), and the CSV export of the same
 * filters (GET /orders/export, a plain download: the session cookie authenticates it).
 */
import { Anchor, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { API_BASE, api, call } from '../../api/client.ts';
import { useMay } from '../../api/permissions.ts';
import { keys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { DataTable, ExportButton, KeysetPager, ListState, type Column } from '../../components/data-table.tsx';
import { EntityId } from '../../components/entity-id.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatTokenAmount } from '../../i18n/format.ts';
import { brlBound, filterQuery, filtersOf, ordersSearch, type OrderFilters, type OrdersSearch } from './filters.ts';
import { OrderStatusBadge } from './labels.tsx';
import { ORDER_STATUSES, ORDER_TYPES } from './statuses.ts';
import { receiverChoicesQuery } from './receivers-query.ts';

const PAGE_SIZE = 20;
type OrderRow = components['schemas']['Order'];

export function OrdersPage() {
  const { t, tn, language } = useI18n();
  const navigate = useNavigate();
  const search = ordersSearch(useSearch({ strict: false }));
  const filters = filtersOf(search);
  // payments.write, from the session (the API's role table): the API is the guard.
  const mayCreate = useMay('payments.write');
  const query = { ...filterQuery(filters), limit: PAGE_SIZE, ...(search.startingAfter ? { startingAfter: search.startingAfter } : {}), ...(search.endingBefore ? { endingBefore: search.endingBefore } : {}) };
  const orders = useQuery({
    queryKey: keys.orders.list(query),
    queryFn: () => call(api.GET('/orders', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const go = (next: OrdersSearch) => navigate({ to: '/orders', search: next });

  const hasMore = orders.data?.hasMore ?? false;
  const hasNext = search.endingBefore ? true : hasMore;
  const hasPrevious = search.endingBefore ? hasMore : Boolean(search.startingAfter);
  const columns: Column<OrderRow>[] = [
    { id: 'createdAt', header: t('orders.col.createdAt'), cell: (order) => formatDateTime(order.createdAt) },
    {
      id: 'id',
      header: t('orders.col.id'),
      cell: (order) => (
        <Anchor renderRoot={(props) => <Link {...props} to="/orders/$id" params={{ id: order.id }} />} size="sm">
          <EntityId id={order.id} externalId={order.externalId} />
        </Anchor>
      ),
    },
    { id: 'type', header: t('orders.col.type'), cell: (order) => order.type },
    { id: 'status', header: t('orders.col.status'), cell: (order) => <OrderStatusBadge status={order.status} /> },
    { id: 'receiver', header: t('orders.col.receiver'), cell: (order) => order.receiverName },
    { id: 'externalId', header: t('orders.col.externalId'), cell: (order) => order.externalId ?? t('common.none') },
    { id: 'amountBrl', header: t('orders.col.amountBrl'), align: 'right', cell: (order) => formatBrl(order.amountBrl, language) },
    { id: 'amountToken', header: t('orders.col.amountToken'), align: 'right', cell: (order) => formatTokenAmount(String(order.amountToken), order.targetToken ?? order.sourceToken ?? '', language) },
  ];
  const exportHref = `${API_BASE}/orders/export?${new URLSearchParams(filterQuery(filters)).toString()}`;

  return (
    <Stack>
      <Group justify="space-between" align="end">
        <Title order={1}>{t('orders.title')}</Title>
        <Group>
          <ExportButton href={exportHref} label={t('orders.export')} hint={t('orders.exportHint')} />
          {mayCreate ? (
            <Button component={Link} to="/orders/new">
              {t('orders.newPayin')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <FilterForm key={JSON.stringify(filters)} filters={filters} onApply={(next) => go(next)} />
      <ListState query={orders} isEmpty={() => false} empty={null}>
        {(data) => (
          <>
            <Text size="sm" role="status">{tn('orders.total', data.total)}</Text>
            {data.data.length === 0 ? <Text>{t('orders.empty')}</Text> : <DataTable caption={t('orders.caption')} columns={columns} rows={data.data} rowKey={(order) => order.id} minWidth={860} />}
            {data.data.length > 0 ? (
              <KeysetPager
                hasPrevious={hasPrevious}
                hasNext={hasNext}
                onPrevious={() => go({ ...filters, endingBefore: data.data[0]!.id })}
                onNext={() => go({ ...filters, startingAfter: data.data[data.data.length - 1]!.id })}
                label={t('orders.paging')}
              />
            ) : null}
          </>
        )}
      </ListState>
    </Stack>
  );
}

/** The filters as a form: applied together by its button (one navigation, one request), cleared by the other. */
function FilterForm({ filters, onApply }: { filters: OrderFilters; onApply: (filters: OrderFilters) => void }) {
  const { t } = useI18n();
  const receivers = useQuery(receiverChoicesQuery);
  const [draft, setDraft] = useState({
    type: filters.type ?? '',
    status: filters.status ?? '',
    receiverId: filters.receiverId ?? '',
    externalId: filters.externalId ?? '',
    createdFrom: filters.createdFrom ?? '',
    createdTo: filters.createdTo ?? '',
    amountBrlMin: filters.amountBrlMin?.replace('.', ',') ?? '',
    amountBrlMax: filters.amountBrlMax?.replace('.', ',') ?? '',
  });
  const set = (field: keyof typeof draft) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setDraft((current) => ({ ...current, [field]: value }));
  };
  const min = brlBound(draft.amountBrlMin);
  const max = brlBound(draft.amountBrlMax);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (min === null || max === null) return;
    onApply(ordersSearch({ ...draft, amountBrlMin: min, amountBrlMax: max }));
  };

  const any = { value: '', label: t('orders.filter.any') };
  return (
    <Card withBorder component="form" onSubmit={submit} aria-labelledby="orders-filters-heading">
      <Title order={2} size="h4" id="orders-filters-heading" mb="sm">{t('orders.filters')}</Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <NativeSelect label={t('orders.filter.status')} value={draft.status} onChange={set('status')} data={[any, ...ORDER_STATUSES.map((status) => ({ value: status, label: t(`orders.status.${status}`) }))]} />
        <NativeSelect label={t('orders.filter.type')} value={draft.type} onChange={set('type')} data={[any, ...ORDER_TYPES.map((type) => ({ value: type, label: t(`orders.type.${type}`) }))]} />
        <NativeSelect
          label={t('orders.filter.receiver')}
          value={draft.receiverId}
          onChange={set('receiverId')}
          data={[any, ...(receivers.data?.data ?? []).map((receiver) => ({ value: receiver.id, label: `${receiver.name} (${receiver.document})` }))]}
        />
        <TextInput label={t('orders.filter.externalId')} value={draft.externalId} onChange={set('externalId')} maxLength={128} />
        <TextInput type="date" label={t('orders.filter.createdFrom')} value={draft.createdFrom} onChange={set('createdFrom')} />
        <TextInput type="date" label={t('orders.filter.createdTo')} value={draft.createdTo} onChange={set('createdTo')} />
        <TextInput label={t('orders.filter.amountMin')} inputMode="decimal" placeholder={t('orders.filter.amountHint')} value={draft.amountBrlMin} onChange={set('amountBrlMin')} error={min === null ? t('orders.filter.amountInvalid') : undefined} />
        <TextInput label={t('orders.filter.amountMax')} inputMode="decimal" placeholder={t('orders.filter.amountHint')} value={draft.amountBrlMax} onChange={set('amountBrlMax')} error={max === null ? t('orders.filter.amountInvalid') : undefined} />
      </SimpleGrid>
      <Group mt="md">
        <Button type="submit">{t('orders.filter.apply')}</Button>
        <Button variant="subtle" onClick={() => onApply({})}>{t('orders.filter.clear')}</Button>
      </Group>
    </Card>
  );
}
