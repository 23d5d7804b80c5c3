/**
 * One merchant (/app/ops/merchants/$id): its facts (GET /admin/merchants/{id}), disable or propose
 * enabling (merchant-status-actions.tsx), its people (GET …/users), fee tiers (GET …/fee-tiers)
 * and API keys (merchant-credentials.tsx: key ids, never a secret; issue one, revoke one).
 */
import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { api, call } from '../../api/client.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Facts } from '../../components/facts.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatFeeFraction } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/messages.ts';
import { MerchantCredentials } from './merchant-credentials.tsx';
import { MerchantStatusActions } from './merchant-status-actions.tsx';
import { MerchantStatusBadge } from './merchants-page.tsx';
import { opsKeys } from '../../api/query-keys.ts';

/** A titled table of rows, with its loading and error states. */
function Section<T>(props: { id: string; title: MessageKey; columns: MessageKey[]; query: { data?: T[]; error: unknown; isPending: boolean }; row: (item: T) => ReactNode[]; rowKey: (item: T) => string }) {
  const { t } = useI18n();
  const { data, error, isPending } = props.query;
  return (
    <Stack component="section" aria-labelledby={props.id}>
      <Title order={2} id={props.id}>{t(props.title)}</Title>
      {error ? <ErrorAlert error={error} /> : null}
      {isPending ? <Loading /> : null}
      {data && data.length === 0 ? <Text>{t('opsMerchants.none')}</Text> : null}
      {data && data.length > 0 ? (
        <Table.ScrollContainer minWidth={700}>
          <Table striped aria-labelledby={props.id}>
            <Table.Thead>
              <Table.Tr>
                {props.columns.map((column) => (
                  <Table.Th scope="col" key={column}>{t(column)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((item) => (
                <Table.Tr key={props.rowKey(item)}>
                  {props.row(item).map((cell, index) => (
                    <Table.Td key={props.columns[index]}>{cell}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
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
        columns={['opsMerchants.email', 'opsMerchants.role', 'opsMerchants.totp', 'opsMerchants.createdAt']}
        query={users}
        rowKey={(user) => user.id}
        row={(user) => [user.email, user.role, user.totpEnabled ? t('common.yes') : t('common.no'), formatDateTime(user.createdAt)]}
      />
      <Section
        id="merchant-tiers-heading"
        title="opsMerchants.feeTiers"
        columns={['opsMerchants.orderType', 'opsMerchants.volume', 'opsMerchants.platformFee', 'opsMerchants.merchantFee', 'opsMerchants.totalFee']}
        query={tiers}
        rowKey={(tier) => tier.id}
        row={(tier) => [
          tier.orderType,
          `${formatBrl(tier.minVolumeBrl, language)} – ${tier.maxVolumeBrl === null ? '∞' : formatBrl(tier.maxVolumeBrl, language)}`,
          formatFeeFraction(tier.platformFeePercentage, language),
          formatFeeFraction(tier.merchantFeePercentage, language),
          formatFeeFraction(tier.totalFeePercentage, language),
        ]}
      />
      <MerchantCredentials merchant={m} />
    </Stack>
  );
}
