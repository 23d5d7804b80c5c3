/**
 * The delivery log: GET /webhook/deliveries, newest first, filtered by status, event, endpoint and
 * order, one page at a time; every filter is in the address (`?status=FAILED&page=2`), so a view
 * can be linked and Back works. It refreshes itself every few seconds: deliveries finish on their own.
 */
import { Anchor, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { ListState, PagePager } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { DeliveryTable } from './delivery-table.tsx';
import { type DeliverySearch, deliverySearch, STATUSES } from './delivery-search.ts';
import { catalogQuery, endpointsQuery } from './webhook-data.tsx';

const PAGE_SIZE = 20;
export function DeliveriesPage() {
  const { t, tn } = useI18n();
  const navigate = useNavigate();
  const search = deliverySearch(useSearch({ strict: false }));
  const page = search.page ?? 1;
  const catalog = useQuery(catalogQuery);
  const endpoints = useQuery(endpointsQuery);
  const [orderId, setOrderId] = useState(search.orderId ?? '');
  const deliveries = useQuery({
    queryKey: keys.webhookDeliveries.list(search),
    queryFn: () =>
      call(
        api.GET('/webhook/deliveries', {
          params: { query: { page, limit: PAGE_SIZE, ...(search.status ? { status: search.status } : {}), ...(search.event ? { event: search.event as never } : {}), ...(search.endpointId ? { endpointId: search.endpointId } : {}), ...(search.orderId ? { orderId: search.orderId } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 3000,
  });
  const go = (next: DeliverySearch) => navigate({ to: '/developers/webhooks/deliveries', search: deliverySearch({ ...next }) as never });
  const setFilter = (name: keyof DeliverySearch, value: string) => go({ ...search, page: undefined, [name]: value || undefined });
  const submitOrder = (event: FormEvent) => {
    event.preventDefault();
    setFilter('orderId', orderId.trim());
  };

  return (
    <Stack>
      <Anchor component={Link} to="/developers/webhooks">
        ← {t('webhooks.title')}
      </Anchor>
      <Title order={1}>{t('deliveries.title')}</Title>
      <Group align="end" component="form" onSubmit={submitOrder} role="search" aria-label={t('deliveries.filters')}>
        <NativeSelect
          label={t('deliveries.status')}
          value={search.status ?? ''}
          onChange={(e) => setFilter('status', e.currentTarget.value)}
          data={[{ value: '', label: t('deliveries.any') }, ...STATUSES.map((s) => ({ value: s, label: t(`deliveries.status.${s}`) }))]}
        />
        <NativeSelect
          label={t('deliveries.event')}
          value={search.event ?? ''}
          onChange={(e) => setFilter('event', e.currentTarget.value)}
          data={[{ value: '', label: t('deliveries.any') }, ...(catalog.data?.data ?? []).map((entry) => ({ value: entry.name, label: entry.name }))]}
        />
        <NativeSelect
          label={t('deliveries.endpoint')}
          value={search.endpointId ?? ''}
          onChange={(e) => setFilter('endpointId', e.currentTarget.value)}
          data={[{ value: '', label: t('deliveries.any') }, ...(endpoints.data?.data ?? []).map((endpoint) => ({ value: endpoint.id, label: endpoint.url }))]}
          maw={320}
        />
        <TextInput label={t('deliveries.orderId')} value={orderId} onChange={(e) => setOrderId(e.currentTarget.value)} w={340} />
        <Button type="submit" variant="default">
          {t('deliveries.apply')}
        </Button>
      </Group>
      <ListState query={deliveries} isEmpty={(data) => data.data.length === 0} empty={t('deliveries.empty')}>
        {(data) => (
          <>
            <Text size="sm">{tn('deliveries.total', data.total)}</Text>
            <DeliveryTable deliveries={data.data} endpoints={endpoints.data?.data} caption={t('deliveries.caption')} />
            <PagePager page={page} totalPages={Math.max(1, Math.ceil(data.total / PAGE_SIZE))} onChange={(next) => go({ ...search, page: next })} />
          </>
        )}
      </ListState>
    </Stack>
  );
}
