/**
 * The stuck-orders queue (GET /admin/orders/stuck): each order's reason, how long since its last
 * change (`stuckForSeconds`), whether the customer's money is held, and what an operator may do;
 * the threshold (`olderThanMinutes`, the service's STUCK_ORDER_MINUTES when none is chosen) and the
 * cursor are kept in the address. Refreshed every 30 s: it is a work queue.
 */
import { Badge, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { api, call } from '../../../api/client.ts';
import { opsKeys } from '../../../api/query-keys.ts';
import { CursorPager, DataTable, ListState, type Column } from '../../../components/data-table.tsx';
import { TONE } from '../../../components/readable.ts';
import { useI18n } from '../../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../../i18n/format.ts';
import { OrderStatusBadge } from '../../orders/labels.tsx';
import { formatAge, stuckSearch, THRESHOLDS, type StuckOrder, type StuckSearch } from './admin-orders.ts';
import { AllowedActions, MoneyHeld, OrderLink } from './order-cells.tsx';

const REFRESH_MS = 30_000;

export function StuckOrdersPage() {
  const { t, tn, language } = useI18n();
  const navigate = useNavigate();
  const search = stuckSearch(useSearch({ strict: false }));
  const stuck = useQuery({
    queryKey: opsKeys.orders.stuck(search),
    queryFn: () => call(api.GET('/admin/orders/stuck', { params: { query: search } })),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const go = (next: StuckSearch) => navigate({ to: '/ops/orders/stuck', search: next });
  const columns: Column<StuckOrder>[] = [
    { id: 'id', header: t('opsOrders.col.id'), cell: (order) => <OrderLink id={order.id} /> },
    { id: 'merchant', header: t('opsOrders.col.merchant'), cell: (order) => order.merchantName },
    { id: 'type', header: t('opsOrders.col.type'), cell: (order) => order.type },
    { id: 'status', header: t('opsOrders.col.status'), cell: (order) => <OrderStatusBadge status={order.status} /> },
    {
      id: 'reason',
      header: t('opsOrders.col.reason'),
      cell: (order) => (
        <Badge variant="filled" color={order.stuckReason === 'FAILED_WITH_MONEY_HELD' ? TONE.bad : TONE.warn} tt="none">
          {t(`opsOrders.reason.${order.stuckReason}`)}
        </Badge>
      ),
    },
    { id: 'age', header: t('opsOrders.col.age'), cell: (order) => <span title={formatDateTime(order.updatedAt)}>{formatAge(order.stuckForSeconds)}</span> },
    { id: 'amountBrl', header: t('opsOrders.col.amountBrl'), align: 'right', cell: (order) => formatBrl(order.amountBrl, language) },
    { id: 'moneyHeld', header: t('opsOrders.col.moneyHeld'), cell: (order) => <MoneyHeld held={order.moneyHeld} /> },
    { id: 'actions', header: t('opsOrders.col.actions'), cell: (order) => <AllowedActions actions={order.allowedActions} /> },
  ];
  const thresholdLabel = (minutes: number) => (minutes >= 60 ? t('opsOrders.stuck.hours', { hours: minutes / 60 }) : t('opsOrders.stuck.minutes', { minutes }));

  return (
    <Stack>
      <Title order={1}>{t('opsOrders.stuck.title')}</Title>
      <Text>{t('opsOrders.stuck.intro')}</Text>
      <Group align="end">
        <NativeSelect
          label={t('opsOrders.stuck.threshold')}
          value={search.olderThanMinutes ? String(search.olderThanMinutes) : ''}
          onChange={(event) => go(event.currentTarget.value ? { olderThanMinutes: Number(event.currentTarget.value) } : {})}
          data={[{ value: '', label: t('opsOrders.stuck.default') }, ...THRESHOLDS.map((minutes) => ({ value: String(minutes), label: thresholdLabel(minutes) }))]}
        />
      </Group>
      <ListState query={stuck} isEmpty={() => false} empty={null}>
        {(data) => (
          <>
            <Text size="sm" role="status">{tn('opsOrders.stuck.applied', data.data.length, { minutes: data.olderThanMinutes })}</Text>
            {data.data.length === 0 ? <Text>{t('opsOrders.stuck.empty')}</Text> : <DataTable caption={t('opsOrders.stuck.caption')} columns={columns} rows={data.data} rowKey={(order) => order.id} rowProps={(order) => ({ 'data-order-id': order.id })} minWidth={1000} />}
            <CursorPager isFirst={!search.cursor} nextCursor={data.nextCursor} onFirst={() => go({ ...search, cursor: undefined })} onNext={(cursor) => go({ ...search, cursor })} label={t('opsOrders.paging')} />
          </>
        )}
      </ListState>
    </Stack>
  );
}
