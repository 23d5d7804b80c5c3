/**
 * The merchant's webhook endpoints (GET /webhook/endpoints) and the form that registers one
 * (POST /webhook/endpoints: URL, description, event types from GET /webhook/events). The signing
 * secret of a new endpoint is shown once, like an API key's: stripped from the mutation's result.
 */
import { Anchor, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { READABLE } from '../../components/readable.ts';
import { formatDateTime } from '../../i18n/format.ts';
import { ApiErrorWithFields } from './field-errors.tsx';
import { SecretModal, type ShownSecret } from './secret-modal.tsx';
import { catalogQuery, type Endpoint, EndpointBadge, endpointsQuery, EventTypePicker } from './webhook-data.tsx';

function CreateEndpointForm({ onCreated }: { onCreated: (secret: ShownSecret) => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const catalog = useQuery(catalogQuery);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [eventTypes, setEventTypes] = useState<string[]>([]);
  const create = useMutation({
    gcTime: 0,
    mutationFn: async () => {
      const { secret, ...endpoint } = await call(
        api.POST('/webhook/endpoints', {
          body: { url: url.trim(), ...(description.trim() ? { description: description.trim() } : {}), ...(eventTypes.length ? { eventTypes: eventTypes as never } : {}) },
        }),
      );
      onCreated({ title: t('webhooks.secretTitle'), value: secret, context: <Text size="sm">{t('webhooks.secretFor', { url: endpoint.url })}</Text> });
      return endpoint;
    },
    onSuccess: async () => {
      setUrl('');
      setDescription('');
      setEventTypes([]);
      await queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Card withBorder component="section" aria-labelledby="create-endpoint-heading">
      <Title order={2} size="h3" id="create-endpoint-heading" mb="sm">
        {t('webhooks.create')}
      </Title>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label={t('webhooks.url')} styles={READABLE} description={t('webhooks.urlHelp')} required type="url" value={url} onChange={(e) => setUrl(e.currentTarget.value)} />
          <TextInput label={t('webhooks.description')} maxLength={255} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          {catalog.data ? <EventTypePicker catalog={catalog.data.data} value={eventTypes} onChange={setEventTypes} /> : null}
          {catalog.error ? <ErrorAlert error={catalog.error} /> : null}
          <ApiErrorWithFields error={create.error} />
          <Group>
            <Button type="submit" loading={create.isPending}>
              {t('webhooks.createButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export function WebhooksPage() {
  const { t } = useI18n();
  const endpoints = useQuery(endpointsQuery);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const columns: Column<Endpoint>[] = [
    {
      id: 'url',
      header: t('webhooks.url'),
      cell: (endpoint) => (
        <Anchor style={{ wordBreak: 'break-all' }} renderRoot={(props) => <Link {...props} to="/developers/webhooks/$id" params={{ id: endpoint.id }} />}>
          {endpoint.url}
        </Anchor>
      ),
    },
    { id: 'description', header: t('webhooks.description'), cell: (endpoint) => endpoint.description ?? t('common.none') },
    { id: 'eventTypes', header: t('webhooks.eventTypes'), cell: (endpoint) => (endpoint.eventTypes ? endpoint.eventTypes.join(', ') : t('webhooks.allEvents')) },
    { id: 'state', header: t('webhooks.state'), cell: (endpoint) => <EndpointBadge endpoint={endpoint} /> },
    { id: 'createdAt', header: t('webhooks.createdAt'), cell: (endpoint) => formatDateTime(endpoint.createdAt) },
  ];

  return (
    <Stack>
      <Title order={1}>{t('webhooks.title')}</Title>
      <Text>{t('webhooks.intro')}</Text>
      <Group>
        <Anchor component={Link} to="/developers/webhooks/deliveries">
          {t('deliveries.title')}
        </Anchor>
        <Anchor component={Link} to="/developers/events">
          {t('webhookEvents.title')}
        </Anchor>
      </Group>
      <ListState query={endpoints} isEmpty={(data) => data.data.length === 0} empty={t('webhooks.empty')}>
        {(data) => <DataTable caption={t('webhooks.caption')} columns={columns} rows={data.data} rowKey={(endpoint) => endpoint.id} minWidth={720} />}
      </ListState>
      <CreateEndpointForm onCreated={setSecret} />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </Stack>
  );
}
