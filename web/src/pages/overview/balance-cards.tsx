/**
 * The overview's balance cards: what the merchant is owed and owes, and its orders in flight, from
 * GET /ledger/balances (the balances page's own query: one read serves both), each linking to
 * /app/balances.
 */
import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatTokenAmount } from '../../i18n/format.ts';
import { AppLink } from './app-link.tsx';
import { centsText, toCents } from './cents.ts';

function BalanceCard({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Card withBorder padding="sm">
      <Text size="sm">{label}</Text>
      <Text fw={700} data-testid={testId}>
        {children}
      </Text>
    </Card>
  );
}

export function BalanceCards() {
  const { t, tn, language } = useI18n();
  const balances = useQuery({ queryKey: keys.ledger.balances, queryFn: () => call(api.GET('/ledger/balances')) });
  const data = balances.data;
  const inFlight = data?.inFlight.reduce((sum, stage) => ({ count: sum.count + stage.count, cents: sum.cents + toCents(stage.amountBrl) }), { count: 0, cents: 0n });
  return (
    <Card withBorder component="section" aria-labelledby="balance-cards-heading">
      <Title order={2} size="h3" id="balance-cards-heading" mb="sm">
        {t('balances.cardsTitle')}
      </Title>
      {balances.error ? <ErrorAlert error={balances.error} /> : null}
      {balances.isPending ? <Loading /> : null}
      {data && inFlight ? (
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
            <BalanceCard label={t('balances.cardOwed')} testId="card-unsettled-fees">
              {formatBrl(data.unsettledFeesBrl, language)}
            </BalanceCard>
            <BalanceCard label={t('balances.cardOwes')} testId="card-chargebacks-owed">
              {formatBrl(data.chargebacksOwedBrl, language)}
            </BalanceCard>
            <BalanceCard label={t('balances.cardHeld')} testId="card-held-deposits">
              {data.excessDepositsHeld.length === 0 ? t('balances.none') : data.excessDepositsHeld.map((held) => formatTokenAmount(held.amount, held.token, language)).join(', ')}
            </BalanceCard>
            <BalanceCard label={t('balances.cardInFlight')} testId="card-in-flight">
              {tn('balances.cardInFlightValue', inFlight.count, { amount: formatBrl(centsText(inFlight.cents), language) })}
            </BalanceCard>
          </SimpleGrid>
          <AppLink path="/balances">{t('balances.cardsLink')}</AppLink>
        </Stack>
      ) : null}
    </Card>
  );
}
