/**
 * One delivery (GET /webhook/deliveries/{id}): what was sent and every attempt's answer, and
 * "deliver again" (POST /webhook/deliveries/{id}/redeliver). The API keeps the payload, not the
 * headers of each attempt, so the request shows the body as sent and the headers' scheme
 * (Standard Webhooks: webhook-id is this delivery's id; the timestamp and signature are made per attempt).
 */
import { Anchor, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { DeliveryBadge, endpointQuery, useCanWriteWebhooks } from './webhook-data.tsx';
import { Facts } from '../../components/facts.tsx';
import { keys } from '../../api/query-keys.ts';

type Attempt = NonNullable<components['schemas']['WebhookDelivery']['attempts']>[number];

export function DeliveryPage() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const canWrite = useCanWriteWebhooks();
  const { id = '' } = useParams({ strict: false });
  const delivery = useQuery({
    queryKey: keys.webhookDeliveries.detail(id),
    queryFn: () => call(api.GET('/webhook/deliveries/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data?.status === 'PENDING' ? 2000 : false),
  });
  const endpointId = delivery.data?.endpointId ?? '';
  const endpoint = useQuery({ ...endpointQuery(endpointId), enabled: endpointId !== '', retry: false });
  const redeliver = useMutation({
    mutationFn: () => call(api.POST('/webhook/deliveries/{id}/redeliver', { params: { path: { id } } })),
    onSuccess: async (next) => {
      queryClient.setQueryData(keys.webhookDeliveries.detail(id), next);
      await queryClient.invalidateQueries({ queryKey: keys.webhookDeliveries.all });
    },
  });
  const none = t('common.none');
  const data = delivery.data;
  const attemptColumns: Column<Attempt>[] = [
    { id: 'number', header: '#', cell: (attempt) => attempt.number },
    { id: 'attemptedAt', header: t('delivery.attemptedAt'), cell: (attempt) => formatDateTime(attempt.attemptedAt) },
    { id: 'statusCode', header: t('delivery.statusCode'), cell: (attempt) => `${attempt.statusCode ?? none} ${attempt.succeeded ? t('delivery.ok') : t('delivery.failed')}` },
    { id: 'latency', header: t('delivery.latency'), cell: (attempt) => t('delivery.ms', { ms: attempt.latencyMs }) },
    { id: 'error', header: t('delivery.error'), cell: (attempt) => attempt.error ?? none },
    {
      id: 'responseBody',
      header: t('delivery.responseBody'),
      cell: (attempt) => (attempt.responseBody ? <Code block style={{ maxWidth: 420, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{attempt.responseBody}</Code> : none),
    },
  ];

  return (
    <Stack>
      <Anchor component={Link} to="/developers/webhooks/deliveries">
        ← {t('deliveries.title')}
      </Anchor>
      {delivery.error ? <ErrorAlert error={delivery.error} /> : null}
      {delivery.isPending ? <Loading /> : null}
      {data ? (
        <>
          <Title order={1}>{t('delivery.title', { event: data.event })}</Title>
          <Facts
            rows={[
              [t('delivery.id'), <Code>{data.id}</Code>],
              [t('deliveries.status'), <DeliveryBadge status={data.status} />],
              [t('deliveries.endpoint'), endpoint.data ? <Anchor renderRoot={(props) => <Link {...props} to="/developers/webhooks/$id" params={{ id: data.endpointId }} />}>{endpoint.data.url}</Anchor> : <Code>{data.endpointId}</Code>],
              [t('delivery.eventId'), <Code>{data.eventId}</Code>],
              [t('deliveries.orderId'), data.orderId ? <Code>{data.orderId}</Code> : none],
              [t('deliveries.attempts'), String(data.attemptCount)],
              [t('delivery.nextAttemptAt'), data.nextAttemptAt ? formatDateTime(data.nextAttemptAt) : none],
              [t('deliveries.createdAt'), formatDateTime(data.createdAt)],
            ]}
          />
          {canWrite ? (
            <Group>
              <Button onClick={() => redeliver.mutate()} loading={redeliver.isPending}>
                {t('delivery.redeliver')}
              </Button>
              {redeliver.isSuccess ? <Text role="status">{t('delivery.redeliverQueued')}</Text> : null}
            </Group>
          ) : null}
          {redeliver.error ? <ErrorAlert error={redeliver.error} /> : null}
          <Card withBorder component="section" aria-labelledby="request-heading">
            <Title order={2} size="h3" id="request-heading" mb="sm">
              {t('delivery.request')}
            </Title>
            <Text size="sm" mb="xs">
              {t('delivery.headersNote')}
            </Text>
            <Code block>
              {[
                `POST ${endpoint.data?.url ?? '<endpoint URL>'}`,
                'content-type: application/json',
                `webhook-id: ${data.id}`,
                'webhook-timestamp: <Unix seconds of the attempt>',
                'webhook-signature: v1,<base64 HMAC-SHA256(secret, "{webhook-id}.{webhook-timestamp}.{body}")>',
              ].join('\n')}
            </Code>
            <Title order={3} size="h4" mt="md" mb="xs">
              {t('delivery.payload')}
            </Title>
            <Code block data-testid="delivery-payload">
              {JSON.stringify(data.payload, null, 2)}
            </Code>
          </Card>
          <Card withBorder component="section" aria-labelledby="attempts-heading">
            <Title order={2} size="h3" id="attempts-heading" mb="sm">
              {t('delivery.attempts')}
            </Title>
            {data.attempts.length === 0 ? (
              <Text>{t('delivery.noAttempts')}</Text>
            ) : (
              <DataTable caption={t('delivery.attemptsCaption')} columns={attemptColumns} rows={data.attempts} rowKey={(attempt) => String(attempt.number)} rowProps={(attempt) => ({ 'data-attempt': String(attempt.number) })} minWidth={720} />
            )}
          </Card>
        </>
      ) : null}
    </Stack>
  );
}
