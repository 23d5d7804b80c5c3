/**
 * One payout batch: its status, totals and progress, the report of its lines (while VALIDATED the
 * check result, before anything moves), the deposit it waits for (address, QR code, copy), and
 * what may be done in its status (batch-actions.tsx). Batch and lines refresh every REFRESH_MS
 * until the batch reaches a final status.
 */
import { Anchor, Code, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { sessionQuery } from '../../api/session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Facts } from '../../components/facts.tsx';
import { Loading } from '../../components/loading.tsx';
import { Section } from '../../components/section.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatTokenAmount } from '../../i18n/format.ts';
import { BatchActions } from './batch-actions.tsx';
import { BatchFunding } from './batch-funding.tsx';
import { BatchItems } from './batch-items.tsx';
import { BatchStatusBadge, FINAL_BATCH } from './labels.tsx';

const REFRESH_MS = 2000;

export function BatchPage() {
  const { t, language } = useI18n();
  const { id = '' } = useParams({ strict: false });
  const session = useQuery(sessionQuery);
  const batch = useQuery({
    queryKey: keys.payoutBatches.detail(id),
    queryFn: () => call(api.GET('/payout-batches/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && FINAL_BATCH.has(query.state.data.status) ? false : REFRESH_MS),
  });
  const data = batch.data;
  const none = t('common.none');
  const me = session.data?.user.id;
  const person = (userId: string | null) => (userId === null ? t('batches.person.key') : userId === me ? t('batches.person.you') : t('batches.person.teammate'));
  const moving = data !== undefined && !FINAL_BATCH.has(data.status) && data.status !== 'VALIDATED';
  const token = (amount: string | null) => (amount === null ? none : formatTokenAmount(amount, data?.token ?? '', language));

  return (
    <Stack>
      <Anchor component={Link} to="/payout-batches">← {t('batches.detail.back')}</Anchor>
      {batch.error ? <ErrorAlert error={batch.error} /> : null}
      {batch.isPending ? <Loading /> : null}
      {data ? (
        <>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>{t('batches.detail.title', { id: data.id })}</Title>
          {moving ? <Text size="sm">{t('batches.detail.refreshing')}</Text> : null}
          <BatchActions batch={data} />
          {data.depositAddress && (data.status === 'AWAITING_FUNDING' || (data.status === 'PAUSED' && !data.fundedAt)) ? <BatchFunding batch={data} address={data.depositAddress} /> : null}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Section id="batch-summary-heading" title={t('batches.detail.summary')}>
              <Facts
                rows={[
                  [t('batches.field.id'), <Code style={{ wordBreak: 'break-all' }}>{data.id}</Code>],
                  [t('batches.field.status'), <BatchStatusBadge status={data.status} />],
                  [t('batches.field.lines'), data.itemCount],
                  [t('batches.field.valid'), data.validCount],
                  [t('batches.field.invalid'), data.invalidCount],
                  [t('batches.field.createdAt'), formatDateTime(data.createdAt)],
                  [t('batches.field.createdBy'), person(data.createdByUserId)],
                  [t('batches.field.approvedBy'), data.approvedByUserId ? person(data.approvedByUserId) : none],
                  [t('batches.field.ratesExpireAt'), formatDateTime(data.ratesExpireAt)],
                ]}
              />
            </Section>
            <Section id="batch-totals-heading" title={t('batches.field.progress')}>
              <Facts
                rows={[
                  [t('batches.field.totalBrl'), formatBrl(data.totalBrl, language)],
                  [t('batches.field.totalNetBrl'), formatBrl(data.totalNetBrl, language)],
                  [t('batches.field.totalCrypto'), token(data.totalCrypto)],
                  [t('batches.field.fundedCrypto'), token(data.fundedCrypto)],
                  [t('batches.field.heldCrypto'), token(data.heldCrypto)],
                  [t('batches.field.progress'), t('batches.progress', { ...data.progress })],
                ]}
              />
            </Section>
          </SimpleGrid>
          <BatchItems batch={data} refetchInterval={moving ? REFRESH_MS : false} />
        </>
      ) : null}
    </Stack>
  );
}
