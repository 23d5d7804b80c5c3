/**
 * One webhook endpoint: its facts; send a test event, enable or disable, rotate the signing
 * secret (shown once), delete; edit URL, description and event types (PATCH); re-queue every
 * delivery that failed since a time (POST .../recover); and its latest deliveries.
 */
import { Anchor, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ListState } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { READABLE, TONE } from '../../components/readable.ts';
import { formatDateTime } from '../../i18n/format.ts';
import { ConfirmModal } from './confirm-modal.tsx';
import { fromLocalInput, toLocalInput } from './dates.ts';
import { DeliveryTable } from './delivery-table.tsx';
import { ApiErrorWithFields } from './field-errors.tsx';
import { SecretModal, type ShownSecret } from './secret-modal.tsx';
import { catalogQuery, type Endpoint, EndpointBadge, endpointQuery, endpointsQuery, EventTypePicker, useCanWriteWebhooks } from './webhook-data.tsx';
import { Facts } from '../../components/facts.tsx';
import { keys } from '../../api/query-keys.ts';

function EditForm({ endpoint }: { endpoint: Endpoint }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const catalog = useQuery(catalogQuery);
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description ?? '');
  const [eventTypes, setEventTypes] = useState<string[]>(endpoint.eventTypes ?? []);
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PATCH('/webhook/endpoints/{id}', {
          params: { path: { id: endpoint.id } },
          body: { url: url.trim(), description: description.trim() || null, eventTypes: eventTypes.length ? (eventTypes as never) : null },
        }),
      ),
    onSuccess: async (next) => {
      queryClient.setQueryData(endpointQuery(endpoint.id).queryKey, next);
      await queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Card withBorder component="section" aria-labelledby="edit-heading">
      <Title order={2} size="h3" id="edit-heading" mb="sm">
        {t('webhooks.edit')}
      </Title>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label={t('webhooks.url')} styles={READABLE} description={t('webhooks.urlHelp')} required type="url" value={url} onChange={(e) => setUrl(e.currentTarget.value)} />
          <TextInput label={t('webhooks.description')} maxLength={255} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          {catalog.data ? <EventTypePicker catalog={catalog.data.data} value={eventTypes} onChange={setEventTypes} /> : null}
          <ApiErrorWithFields error={save.error} />
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('webhooks.save')}
            </Button>
            {save.isSuccess ? <Text role="status">{t('webhooks.saved')}</Text> : null}
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function RecoverForm({ endpoint }: { endpoint: Endpoint }) {
  const { t, tn } = useI18n();
  const queryClient = useQueryClient();
  const [since, setSince] = useState(() => toLocalInput(new Date(Date.now() - 24 * 3600_000)));
  const recover = useMutation({
    mutationFn: (at: string) => call(api.POST('/webhook/endpoints/{id}/recover', { params: { path: { id: endpoint.id } }, body: { since: at } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.webhookDeliveries.all }),
  });
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const at = fromLocalInput(since);
    setInvalid(!at);
    if (at) recover.mutate(at);
  };
  return (
    <Card withBorder component="section" aria-labelledby="recover-heading">
      <Title order={2} size="h3" id="recover-heading" mb="sm">
        {t('webhooks.recover')}
      </Title>
      <Text size="sm" mb="sm">
        {t('webhooks.recoverHelp')}
      </Text>
      <form onSubmit={submit}>
        <Group align="end">
          <TextInput type="datetime-local" label={t('webhooks.recoverSince')} required value={since} onChange={(e) => setSince(e.currentTarget.value)} error={invalid ? t('webhooks.recoverInvalid') : undefined} />
          <Button type="submit" loading={recover.isPending}>
            {t('webhooks.recoverButton')}
          </Button>
        </Group>
      </form>
      {recover.data ? (
        <Text role="status" mt="sm">
          {tn('webhooks.recovered', recover.data.requeued)}
        </Text>
      ) : null}
      {recover.error ? <ErrorAlert error={recover.error} /> : null}
    </Card>
  );
}

