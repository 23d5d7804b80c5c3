/**
 * The KYC review queue (/app/ops/kyc, GET /admin/receivers): receivers of every merchant, the
 * longest waiting first; by default those awaiting a decision (SUBMITTED, UNDER_REVIEW), or any
 * one KYC status, optionally of one merchant. Keyset paging: "load more" follows `nextCursor`.
 */
import { Anchor, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { READABLE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { KycBadge, type Receiver } from '../receivers/labels.tsx';
import { formatWaiting } from './ops-format.ts';
import { opsKeys } from '../../api/query-keys.ts';

const STATUSES: Receiver['kycStatus'][] = ['SUBMITTED', 'UNDER_REVIEW', 'PENDING', 'APPROVED', 'REJECTED'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function KycQueuePage() {
  const { t } = useI18n();
  const [status, setStatus] = useState('');
  const [merchant, setMerchant] = useState('');
  const [filters, setFilters] = useState<{ kycStatus?: Receiver['kycStatus']; merchantId?: string }>({});
  const queue = useInfiniteQuery({
    queryKey: opsKeys.kycQueue(filters),
    queryFn: ({ pageParam }) => call(api.GET('/admin/receivers', { params: { query: { limit: 50, ...filters, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const merchantInvalid = merchant.trim() !== '' && !UUID.test(merchant.trim());

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (merchantInvalid) return;
    setFilters({ ...(status ? { kycStatus: status as Receiver['kycStatus'] } : {}), ...(merchant.trim() ? { merchantId: merchant.trim() } : {}) });
  };
  const items = queue.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <Stack>
      <Title order={1}>{t('opsKyc.title')}</Title>
      <form onSubmit={apply} role="search" aria-label={t('opsKyc.filters')}>
        <Group align="flex-end">
          <NativeSelect
            label={t('opsKyc.status')}
            value={status}
            onChange={(event) => setStatus(event.currentTarget.value)}
            data={[{ value: '', label: t('opsKyc.awaiting') }, ...STATUSES.map((value) => ({ value, label: t(`kyc.${value}`) }))]}
          />
          <TextInput label={t('opsKyc.merchantId')} value={merchant} onChange={(event) => setMerchant(event.currentTarget.value)} error={merchantInvalid ? t('opsKyc.badMerchantId') : undefined} styles={READABLE} w={340} />
          <Button type="submit">{t('opsKyc.apply')}</Button>
        </Group>
      </form>
      {queue.error ? <ErrorAlert error={queue.error} /> : null}
      {queue.isPending ? <Loading /> : null}
      {queue.data && items.length === 0 ? <Text>{t('opsKyc.empty')}</Text> : null}
      {items.length > 0 ? (
        <Table.ScrollContainer minWidth={860}>
          <Table striped>
            <caption>{t('opsKyc.caption')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('opsKyc.receiver')}</Table.Th>
                <Table.Th scope="col">{t('opsKyc.document')}</Table.Th>
                <Table.Th scope="col">{t('opsKyc.merchant')}</Table.Th>
                <Table.Th scope="col">{t('opsKyc.status')}</Table.Th>
                <Table.Th scope="col">{t('opsKyc.submittedAt')}</Table.Th>
                <Table.Th scope="col">{t('opsKyc.waiting')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={item.receiver.id}>
                  <Table.Td>
                    <Anchor renderRoot={(props) => <Link {...props} to="/ops/kyc/$id" params={{ id: item.receiver.id }} />}>
                      {item.receiver.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{`${item.receiver.documentType} ${item.receiver.document}`}</Table.Td>
                  <Table.Td>{item.merchantName}</Table.Td>
                  <Table.Td>
                    <KycBadge status={item.receiver.kycStatus} />
                  </Table.Td>
                  <Table.Td>{item.kycSubmittedAt ? formatDateTime(item.kycSubmittedAt) : t('common.none')}</Table.Td>
                  <Table.Td>{formatWaiting(item.waitingSeconds)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {queue.hasNextPage ? (
        <Button variant="default" onClick={() => void queue.fetchNextPage()} loading={queue.isFetchingNextPage} w="fit-content">
          {t('opsKyc.more')}
        </Button>
      ) : null}
    </Stack>
  );
}
