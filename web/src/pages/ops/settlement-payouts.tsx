/**
 * The settlements' PIX payments (GET /admin/settlements, docs/decisions/0044), on the treasury
 * page: the latest settlements with their payment status, the PIX reference once paid or why the
 * last PIX was refused, and what settlements owe merchants and have not paid yet.
 */
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { opsKeys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { SettlementPayoutBadge } from '../../components/settlement-payout-badge.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../i18n/format.ts';

type Row = components['schemas']['AdminSettlement'];

export function SettlementPayouts() {
  const { t, tn, language } = useI18n();
  const settlements = useQuery({ queryKey: opsKeys.settlements, queryFn: () => call(api.GET('/admin/settlements', { params: { query: { page: 1, limit: 20 } } })) });
  const columns: Column<Row>[] = [
    { id: 'merchant', header: t('opsTreasury.merchant'), cell: (row) => <Anchor renderRoot={(props) => <Link {...props} to="/ops/merchants/$id" params={{ id: row.merchantId }} />}>{row.merchantName}</Anchor> },
    { id: 'createdAt', header: t('opsTreasury.settledAt'), cell: (row) => formatDateTime(row.createdAt) },
    { id: 'amount', header: t('opsTreasury.amount'), cell: (row) => formatBrl(row.amountBrl, language) },
    { id: 'status', header: t('opsTreasury.payoutStatus'), cell: (row) => <SettlementPayoutBadge status={row.payoutStatus} /> },
    {
      id: 'reference',
      header: t('opsTreasury.pixReference'),
      cell: (row) => (
        <span data-testid="ops-settlement-reference">
          {row.pixEndToEndId ? <code>{row.pixEndToEndId}</code> : (row.payoutFailureReason ?? t('common.none'))}
          {row.paidAt ? ` · ${formatDateTime(row.paidAt)}` : ''}
        </span>
      ),
    },
  ];
  return (
    <Stack component="section" aria-labelledby="settlement-payouts-heading">
      <Title order={2} id="settlement-payouts-heading">{t('opsTreasury.settlementPayouts')}</Title>
      <ListState query={settlements} isEmpty={() => false} empty={null}>
        {(data) => (
          <>
            <Text data-testid="ops-settlements-unpaid">{tn('opsTreasury.unpaidSummary', data.unpaid.count, { total: formatBrl(data.unpaid.amountBrl, language) })}</Text>
            {data.data.length > 0 ? <DataTable caption={t('opsTreasury.settlementPayouts')} columns={columns} rows={data.data} rowKey={(row) => row.id} minWidth={760} /> : null}
          </>
        )}
      </ListState>
    </Stack>
  );
}
