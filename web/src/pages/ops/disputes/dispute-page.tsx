/**
 * One MED claim (/app/ops/disputes/$id, GET /admin/disputes/{id}): its facts (merchant, order,
 * amount, PIX, the PSP's infraction id, times, held, outcome, the MED return's status), the reason
 * the payer's PSP reported and the merchant's defense with its evidence (components/dispute-defense.tsx,
 * as the merchant sees it). Everything the merchant or the PSP wrote is shown as text. Read-only.
 */
import { Anchor, Card, Code, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../../api/client.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Facts } from '../../../components/facts.tsx';
import { PRE_WRAP, SubmittedDefense } from '../../../components/dispute-defense.tsx';
import { Loading } from '../../../components/loading.tsx';
import { useI18n } from '../../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../../i18n/format.ts';
import { OrderLink } from '../orders/order-cells.tsx';
import { Deadline, DisputeStatusBadge, Held, MerchantLink, Outcome, ReturnStatus, useMerchantNames } from './dispute-parts.tsx';
import { opsKeys } from '../../../api/query-keys.ts';

export function DisputePage() {
  const { t, language } = useI18n();
  const { id = '' } = useParams({ strict: false });
  const dispute = useQuery({ queryKey: opsKeys.disputes.detail(id), queryFn: () => call(api.GET('/admin/disputes/{id}', { params: { path: { id } } })) });
  const names = useMerchantNames();
  const none = t('common.none');
  const data = dispute.data;

  return (
    <Stack>
      <Anchor component={Link} to="/ops/disputes">← {t('common.back')}</Anchor>
      {dispute.error ? <ErrorAlert error={dispute.error} /> : null}
      {dispute.isPending ? <Loading /> : null}
      {data ? (
        <>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>{t('opsDisputes.detail.title', { id: data.id })}</Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder component="section" aria-labelledby="ops-dispute-facts">
              <Title order={2} size="h3" id="ops-dispute-facts" mb="sm">{t('opsDisputes.detail.facts')}</Title>
              <Facts
                rows={[
                  [t('opsDisputes.col.status'), <DisputeStatusBadge status={data.status} />],
                  [t('opsDisputes.col.merchant'), <MerchantLink id={data.merchantId} names={names} />],
                  [t('opsDisputes.col.order'), <OrderLink id={data.orderId} externalId={data.externalId} />],
                  [t('opsDisputes.field.externalId'), data.externalId ?? none],
                  [t('opsDisputes.col.amountBrl'), formatBrl(data.amountBrl, language)],
                  [t('opsDisputes.col.reportedAt'), formatDateTime(data.reportedAt)],
                  [t('opsDisputes.col.deadline'), <Deadline dispute={data} now={dispute.dataUpdatedAt} />],
                  [t('opsDisputes.col.held'), <Held held={data.orderHeld} />],
                  [t('opsDisputes.col.outcome'), <Outcome outcome={data.outcome} />],
                  [t('opsDisputes.col.returnStatus'), <ReturnStatus status={data.returnStatus} />],
                  [t('opsDisputes.field.resolvedAt'), data.resolvedAt ? formatDateTime(data.resolvedAt) : none],
                ]}
              />
            </Card>
            <Card withBorder component="section" aria-labelledby="ops-dispute-references">
              <Title order={2} size="h3" id="ops-dispute-references" mb="sm">{t('opsDisputes.detail.references')}</Title>
              <Facts
                rows={[
                  [t('opsDisputes.field.id'), <Code style={{ wordBreak: 'break-all' }}>{data.id}</Code>],
                  [t('opsDisputes.field.pspInfractionId'), <Code style={{ wordBreak: 'break-all' }}>{data.pspInfractionId}</Code>],
                  [t('opsDisputes.field.pixEndToEndId'), <Code style={{ wordBreak: 'break-all' }}>{data.pixEndToEndId}</Code>],
                  [t('opsDisputes.field.createdAt'), formatDateTime(data.createdAt)],
                  [t('opsDisputes.field.updatedAt'), formatDateTime(data.updatedAt)],
                ]}
              />
            </Card>
          </SimpleGrid>
          <Card withBorder component="section" aria-labelledby="ops-dispute-reason">
            <Title order={2} size="h3" id="ops-dispute-reason" mb="sm">{t('opsDisputes.detail.reason')}</Title>
            <Text style={PRE_WRAP}>{data.reason}</Text>
          </Card>
          <Card withBorder component="section" aria-labelledby="ops-dispute-defense">
            <Title order={2} size="h3" id="ops-dispute-defense" mb="sm">{t('opsDisputes.detail.defense')}</Title>
            <SubmittedDefense defense={data.defense} none={t('opsDisputes.defense.none')} />
          </Card>
        </>
      ) : null}
    </Stack>
  );
}
