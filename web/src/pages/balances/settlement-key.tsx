/**
 * Where the merchant's settlements are paid (GET /ledger/settlement-pix-key, docs/decisions/0044),
 * read-only: operators set it, one asking and another approving; null until one is approved.
 */
import { Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Facts } from '../../components/facts.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';

export function SettlementKey() {
  const { t } = useI18n();
  const query = useQuery({ queryKey: keys.ledger.settlementPixKey, queryFn: () => call(api.GET('/ledger/settlement-pix-key')) });
  if (query.error) return <ErrorAlert error={query.error} />;
  if (!query.data) return <Loading />;
  const key = query.data.settlementPixKey;
  return (
    <Stack gap="xs" data-testid="balances-settlement-key">
      <Text>{t('settlementKey.merchantIntro')}</Text>
      {key ? (
        <Facts
          rows={[
            [t('settlementKey.key'), <code key="k">{key.pixKey}</code>],
            [t('settlementKey.type'), key.pixKeyType],
            [t('settlementKey.holder'), key.holderDocument],
            [t('settlementKey.activatedAt'), key.activatedAt ? formatDateTime(key.activatedAt) : t('balances.none')],
          ]}
        />
      ) : (
        <Text>{t('settlementKey.none')}</Text>
      )}
    </Stack>
  );
}
