/**
 * The settlements (GET /ledger/settlements), newest first, paged by number, each with its PIX
 * payment: status, the PIX reference (endToEndId) and when it was paid. The page number is this
 * list's own state (the balances page has no other list to share ?page= with).
 */
import { Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { DataTable, ListState, PagePager, type Column } from '../../components/data-table.tsx';
import { SettlementPayoutBadge } from '../../components/settlement-payout-badge.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../i18n/format.ts';

const PAGE_SIZE = 10;
type Settlement = components['schemas']['Settlement'];

export function SettlementsList() {
  const { t, language } = useI18n();
  const [page, setPage] = useState(1);
  const settlements = useQuery({
    queryKey: keys.ledger.settlements({ page, limit: PAGE_SIZE }),
    queryFn: () => call(api.GET('/ledger/settlements', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const columns: Column<Settlement>[] = [
    { id: 'createdAt', header: t('balances.createdAt'), cell: (s) => formatDateTime(s.createdAt) },
    { id: 'period', header: t('balances.period'), cell: (s) => `${formatDateTime(s.periodStart)} – ${formatDateTime(s.periodEnd)}` },
    { id: 'amount', header: t('balances.amount'), align: 'right', cell: (s) => <span data-testid="settlement-amount">{formatBrl(s.amountBrl, language)}</span> },
    { id: 'entries', header: t('balances.entries'), align: 'right', cell: (s) => s.entriesCount },
    { id: 'payout', header: t('balances.payoutStatus'), cell: (s) => <SettlementPayoutBadge status={s.payoutStatus} /> },
    {
      id: 'reference',
      header: t('balances.pixReference'),
      cell: (s) => (
        <span data-testid="settlement-pix-reference">
          {s.pixEndToEndId ? (
            <>
              <code>{s.pixEndToEndId}</code>
              {s.paidAt ? ` · ${formatDateTime(s.paidAt)}` : ''}
            </>
          ) : (
            '—'
          )}
        </span>
      ),
    },
  ];
  return (
    <ListState query={settlements} isEmpty={(data) => data.settlements.length === 0} empty={t('balances.settlementsNone')}>
      {(data) => (
        <div data-testid="balances-settlements">
          <DataTable caption={t('balances.settlementsCaption')} columns={columns} rows={data.settlements} rowKey={(s) => s.id} minWidth={880} />
          <PagePager page={data.pagination.page} totalPages={data.pagination.totalPages} onChange={setPage} label={t('balances.settlements')} />
          <Text size="sm" mt="xs">
            {t('balances.settlementsPaidBy')}
          </Text>
        </div>
      )}
    </ListState>
  );
}
