/**
 * One order: its fields, the PIX copy-and-paste code while a PAYIN awaits payment, its timeline
 * (GET /orders/{id}/timeline) and, where the sandbox is on, the sandbox actions. Order and
 * timeline refresh every REFRESH_MS until the order reaches a final status (the timeline also
 * while a webhook delivery about it is still pending).
 */
import { Anchor, Button, Card, Code, CopyButton, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { api, call } from '../../api/client.ts';
import { useRefetchWhenFinal } from '../../api/refetch-when-final.ts';
import { useMay } from '../../api/permissions.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatFeeFraction, formatTokenAmount } from '../../i18n/format.ts';
import { OrderStatusBadge } from './labels.tsx';
import { FINAL_STATUSES, type Order } from './statuses.ts';
import { environmentQuery } from '../../api/environment.ts';
import { SandboxActions } from './sandbox-actions.tsx';
import { TimelineTable } from './timeline.tsx';
import { Facts } from '../../components/facts.tsx';
import { idLabel } from '../../components/entity-id.tsx';
import { OrderClaimNotice } from '../disputes/order-claim-notice.tsx';
import { keys } from '../../api/query-keys.ts';

const REFRESH_MS = 1500;

const inProgress = (order: Order | undefined) => order !== undefined && !FINAL_STATUSES.has(order.status);

export function OrderPage() {
  const { t, language } = useI18n();
  const { id = '' } = useParams({ strict: false });
  const order = useQuery({
    queryKey: keys.orders.detail(id),
    queryFn: () => call(api.GET('/orders/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && FINAL_STATUSES.has(query.state.data.status) ? false : REFRESH_MS),
  });
  const timeline = useQuery({
    queryKey: keys.orders.timeline(id),
    queryFn: () => call(api.GET('/orders/{id}/timeline', { params: { path: { id } } })),
    refetchInterval: (query) => {
      const pendingDelivery = query.state.data?.entries.some((entry) => entry.webhookDelivery?.status === 'PENDING') ?? false;
      return inProgress(order.data) || pendingDelivery || !order.data ? REFRESH_MS : false;
    },
  });
  useRefetchWhenFinal(order.data !== undefined && !inProgress(order.data), timeline.refetch);
  const environment = useQuery(environmentQuery);
  // developer.write, which the sandbox drivers need (the session's permissions); the API is the guard.
  const mayDrive = useMay('developer.write');
  const none = t('common.none');
  const data = order.data;
  const token = data ? (data.targetToken ?? data.sourceToken ?? '') : '';

  return (
    <Stack>
      <Anchor component={Link} to="/orders">← {t('common.back')}</Anchor>
      {order.error ? <ErrorAlert error={order.error} /> : null}
      {order.isPending ? <Loading /> : null}
      {data ? (
        <>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>{t('orders.detail.title', { id: idLabel(data.id, data.externalId) })}</Title>
          {data.type === 'PAYIN' ? <OrderClaimNotice orderId={data.id} /> : null}
          {inProgress(data) ? <Text size="sm" id="timeline-refresh">{t('orders.detail.refreshing')}</Text> : null}
          {data.type === 'PAYIN' && data.status === 'AWAITING_PAYMENT' && data.pixPaymentCode ? (
            <Card withBorder component="section" aria-labelledby="pix-heading">
              <Title order={2} size="h3" id="pix-heading" mb="sm">{t('orders.pix.title')}</Title>
              <Text size="sm" mb="xs">{t('orders.pix.text', { amount: formatBrl(data.amountBrl, language), expiresAt: formatDateTime(data.expiresAt) })}</Text>
              <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="pix-code">{data.pixPaymentCode}</Code>
              <CopyButton value={data.pixPaymentCode}>
                {({ copied, copy }) => (
                  <Button mt="xs" variant="default" onClick={copy}>
                    {copied ? t('orders.pix.copied') : t('orders.pix.copy')}
                  </Button>
                )}
              </CopyButton>
            </Card>
          ) : null}
          {environment.data?.sandbox && mayDrive ? <SandboxActions order={data} /> : null}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder component="section" aria-labelledby="summary-heading">
              <Title order={2} size="h3" id="summary-heading" mb="sm">{t('orders.detail.summary')}</Title>
              <Facts
                rows={[
                  [t('orders.field.id'), <Code>{data.id}</Code>],
                  [t('orders.field.type'), data.type],
                  [t('orders.field.status'), <OrderStatusBadge status={data.status} />],
                  [t('orders.field.receiver'), <Anchor renderRoot={(props) => <Link {...props} to="/receivers/$id" params={{ id: data.receiverId }} />}>{data.receiverName}</Anchor>],
                  [t('orders.field.externalId'), data.externalId ?? none],
                  [t('orders.field.createdAt'), formatDateTime(data.createdAt)],
                  [t('orders.field.expiresAt'), formatDateTime(data.expiresAt)],
                  [t('orders.field.completedAt'), data.completedAt ? formatDateTime(data.completedAt) : none],
                  [t('orders.field.failureReason'), data.failureReason ?? none],
                  [t('orders.field.chain'), data.chain],
                  ...(data.type === 'PAYIN'
                    ? ([[t('orders.field.destinationWallet'), data.destinationWallet ? <Code style={{ wordBreak: 'break-all' }}>{data.destinationWallet}</Code> : none]] as [string, ReactNode][])
                    : ([
                        [t('orders.field.depositAddress'), data.depositAddress ? <Code style={{ wordBreak: 'break-all' }}>{data.depositAddress}</Code> : none],
                        [t('orders.field.pixKey'), data.pixKey ?? none],
                      ] as [string, ReactNode][])),
                ]}
              />
            </Card>
            <Card withBorder component="section" aria-labelledby="amounts-heading">
              <Title order={2} size="h3" id="amounts-heading" mb="sm">{t('orders.detail.amounts')}</Title>
              <Facts
                rows={[
                  [t('orders.field.amountBrl'), formatBrl(data.amountBrl, language)],
                  [t('orders.field.amountToken'), formatTokenAmount(String(data.amountToken), token, language)],
                  [t('orders.field.exchangeRate'), formatBrl(data.exchangeRate, language)],
                  [t('orders.field.fee'), formatFeeFraction(data.feePercentage, language)],
                  [t('orders.field.platformFee'), `${formatBrl(data.platformFeeAmountBrl, language)} (${formatFeeFraction(data.platformFeePercentage, language)})`],
                  [t('orders.field.merchantFee'), `${formatBrl(data.merchantFeeAmountBrl, language)} (${formatFeeFraction(data.merchantFeePercentage, language)})`],
                  // The partner markup, apart from the fees (decision 0042); none shows as none.
                  [t('orders.field.markup'), data.markup ? <span data-testid="order-markup">{formatBrl(data.markup.amountBrl, language)}</span> : t('orders.field.noMarkup')],
                  [t('orders.field.netAmountBrl'), formatBrl(data.netAmountBrl, language)],
                ]}
              />
            </Card>
          </SimpleGrid>
          <Card withBorder component="section" aria-labelledby="timeline-heading">
            <Title order={2} size="h3" id="timeline-heading" mb="sm">{t('orders.timeline.title')}</Title>
            {timeline.error ? <ErrorAlert error={timeline.error} /> : null}
            {timeline.data ? <TimelineTable timeline={timeline.data} /> : <Loading />}
          </Card>
        </>
      ) : null}
    </Stack>
  );
}
