/**
 * Treasury (/app/ops/treasury): the treasury's balances on chain against the ledger
 * (GET /admin/treasury), every wallet's together and, with several, each wallet's, the last reconciliation runs (GET /admin/treasury/reconciliations) and
 * the merchant fees a settlement run would pay now (GET /admin/settlements/due) and the settlements'
 * PIX payments (GET /admin/settlements, settlement-payouts.tsx). Amounts are the
 * API's decimal text, grouped digit by digit (i18n/format.ts), never parsed as floats.
 */
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { opsKeys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Facts } from '../../components/facts.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime, formatTokenAmount } from '../../i18n/format.ts';
import { SettlementPayouts } from './settlement-payouts.tsx';

type Currency = components['schemas']['TreasuryCurrency'];
type Treasury = components['schemas']['Treasury'];
/** One currency of one hot wallet (decision 0057), a row of the wallets' table. */
type WalletCurrency = components['schemas']['TreasuryWalletCurrency'] & { wallet: number; address: string | null };
type Due = components['schemas']['SettlementDue'];

function Balances() {
  const { t, language } = useI18n();
  const treasury = useQuery({ queryKey: opsKeys.treasury, queryFn: () => call(api.GET('/admin/treasury')) });
  if (treasury.error) return <ErrorAlert error={treasury.error} />;
  if (!treasury.data) return <Loading />;
  const data = treasury.data;
  const none = t('common.none');
  const amount = (value: string | null, currency: string) => (value === null ? none : formatTokenAmount(value, currency, language));
  const currencyColumns: Column<Currency>[] = [
    { id: 'currency', header: t('opsTreasury.currency'), rowHeader: true, cell: (c) => c.currency },
    { id: 'onChain', header: t('opsTreasury.onChain'), cell: (c) => amount(c.onChain, c.currency) },
    { id: 'ledger', header: t('opsTreasury.ledger'), cell: (c) => amount(c.ledger, c.currency) },
    { id: 'drift', header: t('opsTreasury.drift'), cell: (c) => amount(c.drift, c.currency) },
    { id: 'threshold', header: t('opsTreasury.threshold'), cell: (c) => (c.lowBalanceThreshold === null ? none : `${amount(c.lowBalanceThreshold, c.currency)}${c.belowThreshold ? ` (${t('opsTreasury.below')})` : ''}`) },
    { id: 'openPayins', header: t('opsTreasury.openPayins'), cell: (c) => `${c.openPayins} · ${amount(c.openPayinObligations, c.currency)}` },
    { id: 'inFlight', header: t('opsTreasury.inFlight'), cell: (c) => `${c.inFlightTransfers} · ${amount(c.inFlightAmount, c.currency)}` },
  ];
  const walletColumns: Column<WalletCurrency>[] = [
    { id: 'wallet', header: t('opsTreasury.wallet'), rowHeader: true, cell: (c) => `${c.wallet} · ${c.address ?? none}` },
    { id: 'currency', header: t('opsTreasury.currency'), cell: (c) => c.currency },
    { id: 'onChain', header: t('opsTreasury.onChain'), cell: (c) => amount(c.onChain, c.currency) },
    { id: 'ledger', header: t('opsTreasury.ledger'), cell: (c) => amount(c.ledger, c.currency) },
    { id: 'drift', header: t('opsTreasury.drift'), cell: (c) => `${amount(c.drift, c.currency)}${c.belowThreshold ? ` (${t('opsTreasury.below')})` : ''}` },
    { id: 'inFlight', header: t('opsTreasury.inFlight'), cell: (c) => `${c.inFlightTransfers} · ${amount(c.inFlightAmount, c.currency)}` },
  ];
  const walletRows = data.wallets.flatMap((w) => w.currencies.map((c) => ({ ...c, wallet: w.wallet, address: w.address })));
  const lookupTables = (held: Treasury['lookupTables']) => {
    const value = t('opsTreasury.lookupTables.value', { tables: String(held.tables), addresses: String(held.addresses), rent: formatTokenAmount(held.rentHeld, 'SOL', language) });
    return held.extensionInFlight ? `${value} (${t('opsTreasury.lookupTables.inFlight')})` : value;
  };
  return (
    <Stack component="section" aria-labelledby="treasury-heading">
      <Title order={2} id="treasury-heading">{t('opsTreasury.balances')}</Title>
      <Facts
        rows={[
          [t('opsTreasury.chain'), data.chain],
          [t('opsTreasury.address'), data.address ?? none],
          [t('opsTreasury.source'), t(`opsTreasury.source.${data.onChainSource}`)],
          [t('opsTreasury.asOf'), data.onChainAsOf ? formatDateTime(data.onChainAsOf) : none],
          [t('opsTreasury.lookupTables'), lookupTables(data.lookupTables)],
        ]}
      />
      {data.onChain ? null : <Text>{t('opsTreasury.sandbox')}</Text>}
      <DataTable caption={t('opsTreasury.currencies')} columns={currencyColumns} rows={data.currencies} rowKey={(c) => c.currency} minWidth={860} />
      {data.wallets.length > 1 ? <DataTable caption={t('opsTreasury.wallets')} columns={walletColumns} rows={walletRows} rowKey={(c) => `${c.wallet}-${c.currency}`} minWidth={860} /> : null}
    </Stack>
  );
}

