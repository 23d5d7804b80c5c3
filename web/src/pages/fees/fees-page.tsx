/**
 * Fees & settlements (/app/fees): the fee balance and the charge-backs owed (GET
 * /ledger/fees/balance), the fee tiers with
 * their editor (tiers-section.tsx), the partner markup (markup-section.tsx), the settlements and the ledger (ledger-tables.tsx).
 */
import { Card, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl } from '../../i18n/format.ts';
import { LedgerSection, SettlementsSection } from './ledger-tables.tsx';
import { MarkupSection } from './markup-section.tsx';
import { TiersSection } from './tiers-section.tsx';
import { keys } from '../../api/query-keys.ts';

export function FeesPage() {
  const { t, language } = useI18n();
  const balance = useQuery({ queryKey: keys.ledger.feeBalance, queryFn: () => call(api.GET('/ledger/fees/balance')) });
  return (
    <Stack>
      <Title order={1}>{t('fees.title')}</Title>
      <Card withBorder component="section" aria-labelledby="balance-heading">
        <Title order={2} size="h3" id="balance-heading" mb="sm">
          {t('fees.balance')}
        </Title>
        {balance.error ? <ErrorAlert error={balance.error} /> : null}
        {balance.isPending ? <Loading /> : null}
        {balance.data ? (
          <>
            <Text>
              {t('fees.balanceText')} <strong data-testid="fees-balance">{formatBrl(balance.data.balance, language)}</strong>
            </Text>
            <Text>
              {t('fees.chargebacksOwedText')} <strong data-testid="fees-chargebacks-owed">{formatBrl(balance.data.chargebacksOwed, language)}</strong>
            </Text>
            <Text>
              {t('fees.markupText')} <strong data-testid="fees-markup-balance">{formatBrl(balance.data.markupBalance, language)}</strong>
            </Text>
          </>
        ) : null}
      </Card>
      <TiersSection />
      <MarkupSection />
      <SettlementsSection />
      <LedgerSection />
    </Stack>
  );
}
