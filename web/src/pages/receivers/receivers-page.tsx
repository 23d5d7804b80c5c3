/**
 * The merchant's receivers, newest first: GET /receivers, one page at a time (`?page=` in the
 * address, so a page can be linked and Back works), and the way to a new one (new-receiver-page.tsx).
 */
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { useMay } from '../../api/permissions.ts';
import { keys } from '../../api/query-keys.ts';
import { DataTable, ListState, PagePager, type Column } from '../../components/data-table.tsx';
import type { components } from '../../api/schema.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { KycBadge, StatusBadge } from './labels.tsx';

const PAGE_SIZE = 20;
type Receiver = components['schemas']['Receiver'];

export function ReceiversPage() {
  const { t, tn } = useI18n();
  const navigate = useNavigate();
  const search = useSearch({ strict: false });
  const page = 'page' in search && typeof search.page === 'number' ? search.page : 1;
  const receivers = useQuery({
    queryKey: keys.receivers.list({ page }),
    queryFn: () => call(api.GET('/receivers', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const mayWrite = useMay('payments.write');
  const columns: Column<Receiver>[] = [
    {
      id: 'name',
      header: t('receivers.name'),
      cell: (receiver) => (
        <Anchor renderRoot={(props) => <Link {...props} to="/receivers/$id" params={{ id: receiver.id }} />}>{receiver.name}</Anchor>
      ),
    },
    { id: 'document', header: t('receivers.document'), cell: (receiver) => `${receiver.documentType} ${receiver.document}` },
    { id: 'type', header: t('receivers.type'), cell: (receiver) => receiver.type },
    { id: 'status', header: t('receivers.status'), cell: (receiver) => <StatusBadge status={receiver.status} /> },
    { id: 'kycStatus', header: t('receivers.kycStatus'), cell: (receiver) => <KycBadge status={receiver.kycStatus} /> },
    { id: 'createdAt', header: t('receivers.createdAt'), cell: (receiver) => formatDateTime(receiver.createdAt) },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('receivers.title')}</Title>
        {mayWrite ? (
          <Button renderRoot={(props) => <Link {...props} to="/receivers/new" />}>{t('receivers.newTitle')}</Button>
        ) : null}
      </Group>
      <ListState query={receivers} isEmpty={(data) => data.data.length === 0} empty={t('receivers.empty')}>
        {(data) => (
          <>
            <Text size="sm">{tn('receivers.total', data.total)}</Text>
            <DataTable caption={t('receivers.title')} columns={columns} rows={data.data} rowKey={(receiver) => receiver.id} />
            <PagePager page={page} totalPages={Math.max(1, Math.ceil(data.total / PAGE_SIZE))} onChange={(next) => navigate({ to: '/receivers', search: { page: next } })} />
          </>
        )}
      </ListState>
    </Stack>
  );
}
