/** A page of the delivery log as a table: one row per delivery, linking to its own page. */
import { Anchor, Table } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { type Delivery, DeliveryBadge, type Endpoint } from './webhook-data.tsx';

export function DeliveryTable({ deliveries, endpoints, caption }: { deliveries: Delivery[]; endpoints: Endpoint[] | undefined; caption: string }) {
  const { t } = useI18n();
  const urlOf = (id: string) => endpoints?.find((endpoint) => endpoint.id === id)?.url ?? id;
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table striped highlightOnHover>
        <Table.Caption c="var(--mantine-color-text)">{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('deliveries.createdAt')}</Table.Th>
            <Table.Th scope="col">{t('deliveries.event')}</Table.Th>
            <Table.Th scope="col">{t('deliveries.endpoint')}</Table.Th>
            <Table.Th scope="col">{t('deliveries.status')}</Table.Th>
            <Table.Th scope="col">{t('deliveries.attempts')}</Table.Th>
            <Table.Th scope="col">{t('deliveries.lastResponse')}</Table.Th>
            <Table.Th scope="col">{t('deliveries.details')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.map((delivery) => (
            <Table.Tr key={delivery.id} data-delivery-id={delivery.id}>
              <Table.Td>{formatDateTime(delivery.createdAt)}</Table.Td>
              <Table.Td>{delivery.event}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{urlOf(delivery.endpointId)}</Table.Td>
              <Table.Td>
                <DeliveryBadge status={delivery.status} />
              </Table.Td>
              <Table.Td>{delivery.attemptCount}</Table.Td>
              <Table.Td>{delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : (delivery.lastError ?? t('common.none'))}</Table.Td>
              <Table.Td>
                <Anchor renderRoot={(props) => <Link {...props} to="/developers/webhooks/deliveries/$id" params={{ id: delivery.id }} />} aria-label={t('deliveries.openNamed', { event: delivery.event, id: delivery.id })}>
                  {t('deliveries.open')}
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
