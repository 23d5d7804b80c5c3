/** What the webhook pages share: the catalog and endpoints queries, the event-type picker, status badges. */
import { Badge, Checkbox, SimpleGrid } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { sessionQuery } from '../../api/session.ts';
import { useI18n } from '../../i18n/context.tsx';
import { READABLE, TONE } from '../../components/readable.ts';
import { keys } from '../../api/query-keys.ts';

export type Endpoint = components['schemas']['WebhookEndpoint'];
export type Delivery = components['schemas']['WebhookDelivery'];
export type CatalogEntry = components['schemas']['WebhookEventDefinition'];
export type DeliveryStatus = Delivery['status'];

export const catalogQuery = queryOptions({ queryKey: keys.webhookEvents, queryFn: () => call(api.GET('/webhook/events')), staleTime: 10 * 60_000 });
export const endpointsQuery = queryOptions({ queryKey: keys.webhookEndpoints.all, queryFn: () => call(api.GET('/webhook/endpoints')) });
export const endpointQuery = (id: string) => queryOptions({ queryKey: keys.webhookEndpoints.detail(id), queryFn: () => call(api.GET('/webhook/endpoints/{id}', { params: { path: { id } } })) });

// Dark shades, filled: white text on them passes WCAG AA (Mantine's light variant on the base shades does not).
const DELIVERY_COLOUR: Record<DeliveryStatus, string> = { PENDING: TONE.info, SUCCEEDED: TONE.ok, FAILED: TONE.bad };

export function DeliveryBadge({ status }: { status: DeliveryStatus }) {
  const { t } = useI18n();
  return <Badge color={DELIVERY_COLOUR[status]} variant="filled">{t(`deliveries.status.${status}`)}</Badge>;
}

export function EndpointBadge({ endpoint }: { endpoint: Endpoint }) {
  const { t } = useI18n();
  if (!endpoint.enabled) return <Badge color={TONE.neutral} variant="filled">{t('webhooks.disabled')}</Badge>;
  if (endpoint.failingSince) return <Badge color={TONE.bad} variant="filled">{t('webhooks.failing')}</Badge>;
  return <Badge color={TONE.ok} variant="filled">{t('webhooks.enabled')}</Badge>;
}

/** The event-type filter: none ticked means every event (the API's null). */
export function EventTypePicker({ catalog, value, onChange }: { catalog: CatalogEntry[]; value: string[]; onChange: (value: string[]) => void }) {
  const { t } = useI18n();
  return (
    <Checkbox.Group label={t('webhooks.eventTypes')} styles={READABLE} description={t('webhooks.eventTypesHelp')} value={value} onChange={onChange}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} mt="xs" spacing="xs">
        {catalog.map((entry) => (
          <Checkbox key={entry.name} value={entry.name} label={entry.name} />
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}

/** Whether the signed-in role may change webhooks (`developer.write`: every role but VIEWER); the API decides, this only hides buttons. */
export function useCanWriteWebhooks(): boolean {
  const session = useQuery(sessionQuery);
  return session.data !== undefined && session.data.user.role !== 'VIEWER';
}
