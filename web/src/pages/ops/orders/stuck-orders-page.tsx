/**
 * The stuck-orders queue (GET /admin/orders/stuck): each order's reason, how long since its last
 * change (`stuckForSeconds`), whether the customer's money is held, and what an operator may do;
 * the threshold (`olderThanMinutes`, the service's STUCK_ORDER_MINUTES when none is chosen) and the
 * cursor are kept in the address. Refreshed every 30 s: it is a work queue.
 */
import { Badge, Button, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { api, call } from '../../../api/client.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { TONE } from '../../../components/readable.ts';
import { useI18n } from '../../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../../i18n/format.ts';
import { OrderStatusBadge } from '../../orders/labels.tsx';
import { formatAge, stuckSearch, THRESHOLDS, type StuckSearch } from './admin-orders.ts';
import { AllowedActions, MoneyHeld, OrderLink } from './order-cells.tsx';
import { opsKeys } from '../../../api/query-keys.ts';

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
  const rows = stuck.data?.data ?? [];
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
      {stuck.error ? <ErrorAlert error={stuck.error} /> : null}
      {stuck.isPending ? <Loading /> : null}
      {stuck.data ? <Text size="sm" role="status">{tn('opsOrders.stuck.applied', rows.length, { minutes: stuck.data.olderThanMinutes })}</Text> : null}
      {stuck.data && rows.length === 0 ? <Text>{t('opsOrders.stuck.empty')}</Text> : null}
      {rows.length > 0 ? (
        <Table.ScrollContainer minWidth={1000}>
          <Table striped highlightOnHover>
            <Table.Caption c="dark.8">{t('opsOrders.stuck.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('opsOrders.col.id')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.merchant')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.type')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.status')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.reason')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.age')}</Table.Th>
                <Table.Th scope="col" ta="right">{t('opsOrders.col.amountBrl')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.moneyHeld')}</Table.Th>
                <Table.Th scope="col">{t('opsOrders.col.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((order) => (
                <Table.Tr key={order.id} data-order-id={order.id}>
                  <Table.Td><OrderLink id={order.id} /></Table.Td>
                  <Table.Td>{order.merchantName}</Table.Td>
                  <Table.Td>{order.type}</Table.Td>
                  <Table.Td><OrderStatusBadge status={order.status} /></Table.Td>
                  <Table.Td>
                    <Badge variant="filled" color={order.stuckReason === 'FAILED_WITH_MONEY_HELD' ? TONE.bad : TONE.warn} tt="none">{t(`opsOrders.reason.${order.stuckReason}`)}</Badge>
                  </Table.Td>
                  <Table.Td title={formatDateTime(order.updatedAt)}>{formatAge(order.stuckForSeconds)}</Table.Td>
                  <Table.Td ta="right">{formatBrl(order.amountBrl, language)}</Table.Td>
                  <Table.Td><MoneyHeld held={order.moneyHeld} /></Table.Td>
                  <Table.Td><AllowedActions actions={order.allowedActions} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {search.cursor || stuck.data?.nextCursor ? (
        <Group justify="center" component="nav" aria-label={t('opsOrders.paging')}>
          <Button variant="default" disabled={!search.cursor} onClick={() => go({ ...search, cursor: undefined })}>{t('opsOrders.firstPage')}</Button>
          <Button variant="default" disabled={!stuck.data?.nextCursor} onClick={() => go({ ...search, cursor: stuck.data?.nextCursor ?? undefined })}>
            {t('opsOrders.nextPage')} →
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
