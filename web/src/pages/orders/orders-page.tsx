/**
 * The merchant's orders, newest first: GET /orders with the filters kept in the address
 * (filters.ts), keyset paging (startingAfter / endingBefore), and the CSV export of the same
 * filters (GET /orders/export, a plain download: the session cookie authenticates it).
 */
import { Anchor, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { API_BASE, api, call } from '../../api/client.ts';
import { sessionQuery } from '../../api/session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatTokenAmount } from '../../i18n/format.ts';
import { brlBound, filterQuery, filtersOf, ordersSearch, type OrderFilters, type OrdersSearch } from './filters.ts';
import { OrderStatusBadge } from './labels.tsx';
import { ORDER_STATUSES, ORDER_TYPES } from './statuses.ts';
import { receiverChoicesQuery } from './receivers-query.ts';
import { keys } from '../../api/query-keys.ts';

const PAGE_SIZE = 20;

/** Roles whose people may create orders (users/roles.ts: payments.write); the API is the guard. */
export const PAYMENT_ROLES = new Set(['OWNER', 'ADMIN']);

export function OrdersPage() {
  const { t, tn, language } = useI18n();
  const navigate = useNavigate();
  const search = ordersSearch(useSearch({ strict: false }));
  const filters = filtersOf(search);
  const session = useQuery(sessionQuery);
  const query = { ...filterQuery(filters), limit: PAGE_SIZE, ...(search.startingAfter ? { startingAfter: search.startingAfter } : {}), ...(search.endingBefore ? { endingBefore: search.endingBefore } : {}) };
  const orders = useQuery({
    queryKey: keys.orders.list(query),
    queryFn: () => call(api.GET('/orders', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const go = (next: OrdersSearch) => navigate({ to: '/orders', search: next });

  const rows = orders.data?.data ?? [];
  const hasMore = orders.data?.hasMore ?? false;
  const hasNext = search.endingBefore ? true : hasMore;
  const hasPrevious = search.endingBefore ? hasMore : Boolean(search.startingAfter);
  const exportHref = `${API_BASE}/orders/export?${new URLSearchParams(filterQuery(filters)).toString()}`;

  return (
    <Stack>
      <Group justify="space-between" align="end">
        <Title order={1}>{t('orders.title')}</Title>
        <Group>
          <Button component="a" href={exportHref} download variant="default" title={t('orders.exportHint')}>
            {t('orders.export')}
          </Button>
          {session.data && PAYMENT_ROLES.has(session.data.user.role) ? (
            <Button component={Link} to="/orders/new">
              {t('orders.newPayin')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <FilterForm key={JSON.stringify(filters)} filters={filters} onApply={(next) => go(next)} />
      {orders.error ? <ErrorAlert error={orders.error} /> : null}
      {orders.isPending ? <Loading /> : null}
      {orders.data ? (
        <>
          <Text size="sm" role="status">{tn('orders.total', orders.data.total)}</Text>
          {rows.length === 0 ? (
            <Text>{t('orders.empty')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={860}>
              <Table striped highlightOnHover>
                <Table.Caption c="dark.8">{t('orders.caption')}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('orders.col.createdAt')}</Table.Th>
                    <Table.Th scope="col">{t('orders.col.id')}</Table.Th>
                    <Table.Th scope="col">{t('orders.col.type')}</Table.Th>
                    <Table.Th scope="col">{t('orders.col.status')}</Table.Th>
                    <Table.Th scope="col">{t('orders.col.receiver')}</Table.Th>
                    <Table.Th scope="col">{t('orders.col.externalId')}</Table.Th>
                    <Table.Th scope="col" ta="right">{t('orders.col.amountBrl')}</Table.Th>
                    <Table.Th scope="col" ta="right">{t('orders.col.amountToken')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((order) => (
                    <Table.Tr key={order.id}>
                      <Table.Td>{formatDateTime(order.createdAt)}</Table.Td>
                      <Table.Td>
                        <Anchor renderRoot={(props) => <Link {...props} to="/orders/$id" params={{ id: order.id }} />} ff="monospace" size="sm">
                          {order.id.slice(0, 8)}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{order.type}</Table.Td>
                      <Table.Td><OrderStatusBadge status={order.status} /></Table.Td>
                      <Table.Td>{order.receiverName}</Table.Td>
                      <Table.Td>{order.externalId ?? t('common.none')}</Table.Td>
                      <Table.Td ta="right">{formatBrl(order.amountBrl, language)}</Table.Td>
                      <Table.Td ta="right">{formatTokenAmount(String(order.amountToken), order.targetToken ?? order.sourceToken ?? '', language)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {hasNext || hasPrevious ? (
            <Group justify="center" component="nav" aria-label={t('orders.paging')}>
              <Button variant="default" disabled={!hasPrevious || rows.length === 0} onClick={() => go({ ...filters, endingBefore: rows[0]!.id })}>
                ← {t('common.previous')}
              </Button>
              <Button variant="default" disabled={!hasNext || rows.length === 0} onClick={() => go({ ...filters, startingAfter: rows[rows.length - 1]!.id })}>
                {t('common.next')} →
              </Button>
            </Group>
          ) : null}
        </>
      ) : null}
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
