/**
 * Webhooks health (/app/ops/webhooks, GET /admin/webhooks/health): every merchant's endpoints,
 * worst first, with their last 24 hours of deliveries; by default only those disabled, failing or
 * with failures or retries, all of them with "include healthy".
 */
import { Badge, Checkbox, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { opsKeys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';

type Health = components['schemas']['WebhookEndpointHealth'];

export function WebhooksHealthPage() {
  const { t, tn, language } = useI18n();
  const [includeHealthy, setIncludeHealthy] = useState(false);
  const health = useQuery({
    queryKey: opsKeys.webhooksHealth(includeHealthy),
    queryFn: () => call(api.GET('/admin/webhooks/health', { params: { query: { includeHealthy } } })),
  });
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  const none = t('common.none');
  const columns: Column<Health>[] = [
    { id: 'merchant', header: t('opsWebhooks.merchant'), cell: (e) => e.merchantName },
    { id: 'url', header: t('opsWebhooks.url'), cell: (e) => <span style={{ wordBreak: 'break-all' }}>{e.url}</span> },
    {
      id: 'status',
      header: t('opsWebhooks.status'),
      cell: (e) => (
        <>
          <Badge variant="filled" color={e.status === 'ENABLED' ? TONE.ok : TONE.bad}>{t(`opsWebhooks.${e.status}`)}</Badge>
          {e.disabledReason ? <Text size="xs">{e.disabledReason}</Text> : null}
        </>
      ),
    },
    { id: 'failingSince', header: t('opsWebhooks.failingSince'), cell: (e) => (e.failingSince ? formatDateTime(e.failingSince) : none) },
    {
      id: 'deliveries',
      header: t('opsWebhooks.deliveries'),
      cell: (e) => t('opsWebhooks.counts', { total: e.deliveries.total, succeeded: e.deliveries.succeeded, failed: tn('opsWebhooks.failed', e.deliveries.failed), pending: tn('opsWebhooks.pending', e.deliveries.pending) }),
    },
    { id: 'successRate', header: t('opsWebhooks.successRate'), cell: (e) => (e.successRate === null ? none : percent.format(e.successRate)) },
    { id: 'lastSuccess', header: t('opsWebhooks.lastSuccess'), cell: (e) => (e.lastSuccessAt ? formatDateTime(e.lastSuccessAt) : none) },
    { id: 'lastFailure', header: t('opsWebhooks.lastFailure'), cell: (e) => (e.lastFailureAt ? `${formatDateTime(e.lastFailureAt)} ${e.lastFailureStatusCode ?? ''} ${e.lastFailureError ?? ''}`.trim() : none) },
    { id: 'retries', header: t('opsWebhooks.retries'), cell: (e) => e.pendingRetries },
  ];

  return (
    <Stack>
      <Title order={1}>{t('opsWebhooks.title')}</Title>
      <Checkbox label={t('opsWebhooks.includeHealthy')} checked={includeHealthy} onChange={(event) => setIncludeHealthy(event.currentTarget.checked)} />
      <ListState query={health} isEmpty={(data) => data.data.length === 0} empty={t('opsWebhooks.empty')}>
        {(data) => <DataTable caption={tn('opsWebhooks.caption', data.windowHours)} columns={columns} rows={data.data} rowKey={(e) => e.endpointId} minWidth={1000} />}
      </ListState>
    </Stack>
  );
}
