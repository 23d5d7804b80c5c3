/**
 * The merchant's webhook endpoints (GET /webhook/endpoints) and the form that registers one
 * (POST /webhook/endpoints: URL, description, event types from GET /webhook/events). The signing
 * secret of a new endpoint is shown once, like an API key's: stripped from the mutation's result.
 */
import { Anchor, Button, Card, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { READABLE } from '../../components/readable.ts';
import { formatDateTime } from '../../i18n/format.ts';
import { ApiErrorWithFields } from './field-errors.tsx';
import { SecretModal, type ShownSecret } from './secret-modal.tsx';
import { catalogQuery, EndpointBadge, endpointsQuery, EventTypePicker } from './webhook-data.tsx';

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
      {endpoints.error ? <ErrorAlert error={endpoints.error} /> : null}
      {endpoints.isPending ? <Loading /> : null}
      {endpoints.data ? (
        endpoints.data.data.length === 0 ? (
          <Text>{t('webhooks.empty')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover>
              <Table.Caption c="var(--mantine-color-text)">{t('webhooks.caption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('webhooks.url')}</Table.Th>
                  <Table.Th scope="col">{t('webhooks.description')}</Table.Th>
                  <Table.Th scope="col">{t('webhooks.eventTypes')}</Table.Th>
                  <Table.Th scope="col">{t('webhooks.state')}</Table.Th>
                  <Table.Th scope="col">{t('webhooks.createdAt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {endpoints.data.data.map((endpoint) => (
                  <Table.Tr key={endpoint.id}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>
                      <Anchor renderRoot={(props) => <Link {...props} to="/developers/webhooks/$id" params={{ id: endpoint.id }} />}>{endpoint.url}</Anchor>
                    </Table.Td>
                    <Table.Td>{endpoint.description ?? t('common.none')}</Table.Td>
                    <Table.Td>{endpoint.eventTypes ? endpoint.eventTypes.join(', ') : t('webhooks.allEvents')}</Table.Td>
                    <Table.Td>
                      <EndpointBadge endpoint={endpoint} />
                    </Table.Td>
                    <Table.Td>{formatDateTime(endpoint.createdAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )
      ) : null}
      <CreateEndpointForm onCreated={setSecret} />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </Stack>
  );
}
