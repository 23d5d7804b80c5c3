/** A page of the delivery log as a table: one row per delivery, linking to its own page. */
import { Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { type Delivery, DeliveryBadge, type Endpoint } from './webhook-data.tsx';

export function DeliveryTable({ deliveries, endpoints, caption }: { deliveries: Delivery[]; endpoints: Endpoint[] | undefined; caption: string }) {
  const { t } = useI18n();
  const urlOf = (id: string) => endpoints?.find((endpoint) => endpoint.id === id)?.url ?? id;
  const columns: Column<Delivery>[] = [
    { id: 'createdAt', header: t('deliveries.createdAt'), cell: (delivery) => formatDateTime(delivery.createdAt) },
    { id: 'event', header: t('deliveries.event'), cell: (delivery) => delivery.event },
    { id: 'endpoint', header: t('deliveries.endpoint'), cell: (delivery) => <span style={{ wordBreak: 'break-all' }}>{urlOf(delivery.endpointId)}</span> },
    { id: 'status', header: t('deliveries.status'), cell: (delivery) => <DeliveryBadge status={delivery.status} /> },
    { id: 'attempts', header: t('deliveries.attempts'), cell: (delivery) => delivery.attemptCount },
    { id: 'lastResponse', header: t('deliveries.lastResponse'), cell: (delivery) => (delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : (delivery.lastError ?? t('common.none'))) },
    {
      id: 'details',
      header: t('deliveries.details'),
      cell: (delivery) => (
        <Anchor renderRoot={(props) => <Link {...props} to="/developers/webhooks/deliveries/$id" params={{ id: delivery.id }} />} aria-label={t('deliveries.openNamed', { event: delivery.event, id: delivery.id })}>
          {t('deliveries.open')}
        </Anchor>
      ),
    },
  ];
  return <DataTable caption={caption} columns={columns} rows={deliveries} rowKey={(delivery) => delivery.id} rowProps={(delivery) => ({ 'data-delivery-id': delivery.id })} minWidth={860} />;
}
