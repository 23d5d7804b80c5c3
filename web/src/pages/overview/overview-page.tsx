/**
 * The dashboard's first page (/app): GET /overview for the chosen period (7, 30 or 90 days, kept
 * in the address as ?days=): volumes by day and type, orders by status (each a link to the
 * orders of that status), the fee balance and unsettled fees, and what needs attention (failed
 * orders, failing or disabled webhook endpoints); below, the balance cards (balance-cards.tsx,
 * their own query, so the period does not reload them).
 */
import { Group, List, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/messages.ts';
import { AppLink } from './app-link.tsx';
import { DisputesAttention } from './disputes-attention.tsx';
import { BalanceCards } from './balance-cards.tsx';
import { formatDay, VolumeChart } from './volume-chart.tsx';
import { keys } from '../../api/query-keys.ts';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Section } from '../../components/section.tsx';

type Overview = components['schemas']['Overview'];

const PERIODS = [7, 30, 90] as const;
type Period = (typeof PERIODS)[number];

/** ?days= is 7 or 90 (routes.tsx validates it); without it, the API's default 30. */
const searchOf = (value: string): { days?: 7 | 90 } => (value === '7' ? { days: 7 } : value === '90' ? { days: 90 } : {});

const statusLabel = (status: string): MessageKey | undefined => {
  const key = `overview.status.${status}`;
  return key in STATUS_KEYS ? (key as MessageKey) : undefined;
};
const STATUS_KEYS = Object.fromEntries(
  ['PENDING', 'AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING', 'AWAITING_DEPOSIT', 'DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENT_UNCONFIRMED', 'COMPLETED', 'FAILED', 'EXPIRED', 'REFUNDING', 'REFUNDED'].map(
    (status) => [`overview.status.${status}`, true],
  ),
);


function StatusCounts({ rows }: { rows: Overview['ordersByStatus'] }) {
  const { t } = useI18n();
  if (rows.length === 0) return <Text>{t('overview.noOrders')}</Text>;
  const columns: Column<Overview['ordersByStatus'][number]>[] = [
    {
      id: 'status',
      header: t('overview.status'),
      rowHeader: true,
      cell: (row) => {
        const label = statusLabel(row.status);
        return <AppLink path={`/orders?status=${encodeURIComponent(row.status)}`}>{label ? t(label) : row.status}</AppLink>;
      },
    },
    { id: 'count', header: t('overview.count'), cell: (row) => row.count },
  ];
  return <DataTable caption={t('overview.byStatusCaption')} columns={columns} rows={rows} rowKey={(row) => row.status} rowProps={(row) => ({ 'data-status': row.status })} minWidth={0} testId="status-counts" />;
}

function Attention({ attention }: { attention: Overview['attention'] }) {
  const { t } = useI18n();
  const { failedOrders, webhookEndpoints } = attention;
  if (failedOrders.count === 0 && webhookEndpoints.length === 0) return <Text>{t('overview.nothing')}</Text>;
  return (
    <Stack>
      {failedOrders.count > 0 ? (
        <Stack gap="xs" data-testid="failed-orders">
          <Text fw={600}>{t('overview.failedOrders', { count: failedOrders.count })}</Text>
          <List>
            {failedOrders.latestIds.map((id) => (
              <List.Item key={id}>
                <AppLink path={`/orders/${id}`}>{t('overview.failedOrder', { id })}</AppLink>
              </List.Item>
            ))}
          </List>
          <AppLink path="/orders?status=FAILED">{t('overview.allFailed')}</AppLink>
        </Stack>
      ) : null}
      {webhookEndpoints.length > 0 ? (
        <Stack gap="xs" data-testid="failing-endpoints">
          <Text fw={600}>{t('overview.endpoints', { count: webhookEndpoints.length })}</Text>
          <List>
            {webhookEndpoints.map((endpoint) => (
              <List.Item key={endpoint.id}>
                <Text span style={{ wordBreak: 'break-all' }}>{endpoint.url}</Text>:{' '}
                {endpoint.enabled
                  ? t('overview.endpointFailing', { since: endpoint.failingSince ? formatDateTime(endpoint.failingSince) : '' })
                  : endpoint.disabledReason
                    ? t('overview.endpointDisabledReason', { reason: endpoint.disabledReason })
                    : t('overview.endpointDisabled')}
              </List.Item>
            ))}
          </List>
          <AppLink path="/developers/webhooks">{t('overview.webhooksLink')}</AppLink>
        </Stack>
      ) : null}
    </Stack>
  );
}

export function OverviewPage() {
  const { t, tn, language } = useI18n();
  const navigate = useNavigate();
  const search = useSearch({ strict: false });
  const days: Period = 'days' in search && typeof search.days === 'number' ? (search.days as Period) : 30;
  const overview = useQuery({
    queryKey: keys.overview({ days }),
    queryFn: () => call(api.GET('/overview', { params: { query: { days } } })),
    placeholderData: keepPreviousData,
  });
  const data = overview.data;

  return (
    <Stack>
      <Group justify="space-between" align="end">
        <Title order={1}>{t('overview.title')}</Title>
        <Radio.Group
          label={t('overview.period')}
          value={String(days)}
          onChange={(value) => navigate({ to: '/', search: searchOf(value) })}
        >
          <Group mt={4}>
            {PERIODS.map((period) => (
              <Radio key={period} value={String(period)} label={tn('overview.days', period)} />
            ))}
          </Group>
        </Radio.Group>
      </Group>
      <DisputesAttention />
      {overview.error ? <ErrorAlert error={overview.error} /> : null}
      {overview.isPending ? <Loading /> : null}
      {data ? (
        <>
          <Section id="volumes-heading" title={t('overview.volumes')}>
            <Text size="sm" mb="xs">
              {t('overview.volumesRange', { from: formatDay(data.from), to: formatDay(data.to) })}
            </Text>
            <VolumeChart volumes={data.volumes} from={data.from} to={data.to} />
          </Section>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <Section id="status-heading" title={t('overview.byStatus')}>
              <StatusCounts rows={data.ordersByStatus} />
            </Section>
            <Section id="fees-heading" title={t('overview.fees')}>
              <Stack gap="xs">
                <Text>
                  {t('overview.feeBalance')}: <strong data-testid="fee-balance">{formatBrl(data.fees.balance, language)}</strong>
                </Text>
                <Text>
                  {t('overview.chargebacksOwed')}: <strong data-testid="chargebacks-owed">{formatBrl(data.fees.chargebacksOwed, language)}</strong>
                </Text>
                <Text>
                  {t('overview.unsettled')}:{' '}
                  <strong data-testid="unsettled-fees">
                    {tn('overview.unsettledValue', data.fees.unsettledEntries, { amount: formatBrl(data.fees.unsettledAmountBrl, language) })}
                  </strong>
                </Text>
                <AppLink path="/fees">{t('overview.feesLink')}</AppLink>
              </Stack>
            </Section>
            <Section id="attention-heading" title={t('overview.attention')}>
              <Attention attention={data.attention} />
            </Section>
          </SimpleGrid>
        </>
      ) : null}
      <BalanceCards />
    </Stack>
  );
}