/** A section listing what one read answers: its heading, then the list's states and table (named by the heading). */
function ListSection<Row>(props: { id: string; title: string; empty: string; query: { data?: Row[]; error: Error | null; isPending: boolean }; columns: Column<Row>[]; rowKey: (row: Row) => string }) {
  return (
    <Stack component="section" aria-labelledby={props.id}>
      <Title order={2} id={props.id}>{props.title}</Title>
      <ListState query={props.query} isEmpty={(rows) => rows.length === 0} empty={props.empty}>
        {(rows) => <DataTable caption={props.title} columns={props.columns} rows={rows} rowKey={props.rowKey} minWidth={560} />}
      </ListState>
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
      rowKey={(run) => run.id}
      columns={[
        { id: 'finishedAt', header: t('opsTreasury.finishedAt'), cell: (run) => formatDateTime(run.finishedAt) },
        { id: 'inFlight', header: t('opsTreasury.inFlight'), cell: (run) => run.inFlightTransfers },
        { id: 'driftFound', header: t('opsTreasury.driftFound'), cell: (run) => (run.driftFound ? t('common.yes') : t('common.no')) },
        {
          id: 'drift',
          header: t('opsTreasury.drift'),
          // Each wallet is reconciled on its own (decision 0057): its number before its drifts when there are several.
          cell: (run) => run.currencies.map((c) => `${run.currencies.some((o) => o.wallet !== 1) ? `${c.wallet}: ` : ''}${formatTokenAmount(c.drift, c.currency, language)}`).join('; '),
        },
      ]}
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
      rowKey={(run) => run.id}
      columns={[
        { id: 'finishedAt', header: t('opsTreasury.finishedAt'), cell: (run) => formatDateTime(run.finishedAt) },
        { id: 'charges', header: t('opsTreasury.pspCharges'), cell: (run) => run.chargesApplied },
        { id: 'refunds', header: t('opsTreasury.pspRefunds'), cell: (run) => run.refundsApplied },
        { id: 'payouts', header: t('opsTreasury.pspPayouts'), cell: (run) => run.payoutsApplied },
        { id: 'error', header: t('opsTreasury.pspError'), cell: (run) => run.error ?? t('common.none') },
      ]}
    />
  );
}

function SettlementsDue() {
  const { t, tn, language } = useI18n();
  const due = useQuery({ queryKey: opsKeys.settlementsDue, queryFn: () => call(api.GET('/admin/settlements/due', { params: { query: { limit: 50 } } })) });
  const dueColumns: Column<Due>[] = [
    { id: 'merchant', header: t('opsTreasury.merchant'), cell: (row) => <Anchor renderRoot={(props) => <Link {...props} to="/ops/merchants/$id" params={{ id: row.merchantId }} />}>{row.merchantName}</Anchor> },
    { id: 'amount', header: t('opsTreasury.amount'), cell: (row) => formatBrl(row.amountBrl, language) },
    // The partner markup inside the amount (decision 0042), apart from the merchant's fees.
    { id: 'markup', header: t('opsTreasury.markup'), cell: (row) => formatBrl(row.markupBrl, language) },
    { id: 'chargebacksNetted', header: t('opsTreasury.chargebacksNetted'), cell: (row) => formatBrl(row.chargebacksOwedBrl, language) },
    { id: 'entries', header: t('opsTreasury.entries'), cell: (row) => row.entries },
    { id: 'oldest', header: t('opsTreasury.oldest'), cell: (row) => formatDateTime(row.oldestEntryAt) },
  ];
  return (
    <Stack component="section" aria-labelledby="settlements-heading">
      <Title order={2} id="settlements-heading">{t('opsTreasury.settlementsDue')}</Title>
      <ListState query={due} isEmpty={() => false} empty={null}>
        {(data) => (
          <>
            <Text>{t('opsTreasury.dueSummary', { merchants: tn('opsTreasury.merchants', data.merchants), total: formatBrl(data.totalBrl, language), asOf: formatDateTime(data.asOf) })}</Text>
            {data.data.length > 0 ? <DataTable caption={t('opsTreasury.settlementsDue')} columns={dueColumns} rows={data.data} rowKey={(row) => row.merchantId} minWidth={640} /> : null}
          </>
        )}
      </ListState>
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
      <SettlementPayouts />
    </Stack>
  );
}