export function WebhookEndpointPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canWrite = useCanWriteWebhooks();
  const { id = '' } = useParams({ strict: false });
  const endpoint = useQuery(endpointQuery(id));
  const deliveries = useQuery({
    queryKey: keys.webhookDeliveries.list({ endpointId: id, limit: 10 }),
    queryFn: () => call(api.GET('/webhook/deliveries', { params: { query: { endpointId: id, limit: 10 } } })),
    refetchInterval: 3000,
  });
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [deleting, setDeleting] = useState(false);
  const refresh = async (next?: Endpoint) => {
    if (next) queryClient.setQueryData(endpointQuery(id).queryKey, next);
    await queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
  };
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => call(api.PATCH('/webhook/endpoints/{id}', { params: { path: { id } }, body: { enabled } })),
    onSuccess: refresh,
  });
  const rotate = useMutation({
    gcTime: 0,
    mutationFn: async () => {
      const { secret: value, ...rotation } = await call(api.POST('/webhook/endpoints/{id}/rotate-secret', { params: { path: { id } } }));
      setSecret({ title: t('webhooks.rotatedTitle'), value, context: <Text size="sm">{t('webhooks.rotatedNote', { until: formatDateTime(rotation.previousSecretExpiresAt) })}</Text> });
      return rotation;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointQuery(id).queryKey }),
  });
  const test = useMutation({
    mutationFn: () => call(api.POST('/webhook/endpoints/{id}/test', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.webhookDeliveries.all }),
  });
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/webhook/endpoints/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      // Leave first: this page's query would otherwise ask for the deleted endpoint again (a 404).
      await navigate({ to: '/developers/webhooks' });
      queryClient.removeQueries({ queryKey: endpointQuery(id).queryKey });
      await queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
    },
  });
  const none = t('common.none');
  const data = endpoint.data;

  return (
    <Stack>
      <Anchor component={Link} to="/developers/webhooks">
        ← {t('webhooks.title')}
      </Anchor>
      {endpoint.error ? <ErrorAlert error={endpoint.error} /> : null}
      {endpoint.isPending ? <Loading /> : null}
      {data ? (
        <>
          <Title order={1} style={{ wordBreak: 'break-all' }}>
            {t('webhooks.endpointTitle', { url: data.url })}
          </Title>
          <Facts
            rows={[
              [t('webhooks.state'), <EndpointBadge endpoint={data} />],
              [t('webhooks.description'), data.description ?? none],
              [t('webhooks.eventTypes'), data.eventTypes ? data.eventTypes.join(', ') : t('webhooks.allEvents')],
              [t('webhooks.secretCreatedAt'), formatDateTime(data.secretCreatedAt)],
              [t('webhooks.previousSecretExpiresAt'), data.previousSecretExpiresAt ? formatDateTime(data.previousSecretExpiresAt) : none],
              [t('webhooks.failingSince'), data.failingSince ? formatDateTime(data.failingSince) : none],
              [t('webhooks.disabledReason'), data.disabledReason ?? none],
              [t('webhooks.createdAt'), formatDateTime(data.createdAt)],
            ]}
          />
          {canWrite ? (
            <>
              <Group>
                <Button onClick={() => test.mutate()} loading={test.isPending}>
                  {t('webhooks.sendTest')}
                </Button>
                <Button variant="default" onClick={() => toggle.mutate(!data.enabled)} loading={toggle.isPending}>
                  {data.enabled ? t('webhooks.disable') : t('webhooks.enable')}
                </Button>
                <Button variant="default" onClick={() => rotate.mutate()} loading={rotate.isPending}>
                  {t('webhooks.rotate')}
                </Button>
                <Button color={TONE.bad} variant="outline" onClick={() => setDeleting(true)}>
                  {t('webhooks.delete')}
                </Button>
              </Group>
              {test.data ? (
                <Text role="status">
                  {t('webhooks.testQueued')}{' '}
                  <Anchor renderRoot={(props) => <Link {...props} to="/developers/webhooks/deliveries/$id" params={{ id: test.data.id }} />}>{t('webhooks.testOpen')}</Anchor>
                </Text>
              ) : null}
              {[test.error, toggle.error, rotate.error, remove.error].map((error, index) => (error ? <ErrorAlert key={index} error={error} /> : null))}
              <EditForm key={data.updatedAt} endpoint={data} />
              <RecoverForm endpoint={data} />
            </>
          ) : null}
          <Card withBorder component="section" aria-labelledby="endpoint-deliveries-heading">
            <Group justify="space-between" mb="sm">
              <Title order={2} size="h3" id="endpoint-deliveries-heading">
                {t('webhooks.latestDeliveries')}
              </Title>
              <Anchor renderRoot={(props) => <Link {...props} to="/developers/webhooks/deliveries" search={{ endpointId: id }} />}>
                {t('webhooks.allDeliveries')}
              </Anchor>
            </Group>
            <ListState query={deliveries} isEmpty={(list) => list.data.length === 0} empty={t('deliveries.empty')}>
              {(list) => <DeliveryTable deliveries={list.data} endpoints={[data]} caption={t('webhooks.latestDeliveries')} />}
            </ListState>
          </Card>
        </>
      ) : null}
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
      <ConfirmModal
        opened={deleting}
        title={t('webhooks.deleteTitle')}
        text={t('webhooks.deleteText', { url: data?.url ?? '' })}
        confirm={t('webhooks.delete')}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setDeleting(false)}
      />
    </Stack>
  );
}
