/**
 * One order in the back office (GET /admin/orders/{id}): its facts (merchant, references, failure
 * reason, the worker's step attempts), its amounts (fees, the merchant's markup apart, net), the actions its `allowedActions` offers (order-actions.tsx)
 * and its timeline, the merchant's own (`TimelineTable`). Refreshed every REFRESH_MS until the
 * order reaches a final status.
 */
import { Anchor, Card, Code, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../../api/client.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { idLabel } from '../../../components/entity-id.tsx';
import { Facts } from '../../../components/facts.tsx';
import { Loading } from '../../../components/loading.tsx';
import { useI18n } from '../../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../../i18n/format.ts';
import { OrderStatusBadge } from '../../orders/labels.tsx';
import { FINAL_STATUSES } from '../../orders/statuses.ts';
import { TimelineTable } from '../../orders/timeline.tsx';
import { OrderActions } from './order-actions.tsx';
import { MoneyHeld } from './order-cells.tsx';
import { opsKeys } from '../../../api/query-keys.ts';

const REFRESH_MS = 2000;

const code = (value: string | null, none: string) => (value ? <Code style={{ wordBreak: 'break-all' }}>{value}</Code> : none);

export function OpsOrderPage() {
  const { t, language } = useI18n();
  const { id = '' } = useParams({ strict: false });
  const order = useQuery({
    queryKey: opsKeys.orders.detail(id),
    queryFn: () => call(api.GET('/admin/orders/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && FINAL_STATUSES.has(query.state.data.status) ? false : REFRESH_MS),
  });
  const none = t('common.none');
  const data = order.data;
  const markupText = (markup: NonNullable<typeof data>['markup']) =>
    markup
      ? t('opsOrders.field.markupTerms', {
          amount: formatBrl(markup.amountBrl, language),
          bps: markup.bps,
          flat: formatBrl(markup.flatBrl, language),
          cap: markup.capBrl === null ? t('opsOrders.field.noCap') : formatBrl(markup.capBrl, language),
        })
      : t('opsOrders.field.noMarkup');

  return (
    <Stack>
      <Anchor component={Link} to="/ops/orders">← {t('common.back')}</Anchor>
      {order.error ? <ErrorAlert error={order.error} /> : null}
      {order.isPending ? <Loading /> : null}
      {data ? (
        <>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>{t('opsOrders.detail.title', { id: idLabel(data.id, data.externalId) })}</Title>
          {FINAL_STATUSES.has(data.status) ? null : <Text size="sm" id="timeline-refresh">{t('opsOrders.detail.refreshing')}</Text>}
          <Card withBorder component="section" aria-labelledby="ops-order-actions">
            <Title order={2} size="h3" id="ops-order-actions" mb="sm">{t('opsOrders.detail.actions')}</Title>
            <OrderActions order={data} />
          </Card>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder component="section" aria-labelledby="ops-order-facts">
              <Title order={2} size="h3" id="ops-order-facts" mb="sm">{t('opsOrders.detail.facts')}</Title>
              <Facts
                rows={[
                  [t('opsOrders.field.id'), <Code>{data.id}</Code>],
                  [t('opsOrders.field.merchant'), <>{data.merchantName} <Code>{data.merchantId}</Code></>],
                  [t('opsOrders.field.receiver'), <Code>{data.receiverId}</Code>],
                  [t('opsOrders.field.type'), data.type],
                  [t('opsOrders.field.status'), <OrderStatusBadge status={data.status} />],
                  [t('opsOrders.field.amountBrl'), formatBrl(data.amountBrl, language)],
                  [t('opsOrders.field.token'), `${data.token} · ${data.chain}`],
                  [t('opsOrders.field.externalId'), data.externalId ?? none],
                  [t('opsOrders.field.failureReason'), data.failureReason ?? none],
                  [t('opsOrders.field.moneyHeld'), <MoneyHeld held={data.moneyHeld} />],
                  [t('opsOrders.field.createdAt'), formatDateTime(data.createdAt)],
                  [t('opsOrders.field.updatedAt'), formatDateTime(data.updatedAt)],
                ]}
              />
            </Card>
            <Stack>
              <Card withBorder component="section" aria-labelledby="ops-order-amounts">
                <Title order={2} size="h3" id="ops-order-amounts" mb="sm">{t('opsOrders.detail.amounts')}</Title>
                <Facts
                  rows={[
                    [t('opsOrders.field.amountBrl'), formatBrl(data.amountBrl, language)],
                    [t('opsOrders.field.platformFee'), formatBrl(data.platformFeeAmountBrl, language)],
                    [t('opsOrders.field.merchantFee'), formatBrl(data.merchantFeeAmountBrl, language)],
                    // The partner markup, apart from the fees (decision 0042), with the terms the order locked.
                    [t('opsOrders.field.markup'), <span data-testid="ops-order-markup">{markupText(data.markup)}</span>],
                    [t('opsOrders.field.netAmountBrl'), formatBrl(data.netAmountBrl, language)],
                  ]}
                />
              </Card>
              <Card withBorder component="section" aria-labelledby="ops-order-references">
                <Title order={2} size="h3" id="ops-order-references" mb="sm">{t('opsOrders.detail.references')}</Title>
                <Facts
                  rows={[
                    [t('opsOrders.field.paymentReference'), code(data.paymentReference, none)],
                    [t('opsOrders.field.pixEndToEndId'), code(data.pixEndToEndId, none)],
                    [t('opsOrders.field.providerTransactionId'), code(data.providerTransactionId, none)],
                    [t('opsOrders.field.refundId'), code(data.refundId, none)],
                    [t('opsOrders.field.txHash'), code(data.txHash, none)],
                    [t('opsOrders.field.treasuryWallet'), data.treasuryWallet === null ? none : String(data.treasuryWallet)],
                  ]}
                />
              </Card>
              <Card withBorder component="section" aria-labelledby="ops-order-worker">
                <Title order={2} size="h3" id="ops-order-worker" mb="sm">{t('opsOrders.detail.worker')}</Title>
                <Facts
                  rows={[
                    [t('opsOrders.field.stepAttempts'), String(data.stepAttempts)],
                    [t('opsOrders.field.nextStepAt'), data.nextStepAt ? formatDateTime(data.nextStepAt) : none],
                  ]}
                />
              </Card>
            </Stack>
          </SimpleGrid>
          <Card withBorder component="section" aria-labelledby="ops-order-timeline">
            <Title order={2} size="h3" id="ops-order-timeline" mb="sm">{t('opsOrders.detail.timeline')}</Title>
            <TimelineTable timeline={{ entries: data.timeline }} deliveriesLink={false} />
          </Card>
        </>
      ) : null}
    </Stack>
  );
}
