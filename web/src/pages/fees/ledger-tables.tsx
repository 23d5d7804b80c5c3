/**
 * The merchant's settlements (GET /ledger/settlements) and ledger entries with their postings
 * (GET /ledger/entries: its own accounts' only, never the platform's, docs/decisions/0041), each
 * paged on its own (the page number is this page's state: two lists side by side would fight
 * over one ?page=).
 */
import { Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { keys } from '../../api/query-keys.ts';
import { DataTable, ListState, PagePager, type Column } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatTokenAmount } from '../../i18n/format.ts';
import { Section } from '../../components/section.tsx';

const PAGE_SIZE = 10;
type Settlement = components['schemas']['Settlement'];
type LedgerEntry = components['schemas']['LedgerEntry'];
type Posting = LedgerEntry['postings'][number];


export function SettlementsSection() {
  const { t, language } = useI18n();
  const [page, setPage] = useState(1);
  const settlements = useQuery({
    queryKey: keys.ledger.settlements({ page }),
    queryFn: () => call(api.GET('/ledger/settlements', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const columns: Column<Settlement>[] = [
    { id: 'createdAt', header: t('fees.createdAt'), cell: (settlement) => formatDateTime(settlement.createdAt) },
    { id: 'period', header: t('fees.period'), cell: (settlement) => `${formatDateTime(settlement.periodStart)} – ${formatDateTime(settlement.periodEnd)}` },
    { id: 'amount', header: t('fees.amount'), cell: (settlement) => formatBrl(settlement.amountBrl, language) },
    { id: 'entries', header: t('fees.entries'), cell: (settlement) => settlement.entriesCount },
  ];
  return (
    <Section id="settlements-heading" title={t('fees.settlements')}>
      <ListState query={settlements} isEmpty={(data) => data.settlements.length === 0} empty={t('fees.noSettlements')}>
        {(data) => (
          <>
            <Text size="sm">{t('fees.total', { total: data.pagination.total })}</Text>
            <DataTable caption={t('fees.settlementsCaption')} columns={columns} rows={data.settlements} rowKey={(settlement) => settlement.id} minWidth={560} testId="settlements" />
            <PagePager page={data.pagination.page} totalPages={data.pagination.totalPages} onChange={setPage} label={t('fees.settlements')} />
          </>
        )}
      </ListState>
    </Section>
  );
}



function PostingAmount({ posting }: { posting: Posting }) {
  const { language } = useI18n();
  return <>{posting.currency === 'BRL' ? formatBrl(posting.amount, language) : formatTokenAmount(posting.amount, posting.currency, language)}</>;
}

export function LedgerSection() {
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const entries = useQuery({
    queryKey: keys.ledger.entries({ page }),
    queryFn: () => call(api.GET('/ledger/entries', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const postingColumns: Column<Posting>[] = [
    { id: 'account', header: t('fees.account'), cell: (posting) => posting.account },
    { id: 'owner', header: t('fees.owner'), cell: (posting) => posting.owner },
    { id: 'amount', header: t('fees.amount'), cell: (posting) => <span style={{ whiteSpace: 'nowrap' }}><PostingAmount posting={posting} /></span> },
  ];
  const columns: Column<LedgerEntry>[] = [
    { id: 'createdAt', header: t('fees.createdAt'), cell: (entry) => formatDateTime(entry.createdAt) },
    { id: 'kind', header: t('fees.kind'), cell: (entry) => entry.kind },
    { id: 'reference', header: t('fees.reference'), cell: (entry) => <span style={{ wordBreak: 'break-all' }}>{entry.referenceType} {entry.referenceId}</span> },
    { id: 'settled', header: t('fees.settled'), cell: (entry) => (entry.settled ? t('common.yes') : t('common.no')) },
    {
      id: 'postings',
      header: t('fees.postings'),
      cell: (entry) => <DataTable caption={t('fees.postingsOf')} columns={postingColumns} rows={entry.postings} rowKey={(posting, index) => `${posting.account}-${index}`} minWidth={0} nested />,
    },
  ];
  return (
    <Section id="ledger-heading" title={t('fees.ledger')}>
      <ListState query={entries} isEmpty={(data) => data.entries.length === 0} empty={t('fees.noEntries')}>
        {(data) => (
          <>
            <Text size="sm">{t('fees.total', { total: data.pagination.total })}</Text>
            <DataTable caption={t('fees.ledgerCaption')} columns={columns} rows={data.entries} rowKey={(entry) => entry.id} minWidth={720} testId="ledger-entries" />
            <PagePager page={data.pagination.page} totalPages={data.pagination.totalPages} onChange={setPage} label={t('fees.ledger')} />
          </>
        )}
      </ListState>
    </Section>
  );
}
