/**
 * A batch's lines (GET /payout-batches/{id}/items, a page at a time): each one's result, its
 * refusals in the API's words (field: reason) and, once made, its order with a link to the order's
 * page; and the report's CSV download (GET /payout-batches/{id}/report, the session cookie
 * authenticates it).
 */
import { Anchor, Group, List, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { API_BASE, api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { useRefetchWhenFinal } from '../../api/refetch-when-final.ts';
import { DataTable, ExportButton, ListState, PagePager, type Column } from '../../components/data-table.tsx';
import { Section } from '../../components/section.tsx';
import { OrderStatusBadge } from '../orders/labels.tsx';
import type { OrderStatus } from '../orders/statuses.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatTokenAmount } from '../../i18n/format.ts';
import { FINAL_BATCH, ItemStatusBadge, type Batch, type BatchItem } from './labels.tsx';

const PAGE_SIZE = 50;

/** The refusals as the API wrote them: its code first, then each field's reason. */
function Errors({ errors, failureReason }: { errors: BatchItem['errors']; failureReason: string | null }) {
  if (!errors) return failureReason ? <Text size="sm">{failureReason}</Text> : null;
  const { code, message, ...fields } = errors;
  return (
    <Stack gap={2}>
      <Text size="sm">{[code, message].filter(Boolean).join(': ')}</Text>
      {Object.keys(fields).length > 0 ? (
        <List size="sm">
          {Object.entries(fields).map(([field, reason]) => (
            <List.Item key={field}>
              <code>{field}</code>: {reason}
            </List.Item>
          ))}
        </List>
      ) : null}
    </Stack>
  );
}

export function BatchItems({ batch, refetchInterval }: { batch: Batch; refetchInterval: number | false }) {
  const { t, language } = useI18n();
  const [page, setPage] = useState(1);
  const items = useQuery({
    queryKey: keys.payoutBatches.items(batch.id, { page }),
    queryFn: () => call(api.GET('/payout-batches/{id}/items', { params: { path: { id: batch.id }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
  useRefetchWhenFinal(FINAL_BATCH.has(batch.status), items.refetch);
  const columns: Column<BatchItem>[] = [
    { id: 'line', header: t('batches.col.line'), rowHeader: true, width: 70, cell: (item) => item.line },
    {
      id: 'result',
      header: t('batches.col.result'),
      width: 240,
      // The refusals beside the line's status, so the reason is read with the result (the widest column).
      cell: (item) => (
        <Stack gap={4} align="flex-start">
          <ItemStatusBadge status={item.status} />
          <Errors errors={item.errors} failureReason={item.failureReason} />
        </Stack>
      ),
    },
    {
      id: 'receiver',
      header: t('batches.col.receiver'),
      cell: (item) => (item.receiverId ? <Anchor renderRoot={(props) => <Link {...props} to="/receivers/$id" params={{ id: item.receiverId! }} />} style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{item.receiverId}</Anchor> : t('common.none')),
    },
    { id: 'externalId', header: t('batches.col.externalId'), cell: (item) => item.externalId ?? t('common.none') },
    { id: 'amount', header: t('batches.col.amount'), align: 'right', cell: (item) => (item.amountCrypto ? formatTokenAmount(item.amountCrypto, batch.token, language) : t('common.none')) },
    { id: 'amountBrl', header: t('batches.col.amountBrl'), align: 'right', cell: (item) => (item.amountBrl ? formatBrl(item.amountBrl, language) : t('common.none')) },
    { id: 'netBrl', header: t('batches.col.netBrl'), align: 'right', cell: (item) => (item.netAmountBrl ? formatBrl(item.netAmountBrl, language) : t('common.none')) },
    {
      id: 'order',
      header: t('batches.col.order'),
      cell: (item) =>
        item.orderId ? (
          <Stack gap={4} align="flex-start">
            <Anchor renderRoot={(props) => <Link {...props} to="/orders/$id" params={{ id: item.orderId! }} />} style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{item.orderId}</Anchor>
            {item.orderStatus ? <OrderStatusBadge status={item.orderStatus as OrderStatus} /> : null}
          </Stack>
        ) : (
          t('common.none')
        ),
    },
  ];

  return (
    <Section id="batch-items-heading" title={t('batches.report.title')}>
      <Stack gap="sm">
        <Text data-testid="batch-report-summary">{t('batches.report.summary', { valid: batch.validCount, lines: batch.itemCount, invalid: batch.invalidCount })}</Text>
        {batch.status === 'VALIDATED' ? <Text size="sm">{batch.invalidCount === 0 ? t('batches.report.allValid') : t('batches.report.invalidHint')}</Text> : null}
        <Group>
          <ExportButton href={`${API_BASE}/payout-batches/${batch.id}/report`} label={t('batches.export')} />
        </Group>
        <ListState query={items} isEmpty={(data) => data.data.length === 0} empty={t('batches.empty')}>
          {(data) => (
            <>
              <DataTable caption={t('batches.report.caption')} columns={columns} rows={data.data} rowKey={(item) => String(item.line)} minWidth={960} rowProps={(item) => ({ 'data-line': String(item.line), 'data-status': item.status })} />
              <PagePager page={page} totalPages={Math.max(1, Math.ceil(data.total / PAGE_SIZE))} onChange={setPage} />
            </>
          )}
        </ListState>
      </Stack>
    </Section>
  );
}
