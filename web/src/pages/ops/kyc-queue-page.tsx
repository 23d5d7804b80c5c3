/**
 * The KYC review queue (/app/ops/kyc, GET /admin/receivers): receivers of every merchant, the
 * longest waiting first; by default those awaiting a decision (SUBMITTED, UNDER_REVIEW), or any
 * one KYC status, optionally of one merchant. Paged by the API's cursor (`nextCursor`).
 */
import { Anchor, Button, Group, NativeSelect, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.ts';
import { opsKeys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { CursorPager, DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { READABLE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { KycBadge, type Receiver } from '../receivers/labels.tsx';
import { formatWaiting } from './ops-format.ts';

type QueueItem = components['schemas']['KycQueueItem'];
const STATUSES: Receiver['kycStatus'][] = ['SUBMITTED', 'UNDER_REVIEW', 'PENDING', 'APPROVED', 'REJECTED'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function KycQueuePage() {
  const { t } = useI18n();
  const [status, setStatus] = useState('');
  const [merchant, setMerchant] = useState('');
  const [filters, setFilters] = useState<{ kycStatus?: Receiver['kycStatus']; merchantId?: string }>({});
  const [cursor, setCursor] = useState<string>();
  const queue = useQuery({
    queryKey: opsKeys.kycQueue({ ...filters, cursor }),
    queryFn: () => call(api.GET('/admin/receivers', { params: { query: { limit: 50, ...filters, ...(cursor ? { cursor } : {}) } } })),
  });
  const merchantInvalid = merchant.trim() !== '' && !UUID.test(merchant.trim());

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (merchantInvalid) return;
    setCursor(undefined);
    setFilters({ ...(status ? { kycStatus: status as Receiver['kycStatus'] } : {}), ...(merchant.trim() ? { merchantId: merchant.trim() } : {}) });
  };
  const columns: Column<QueueItem>[] = [
    {
      id: 'receiver',
      header: t('opsKyc.receiver'),
      cell: (item) => <Anchor renderRoot={(props) => <Link {...props} to="/ops/kyc/$id" params={{ id: item.receiver.id }} />}>{item.receiver.name}</Anchor>,
    },
    { id: 'document', header: t('opsKyc.document'), cell: (item) => `${item.receiver.documentType} ${item.receiver.document}` },
    { id: 'merchant', header: t('opsKyc.merchant'), cell: (item) => item.merchantName },
    { id: 'status', header: t('opsKyc.status'), cell: (item) => <KycBadge status={item.receiver.kycStatus} /> },
    { id: 'submittedAt', header: t('opsKyc.submittedAt'), cell: (item) => (item.kycSubmittedAt ? formatDateTime(item.kycSubmittedAt) : t('common.none')) },
    { id: 'waiting', header: t('opsKyc.waiting'), cell: (item) => formatWaiting(item.waitingSeconds) },
  ];

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
      <ListState query={queue} isEmpty={(page) => page.data.length === 0 && cursor === undefined} empty={t('opsKyc.empty')}>
        {(page) => (
          <>
            <DataTable caption={t('opsKyc.caption')} columns={columns} rows={page.data} rowKey={(item) => item.receiver.id} minWidth={860} />
            <CursorPager isFirst={cursor === undefined} nextCursor={page.nextCursor} onFirst={() => setCursor(undefined)} onNext={setCursor} label={t('opsKyc.caption')} />
          </>
        )}
      </ListState>
    </Stack>
  );
}
