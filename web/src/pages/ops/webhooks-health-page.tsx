/**
 * Webhooks health (/app/ops/webhooks, GET /admin/webhooks/health): every merchant's endpoints,
 * worst first, with their last 24 hours of deliveries; by default only those disabled, failing or
 * with failures or retries, all of them with "include healthy".
 */
import { Badge, Checkbox, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { opsKeys } from '../../api/query-keys.ts';

export function WebhooksHealthPage() {
  const { t, tn, language } = useI18n();
  const [includeHealthy, setIncludeHealthy] = useState(false);
  const health = useQuery({
    queryKey: opsKeys.webhooksHealth(includeHealthy),
    queryFn: () => call(api.GET('/admin/webhooks/health', { params: { query: { includeHealthy } } })),
  });
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  const none = t('common.none');

  return (
    <Stack>
      <Title order={1}>{t('opsWebhooks.title')}</Title>
      <Checkbox label={t('opsWebhooks.includeHealthy')} checked={includeHealthy} onChange={(event) => setIncludeHealthy(event.currentTarget.checked)} />
      {health.error ? <ErrorAlert error={health.error} /> : null}
      {health.isPending ? <Loading /> : null}
      {health.data && health.data.data.length === 0 ? <Text>{t('opsWebhooks.empty')}</Text> : null}
      {health.data && health.data.data.length > 0 ? (
        <Table.ScrollContainer minWidth={1000}>
          <Table striped>
            <caption>{tn('opsWebhooks.caption', health.data.windowHours)}</caption>
            <Table.Thead>
              <Table.Tr>
                {(['merchant', 'url', 'status', 'failingSince', 'deliveries', 'successRate', 'lastSuccess', 'lastFailure', 'retries'] as const).map((column) => (
                  <Table.Th scope="col" key={column}>{t(`opsWebhooks.${column}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {health.data.data.map((e) => (
                <Table.Tr key={e.endpointId}>
                  <Table.Td>{e.merchantName}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{e.url}</Table.Td>
                  <Table.Td>
                    <Badge variant="filled" color={e.status === 'ENABLED' ? TONE.ok : TONE.bad}>{t(`opsWebhooks.${e.status}`)}</Badge>
                    {e.disabledReason ? <Text size="xs">{e.disabledReason}</Text> : null}
                  </Table.Td>
                  <Table.Td>{e.failingSince ? formatDateTime(e.failingSince) : none}</Table.Td>
                  <Table.Td>{t('opsWebhooks.counts', { total: e.deliveries.total, succeeded: e.deliveries.succeeded, failed: tn('opsWebhooks.failed', e.deliveries.failed), pending: tn('opsWebhooks.pending', e.deliveries.pending) })}</Table.Td>
                  <Table.Td>{e.successRate === null ? none : percent.format(e.successRate)}</Table.Td>
                  <Table.Td>{e.lastSuccessAt ? formatDateTime(e.lastSuccessAt) : none}</Table.Td>
                  <Table.Td>
                    {e.lastFailureAt ? `${formatDateTime(e.lastFailureAt)} ${e.lastFailureStatusCode ?? ''} ${e.lastFailureError ?? ''}`.trim() : none}
                  </Table.Td>
                  <Table.Td>{e.pendingRetries}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Stack>
  );
}
