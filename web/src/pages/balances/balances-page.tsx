/**
 * Balances (/app/balances): what the merchant is owed (fees not yet settled, excess deposits held
 * for return) and owes (MED charge-backs), the settlements paid with their list, and the orders
 * in flight by stage: GET /ledger/balances and GET /ledger/settlements, the merchant's own ledger
 * accounts only (docs/decisions/0041); and the settlement PIX key, read-only (settlement-key.tsx).
 */
import { List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatTokenAmount } from '../../i18n/format.ts';
import { InFlightTable } from './in-flight-table.tsx';
import { SettlementKey } from './settlement-key.tsx';
import { SettlementsList } from './settlements-list.tsx';
import { Section } from '../../components/section.tsx';

type Balances = components['schemas']['MerchantBalances'];

const useBalances = () => useQuery({ queryKey: keys.ledger.balances, queryFn: () => call(api.GET('/ledger/balances')) });


function Figure({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Text>
      {label}: <strong data-testid={testId}>{children}</strong>
    </Text>
  );
}

function Owed({ data }: { data: Balances }) {
  const { t, tn, language } = useI18n();
  return (
    <Stack gap="xs">
      <Figure label={t('balances.unsettledFees')} testId="balances-unsettled-fees">
        {formatBrl(data.unsettledFeesBrl, language)}
      </Figure>
      <Figure label={t('balances.unsettledMarkup')} testId="balances-unsettled-markup">
        {formatBrl(data.unsettledMarkupBrl, language)}
      </Figure>
      <Text fw={600}>{t('balances.heldDeposits')}</Text>
      {data.excessDepositsHeld.length === 0 ? (
        <Text>{t('balances.heldDepositsNone')}</Text>
      ) : (
        <List>
          {data.excessDepositsHeld.map((held) => (
            <List.Item key={held.token} data-testid={`balances-held-${held.token}`}>
              {tn('balances.heldDepositOrders', held.orders, { amount: formatTokenAmount(held.amount, held.token, language) })}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

export function BalancesPage() {
  const { t, language } = useI18n();
  const balances = useBalances();
  const data = balances.data;
  return (
    <Stack>
      <Title order={1}>{t('balances.title')}</Title>
      <Text>{t('balances.intro')}</Text>
      {balances.error ? <ErrorAlert error={balances.error} /> : null}
      {balances.isPending ? <Loading /> : null}
      {data ? (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Section id="owed-heading" title={t('balances.owedToYou')}>
              <Owed data={data} />
            </Section>
            <Section id="owes-heading" title={t('balances.youOwe')}>
              <Figure label={t('balances.chargebacksOwed')} testId="balances-chargebacks-owed">
                {formatBrl(data.chargebacksOwedBrl, language)}
              </Figure>
              <Text size="sm">{t('balances.chargebacksOwedHint')}</Text>
            </Section>
          </SimpleGrid>
          <Section id="in-flight-heading" title={t('balances.inFlight')}>
            <InFlightTable stages={data.inFlight} />
          </Section>
          <Section id="settlements-heading" title={t('balances.settlements')}>
            <Stack gap="xs" mb="sm">
              <Figure label={t('balances.settlementsCount')} testId="balances-settlements-count">
                {data.settlements.count}
              </Figure>
              <Figure label={t('balances.settlementsTotal')} testId="balances-settlements-total">
                {formatBrl(data.settlements.totalBrl, language)}
              </Figure>
              <Figure label={t('balances.settlementsUnpaid')} testId="balances-settlements-unpaid">
                {formatBrl(data.settlements.unpaidBrl, language)}
              </Figure>
              <Figure label={t('balances.settlementsLast')} testId="balances-settlements-last">
                {data.settlements.lastAt ? formatDateTime(data.settlements.lastAt) : t('balances.none')}
              </Figure>
            </Stack>
            <SettlementsList />
          </Section>
          <Section id="settlement-key-heading" title={t('settlementKey.title')}>
            <SettlementKey />
          </Section>
        </>
      ) : null}
    </Stack>
  );
}
