/**
 * Treasury (/app/ops/treasury): the treasury's balances on chain against the ledger
 * (GET /admin/treasury), the last reconciliation runs (GET /admin/treasury/reconciliations) and
 * the merchant fees a settlement run would pay now (GET /admin/settlements/due). Amounts are the
 * API's decimal text, grouped digit by digit (i18n/format.ts), never parsed as floats.
 */
import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Facts } from '../../components/facts.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatTokenAmount } from '../../i18n/format.ts';
import { opsKeys } from '../../api/query-keys.ts';

function Balances() {
  const { t, language } = useI18n();
  const treasury = useQuery({ queryKey: opsKeys.treasury, queryFn: () => call(api.GET('/admin/treasury')) });
  if (treasury.error) return <ErrorAlert error={treasury.error} />;
  if (!treasury.data) return <Loading />;
  const data = treasury.data;
  const none = t('common.none');
  const amount = (value: string | null, currency: string) => (value === null ? none : formatTokenAmount(value, currency, language));
  return (
    <Stack component="section" aria-labelledby="treasury-heading">
      <Title order={2} id="treasury-heading">{t('opsTreasury.balances')}</Title>
      <Facts
        rows={[
          [t('opsTreasury.chain'), data.chain],
          [t('opsTreasury.address'), data.address ?? none],
          [t('opsTreasury.source'), t(`opsTreasury.source.${data.onChainSource}`)],
          [t('opsTreasury.asOf'), data.onChainAsOf ? formatDateTime(data.onChainAsOf) : none],
        ]}
      />
      {data.onChain ? null : <Text>{t('opsTreasury.sandbox')}</Text>}
      <Table.ScrollContainer minWidth={860}>
        <Table striped>
          <caption>{t('opsTreasury.currencies')}</caption>
          <Table.Thead>
            <Table.Tr>
              {(['currency', 'onChain', 'ledger', 'drift', 'threshold', 'openPayins', 'inFlight'] as const).map((column) => (
                <Table.Th scope="col" key={column}>{t(`opsTreasury.${column}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.currencies.map((c) => (
              <Table.Tr key={c.currency}>
                <Table.Th scope="row">{c.currency}</Table.Th>
                <Table.Td>{amount(c.onChain, c.currency)}</Table.Td>
                <Table.Td>{amount(c.ledger, c.currency)}</Table.Td>
                <Table.Td>{amount(c.drift, c.currency)}</Table.Td>
                <Table.Td>{c.lowBalanceThreshold === null ? none : `${amount(c.lowBalanceThreshold, c.currency)}${c.belowThreshold ? ` (${t('opsTreasury.below')})` : ''}`}</Table.Td>
                <Table.Td>{`${c.openPayins} · ${amount(c.openPayinObligations, c.currency)}`}</Table.Td>
                <Table.Td>{`${c.inFlightTransfers} · ${amount(c.inFlightAmount, c.currency)}`}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** A section listing what one read answers: its heading, error, loading, an empty line, or a table of `columns`. */
function ListSection<Row>(props: { id: string; title: string; empty: string; query: UseQueryResult<Row[]>; columns: string[]; row: (row: Row) => ReactNode; intro?: ReactNode }) {
  const rows = props.query.data;
  return (
    <Stack component="section" aria-labelledby={props.id}>
      <Title order={2} id={props.id}>{props.title}</Title>
      {props.query.error ? <ErrorAlert error={props.query.error} /> : null}
      {props.query.isPending ? <Loading /> : null}
      {props.intro}
      {rows && rows.length === 0 ? <Text>{props.empty}</Text> : null}
      {rows && rows.length > 0 ? (
        <Table striped aria-labelledby={props.id}>
          <Table.Thead>
            <Table.Tr>
              {props.columns.map((column) => (
                <Table.Th scope="col" key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{rows.map(props.row)}</Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}

function Reconciliations() {
  const { t, language } = useI18n();
  const runs = useQuery({ queryKey: opsKeys.reconciliations, queryFn: async () => (await call(api.GET('/admin/treasury/reconciliations', { params: { query: { limit: 20 } } }))).data });
  return (
    <ListSection
      id="reconciliations-heading"
      title={t('opsTreasury.reconciliations')}
      empty={t('opsTreasury.noRuns')}
      query={runs}
      columns={[t('opsTreasury.finishedAt'), t('opsTreasury.inFlight'), t('opsTreasury.driftFound'), t('opsTreasury.drift')]}
      row={(run) => (
        <Table.Tr key={run.id}>
          <Table.Td>{formatDateTime(run.finishedAt)}</Table.Td>
          <Table.Td>{run.inFlightTransfers}</Table.Td>
          <Table.Td>{run.driftFound ? t('common.yes') : t('common.no')}</Table.Td>
          <Table.Td>{run.currencies.map((c) => formatTokenAmount(c.drift, c.currency, language)).join('; ')}</Table.Td>
        </Table.Tr>
      )}
    />
  );
}

/** The PIX reconciliation's passes: outcomes the PSP had and no notification told (the drift each pass applied), or the error that stopped one. */
function PspReconciliations() {
  const { t } = useI18n();
  const runs = useQuery({ queryKey: opsKeys.pspRuns, queryFn: async () => (await call(api.GET('/admin/reconciliation/psp-runs', { params: { query: { limit: 20 } } }))).data });
  return (
    <ListSection
      id="psp-runs-heading"
      title={t('opsTreasury.pspRuns')}
      empty={t('opsTreasury.noPspRuns')}
      query={runs}
      columns={[t('opsTreasury.finishedAt'), t('opsTreasury.pspCharges'), t('opsTreasury.pspRefunds'), t('opsTreasury.pspPayouts'), t('opsTreasury.pspError')]}
      row={(run) => (
        <Table.Tr key={run.id}>
          <Table.Td>{formatDateTime(run.finishedAt)}</Table.Td>
          <Table.Td>{run.chargesApplied}</Table.Td>
          <Table.Td>{run.refundsApplied}</Table.Td>
          <Table.Td>{run.payoutsApplied}</Table.Td>
          <Table.Td>{run.error ?? t('common.none')}</Table.Td>
        </Table.Tr>
      )}
    />
  );
}

function SettlementsDue() {
  const { t, tn, language } = useI18n();
  const due = useQuery({ queryKey: opsKeys.settlementsDue, queryFn: () => call(api.GET('/admin/settlements/due', { params: { query: { limit: 50 } } })) });
  return (
    <Stack component="section" aria-labelledby="settlements-heading">
      <Title order={2} id="settlements-heading">{t('opsTreasury.settlementsDue')}</Title>
      {due.error ? <ErrorAlert error={due.error} /> : null}
      {due.isPending ? <Loading /> : null}
      {due.data ? <Text>{t('opsTreasury.dueSummary', { merchants: tn('opsTreasury.merchants', due.data.merchants), total: formatBrl(due.data.totalBrl, language), asOf: formatDateTime(due.data.asOf) })}</Text> : null}
      {due.data && due.data.data.length > 0 ? (
        <Table striped aria-labelledby="settlements-heading">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('opsTreasury.merchant')}</Table.Th>
              <Table.Th scope="col">{t('opsTreasury.amount')}</Table.Th>
              <Table.Th scope="col">{t('opsTreasury.chargebacksNetted')}</Table.Th>
              <Table.Th scope="col">{t('opsTreasury.entries')}</Table.Th>
              <Table.Th scope="col">{t('opsTreasury.oldest')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {due.data.data.map((row) => (
              <Table.Tr key={row.merchantId}>
                <Table.Td>
                  <Anchor renderRoot={(props) => <Link {...props} to="/ops/merchants/$id" params={{ id: row.merchantId }} />}>{row.merchantName}</Anchor>
                </Table.Td>
                <Table.Td>{formatBrl(row.amountBrl, language)}</Table.Td>
                <Table.Td>{formatBrl(row.chargebacksOwedBrl, language)}</Table.Td>
                <Table.Td>{row.entries}</Table.Td>
                <Table.Td>{formatDateTime(row.oldestEntryAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}

export function TreasuryPage() {
  const { t } = useI18n();
  return (
    <Stack>
      <Title order={1}>{t('opsTreasury.title')}</Title>
      <Balances />
      <Reconciliations />
      <PspReconciliations />
      <SettlementsDue />
    </Stack>
  );
}
