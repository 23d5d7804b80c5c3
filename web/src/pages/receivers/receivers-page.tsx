/**
 * The merchant's receivers, newest first: GET /receivers, one page at a time (`?page=` in the
 * address, so a page can be linked and Back works), and the way to a new one (new-receiver-page.tsx).
 */
import { Anchor, Button, Group, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { useMay } from '../../api/permissions.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { KycBadge, StatusBadge } from './labels.tsx';

const PAGE_SIZE = 20;

export function ReceiversPage() {
  const { t, tn } = useI18n();
  const navigate = useNavigate();
  const search = useSearch({ strict: false });
  const page = 'page' in search && typeof search.page === 'number' ? search.page : 1;
  const receivers = useQuery({
    queryKey: ['receivers', { page }],
    queryFn: () => call(api.GET('/receivers', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const mayWrite = useMay('payments.write');
  const pages = receivers.data ? Math.max(1, Math.ceil(receivers.data.total / PAGE_SIZE)) : 1;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('receivers.title')}</Title>
        {mayWrite ? (
          <Button renderRoot={(props) => <Link {...props} to="/receivers/new" />}>{t('receivers.newTitle')}</Button>
        ) : null}
      </Group>
      {receivers.error ? <ErrorAlert error={receivers.error} /> : null}
      {receivers.isPending ? <Loading /> : null}
      {receivers.data ? (
        receivers.data.data.length === 0 ? (
          <Text>{t('receivers.empty')}</Text>
        ) : (
          <>
            <Text size="sm">{tn('receivers.total', receivers.data.total)}</Text>
            <Table.ScrollContainer minWidth={640}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('receivers.name')}</Table.Th>
                    <Table.Th scope="col">{t('receivers.document')}</Table.Th>
                    <Table.Th scope="col">{t('receivers.type')}</Table.Th>
                    <Table.Th scope="col">{t('receivers.status')}</Table.Th>
                    <Table.Th scope="col">{t('receivers.kycStatus')}</Table.Th>
                    <Table.Th scope="col">{t('receivers.createdAt')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {receivers.data.data.map((receiver) => (
                    <Table.Tr key={receiver.id}>
                      <Table.Td>
                        <Anchor renderRoot={(props) => <Link {...props} to="/receivers/$id" params={{ id: receiver.id }} />}>
                          {receiver.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{receiver.documentType} {receiver.document}</Table.Td>
                      <Table.Td>{receiver.type}</Table.Td>
                      <Table.Td><StatusBadge status={receiver.status} /></Table.Td>
                      <Table.Td><KycBadge status={receiver.kycStatus} /></Table.Td>
                      <Table.Td>{formatDateTime(receiver.createdAt)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {pages > 1 ? (
              <Group justify="center" component="nav" aria-label={t('common.pageOf', { page, pages })}>
                <Pagination
                  total={pages}
                  value={page}
                  onChange={(next) => navigate({ to: '/receivers', search: { page: next } })}
                  getControlProps={(control) => ({ 'aria-label': control === 'previous' ? t('common.previous') : control === 'next' ? t('common.next') : control })}
                />
              </Group>
            ) : null}
          </>
        )
      ) : null}
    </Stack>
  );
}
