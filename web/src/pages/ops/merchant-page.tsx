/**
 * One merchant (/app/ops/merchants/$id): its facts (GET /admin/merchants/{id}), disable or propose
 * enabling (merchant-status-actions.tsx), its people (GET …/users), fee tiers (GET …/fee-tiers)
 * the settlement PIX key and the form asking for a new one (merchant-settlement-key.tsx) and API
 * keys (merchant-credentials.tsx: key ids, never a secret; issue one, revoke one).
 */
import { Anchor, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { opsKeys } from '../../api/query-keys.ts';
import { DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Facts } from '../../components/facts.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatFeeFraction } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/messages.ts';
import { MerchantCredentials } from './merchant-credentials.tsx';
import { MerchantSettlementKey } from './merchant-settlement-key.tsx';
import { MerchantStatusActions } from './merchant-status-actions.tsx';
import { MerchantStatusBadge } from './merchants-page.tsx';

/** A titled list of rows, with its loading, error and empty states; its title names the table. */
function Section<T>(props: { id: string; title: MessageKey; columns: Column<T>[]; query: { data?: T[]; error: Error | null; isPending: boolean }; rowKey: (item: T) => string }) {
  const { t } = useI18n();
  return (
    <Stack component="section" aria-labelledby={props.id}>
      <Title order={2} id={props.id}>{t(props.title)}</Title>
      <ListState query={props.query} isEmpty={(data) => data.length === 0} empty={t('opsMerchants.none')}>
        {(data) => <DataTable caption={t(props.title)} columns={props.columns} rows={data} rowKey={props.rowKey} minWidth={700} />}
      </ListState>
    </Stack>
  );
}

export function MerchantPage() {
  const { t, language } = useI18n();
  const { id } = useParams({ strict: false }) as { id: string };
  const params = { params: { path: { id } } };
  const merchant = useQuery({ queryKey: opsKeys.merchant(id), queryFn: () => call(api.GET('/admin/merchants/{id}', params)) });
  const users = useQuery({ queryKey: opsKeys.merchant(id, 'users'), queryFn: () => call(api.GET('/admin/merchants/{id}/users', params)) });
  const tiers = useQuery({ queryKey: opsKeys.merchant(id, 'fee-tiers'), queryFn: () => call(api.GET('/admin/merchants/{id}/fee-tiers', params)) });

  if (merchant.error) return <ErrorAlert error={merchant.error} />;
  if (!merchant.data) return <Loading />;
  const m = merchant.data;

  return (
    <Stack>
      <Anchor component={Link} to="/ops/merchants" w="fit-content">
        {t('common.back')}
      </Anchor>
      <Title order={1}>{t('opsMerchants.merchantTitle', { name: m.name })}</Title>
      <Facts
        rows={[
          [t('opsMerchants.id'), m.id],
          [t('opsMerchants.status'), <MerchantStatusBadge key="s" status={m.status} />],
          [t('opsMerchants.createdAt'), formatDateTime(m.createdAt)],
        ]}
      />
      <MerchantStatusActions merchant={m} />
      <Section
        id="merchant-users-heading"
        title="opsMerchants.users"
        columns={[
          { id: 'email', header: t('opsMerchants.email'), cell: (user) => user.email },
          { id: 'role', header: t('opsMerchants.role'), cell: (user) => user.role },
          { id: 'totp', header: t('opsMerchants.totp'), cell: (user) => (user.totpEnabled ? t('common.yes') : t('common.no')) },
          { id: 'createdAt', header: t('opsMerchants.createdAt'), cell: (user) => formatDateTime(user.createdAt) },
        ]}
        query={users}
        rowKey={(user) => user.id}
      />
      <Section
        id="merchant-tiers-heading"
        title="opsMerchants.feeTiers"
        columns={[
          { id: 'orderType', header: t('opsMerchants.orderType'), cell: (tier) => tier.orderType },
          { id: 'volume', header: t('opsMerchants.volume'), cell: (tier) => `${formatBrl(tier.minVolumeBrl, language)} – ${tier.maxVolumeBrl === null ? '∞' : formatBrl(tier.maxVolumeBrl, language)}` },
          { id: 'platformFee', header: t('opsMerchants.platformFee'), cell: (tier) => formatFeeFraction(tier.platformFeePercentage, language) },
          { id: 'merchantFee', header: t('opsMerchants.merchantFee'), cell: (tier) => formatFeeFraction(tier.merchantFeePercentage, language) },
          { id: 'totalFee', header: t('opsMerchants.totalFee'), cell: (tier) => formatFeeFraction(tier.totalFeePercentage, language) },
        ]}
        query={tiers}
        rowKey={(tier) => tier.id}
      />
      <MerchantSettlementKey merchantId={m.id} />
      <MerchantCredentials merchant={m} />
    </Stack>
  );
}
