/**
 * The merchant's settlements (GET /ledger/settlements) and ledger entries with their postings
 * (GET /ledger/entries), each paged on its own (the page number is this page's state: two lists
 * side by side would fight over one ?page=).
 */
import { Card, Group, Pagination, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatTokenAmount } from '../../i18n/format.ts';
import { keys } from '../../api/query-keys.ts';

const PAGE_SIZE = 10;
type Pagination = components['schemas']['Pagination'];

function Pager({ pagination, onChange, label }: { pagination: Pagination; onChange: (page: number) => void; label: string }) {
  const { t } = useI18n();
  if (pagination.totalPages <= 1) return null;
  return (
    <Group justify="center" component="nav" aria-label={`${label}: ${t('common.pageOf', { page: pagination.page, pages: pagination.totalPages })}`} mt="sm">
      <Pagination
        total={pagination.totalPages}
        value={pagination.page}
        onChange={onChange}
        getControlProps={(control) => ({ 'aria-label': control === 'previous' ? t('common.previous') : control === 'next' ? t('common.next') : control })}
      />
    </Group>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

export function SettlementsSection() {
  const { t, language } = useI18n();
  const [page, setPage] = useState(1);
  const settlements = useQuery({
    queryKey: keys.ledger.settlements({ page }),
    queryFn: () => call(api.GET('/ledger/settlements', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const data = settlements.data;
  return (
    <Section id="settlements-heading" title={t('fees.settlements')}>
      {settlements.error ? <ErrorAlert error={settlements.error} /> : null}
      {settlements.isPending ? <Loading /> : null}
      {data && data.settlements.length === 0 ? <Text>{t('fees.noSettlements')}</Text> : null}
      {data && data.settlements.length > 0 ? (
        <>
          <Text size="sm">{t('fees.total', { total: data.pagination.total })}</Text>
          <Table.ScrollContainer minWidth={560}>
            <Table striped data-testid="settlements">
              <Table.Caption style={{ color: 'var(--mantine-color-text)' }}>{t('fees.settlementsCaption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('fees.createdAt')}</Table.Th>
                  <Table.Th scope="col">{t('fees.period')}</Table.Th>
                  <Table.Th scope="col">{t('fees.amount')}</Table.Th>
                  <Table.Th scope="col">{t('fees.entries')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.settlements.map((settlement) => (
                  <Table.Tr key={settlement.id}>
                    <Table.Td>{formatDateTime(settlement.createdAt)}</Table.Td>
                    <Table.Td>
                      {formatDateTime(settlement.periodStart)} – {formatDateTime(settlement.periodEnd)}
                    </Table.Td>
                    <Table.Td>{formatBrl(settlement.amountBrl, language)}</Table.Td>
                    <Table.Td>{settlement.entriesCount}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager pagination={data.pagination} onChange={setPage} label={t('fees.settlements')} />
        </>
      ) : null}
    </Section>
  );
}

type Posting = components['schemas']['LedgerEntry']['postings'][number];

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
  const data = entries.data;
  return (
    <Section id="ledger-heading" title={t('fees.ledger')}>
      {entries.error ? <ErrorAlert error={entries.error} /> : null}
      {entries.isPending ? <Loading /> : null}
      {data && data.entries.length === 0 ? <Text>{t('fees.noEntries')}</Text> : null}
      {data && data.entries.length > 0 ? (
        <>
          <Text size="sm">{t('fees.total', { total: data.pagination.total })}</Text>
          <Table.ScrollContainer minWidth={720}>
            <Table data-testid="ledger-entries">
              <Table.Caption style={{ color: 'var(--mantine-color-text)' }}>{t('fees.ledgerCaption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('fees.createdAt')}</Table.Th>
                  <Table.Th scope="col">{t('fees.kind')}</Table.Th>
                  <Table.Th scope="col">{t('fees.reference')}</Table.Th>
                  <Table.Th scope="col">{t('fees.settled')}</Table.Th>
                  <Table.Th scope="col">{t('fees.postings')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.entries.map((entry) => (
                  <Table.Tr key={entry.id} style={{ verticalAlign: 'top' }}>
                    <Table.Td>{formatDateTime(entry.createdAt)}</Table.Td>
                    <Table.Td>{entry.kind}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>
                      {entry.referenceType} {entry.referenceId}
                    </Table.Td>
                    <Table.Td>{entry.settled ? t('common.yes') : t('common.no')}</Table.Td>
                    <Table.Td>
                      <Table withRowBorders={false} fz="xs" aria-label={t('fees.postingsOf')}>
                        <Table.Thead>
                          <Table.Tr>
                            <Table.Th scope="col">{t('fees.account')}</Table.Th>
                            <Table.Th scope="col">{t('fees.owner')}</Table.Th>
                            <Table.Th scope="col">{t('fees.amount')}</Table.Th>
                          </Table.Tr>
                        </Table.Thead>
                        <Table.Tbody>
                          {entry.postings.map((posting, index) => (
                            <Table.Tr key={index}>
                              <Table.Td>{posting.account}</Table.Td>
                              <Table.Td>{posting.owner}</Table.Td>
                              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                                <PostingAmount posting={posting} />
                              </Table.Td>
                            </Table.Tr>
                          ))}
                        </Table.Tbody>
                      </Table>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager pagination={data.pagination} onChange={setPage} label={t('fees.ledger')} />
        </>
      ) : null}
    </Section>
  );
}
