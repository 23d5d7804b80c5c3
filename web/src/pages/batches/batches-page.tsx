/**
 * The merchant's payout batches, newest first: GET /payout-batches, one page at a time (`?page=`
 * in the address), the way to a new one (new-batch-page.tsx) and the approval threshold
 * (threshold-section.tsx). Model: pages/receivers/receivers-page.tsx.
 */
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { useMay } from '../../api/permissions.ts';
import { keys } from '../../api/query-keys.ts';
import { DataTable, ListState, PagePager, type Column } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatTokenAmount } from '../../i18n/format.ts';
import { BatchStatusBadge, type Batch } from './labels.tsx';
import { ThresholdSection } from './threshold-section.tsx';

const PAGE_SIZE = 20;

export function BatchesPage() {
  const { t, tn, language } = useI18n();
  const navigate = useNavigate();
  const search = useSearch({ strict: false });
  const page = 'page' in search && typeof search.page === 'number' ? search.page : 1;
  const batches = useQuery({
    queryKey: keys.payoutBatches.list({ page }),
    queryFn: () => call(api.GET('/payout-batches', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const mayWrite = useMay('payments.write');
  const columns: Column<Batch>[] = [
    {
      id: 'batch',
      header: t('batches.col.batch'),
      rowHeader: true,
      cell: (batch) => (
        <Anchor renderRoot={(props) => <Link {...props} to="/payout-batches/$id" params={{ id: batch.id }} />} style={{ fontFamily: 'monospace' }}>
          {batch.id}
        </Anchor>
      ),
    },
    { id: 'status', header: t('batches.col.status'), cell: (batch) => <BatchStatusBadge status={batch.status} /> },
    {
      id: 'lines',
      header: t('batches.col.lines'),
      cell: (batch) => (
        <>
          {tn('batches.lines', batch.itemCount)}
          {batch.invalidCount > 0 ? <Text size="xs">{tn('batches.linesInvalid', batch.invalidCount)}</Text> : null}
        </>
      ),
    },
    { id: 'totalBrl', header: t('batches.col.totalBrl'), align: 'right', cell: (batch) => formatBrl(batch.totalBrl, language) },
    { id: 'totalCrypto', header: t('batches.col.totalCrypto'), align: 'right', cell: (batch) => formatTokenAmount(batch.totalCrypto, batch.token, language) },
    { id: 'createdAt', header: t('batches.col.createdAt'), cell: (batch) => formatDateTime(batch.createdAt) },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('batches.title')}</Title>
        {mayWrite ? <Button renderRoot={(props) => <Link {...props} to="/payout-batches/new" />}>{t('batches.new')}</Button> : null}
      </Group>
      <Text>{t('batches.intro')}</Text>
      <ListState query={batches} isEmpty={(data) => data.data.length === 0} empty={t('batches.empty')}>
        {(data) => (
          <>
            <Text size="sm">{tn('batches.total', data.total)}</Text>
            <DataTable caption={t('batches.caption')} columns={columns} rows={data.data} rowKey={(batch) => batch.id} minWidth={900} rowProps={(batch) => ({ 'data-batch-id': batch.id })} />
            <PagePager page={page} totalPages={Math.max(1, Math.ceil(data.total / PAGE_SIZE))} onChange={(next) => navigate({ to: '/payout-batches', search: { page: next } })} />
          </>
        )}
      </ListState>
      <ThresholdSection />
    </Stack>
  );
}
