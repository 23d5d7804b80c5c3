/**
 * GET /orders/{id}/timeline as a table, oldest first: status changes, MED claim events (with the
 * claim's own status, never shown as an order status), PIX and chain movements (with the
 * explorer's page when the service has one), ledger entries with their postings, and the webhook
 * deliveries about the order.
 */
import { Anchor, Badge, Code, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { components } from '../../api/schema.ts';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/context.tsx';
import type { Language } from '../../i18n/messages.ts';
import { formatBrl, formatDateTime, formatTokenAmount } from '../../i18n/format.ts';
import { OrderStatusBadge } from './labels.tsx';

type Timeline = components['schemas']['OrderTimeline'];
type Entry = Timeline['entries'][number];
type LedgerEntry = NonNullable<Entry['ledgerEntry']>;
type DisputeEntry = NonNullable<Entry['dispute']>;
type Posting = LedgerEntry['postings'][number];

/** A claim's status as a word on a colour (the colour is never the only cue). */
const DISPUTE_COLOUR: Record<DisputeEntry['status'], string> = { OPEN: 'orange', DEFENDED: 'blue', ACCEPTED: 'red', REJECTED: 'green', CANCELLED: 'gray' };
const DISPUTE_EVENTS = ['order.disputed', 'dispute.updated', 'dispute.resolved'] as const;
const isKnownEvent = (event: string): event is (typeof DISPUTE_EVENTS)[number] => (DISPUTE_EVENTS as readonly string[]).includes(event);

/** An amount in its currency: BRL as money, tokens as exact decimal text. */
function money(amount: string, currency: string, language: Language): string {
  return currency === 'BRL' ? formatBrl(amount, language) : formatTokenAmount(amount, currency, language);
}

/** `timeline` needs only its entries (the back office passes GET /admin/orders/{id}'s); `deliveriesLink` false leaves out the link to the merchant's webhooks page. */
export function TimelineTable({ timeline, deliveriesLink = true }: { timeline: Pick<Timeline, 'entries'>; deliveriesLink?: boolean }) {
  const { t } = useI18n();
  if (timeline.entries.length === 0) return <Text>{t('orders.timeline.empty')}</Text>;
  const columns: Column<Entry>[] = [
    { id: 'at', header: t('orders.timeline.at'), width: 150, cell: (entry) => formatDateTime(entry.at) },
    { id: 'kind', header: t('orders.timeline.kind'), width: 170, cell: (entry) => t(`orders.timeline.kind.${entry.kind}`) },
    { id: 'what', header: t('orders.timeline.what'), cell: (entry) => <EntryDetail entry={entry} deliveriesLink={deliveriesLink} /> },
  ];
  return (
    <DataTable
      caption={t('orders.timeline.caption')}
      columns={columns}
      rows={timeline.entries}
      rowKey={(entry, index) => `${entry.kind}-${index}`}
      rowProps={(entry) => ({ 'data-kind': entry.kind })}
      describedBy="timeline-refresh"
      minWidth={720}
    />
  );
}

function EntryDetail({ entry, deliveriesLink }: { entry: Entry; deliveriesLink: boolean }) {
  const { t, tn, language } = useI18n();
  if (entry.status) {
    const { status, source, event } = entry.status;
    return (
      <Text component="div" size="sm">
        <OrderStatusBadge status={status} /> {source === 'EVENT' ? t('orders.timeline.source.EVENT', { event: event ?? '' }) : t(`orders.timeline.source.${source}`)}
      </Text>
    );
  }
  if (entry.dispute) return <DisputeDetail dispute={entry.dispute} />;
  if (entry.transaction) {
    const tx = entry.transaction;
    return (
      <Stack gap={2}>
        <Text size="sm">
          <strong>{tx.type}</strong> · {money(String(tx.amount), tx.currency, language)} · <Badge variant="outline" color="gray" tt="none">{t(`orders.transaction.status.${tx.status}`)}</Badge>
        </Text>
        {tx.txHash ? <Code style={{ wordBreak: 'break-all' }}>{tx.txHash}</Code> : null}
        {tx.explorerUrl ? (
          <Anchor href={tx.explorerUrl} target="_blank" rel="noreferrer" size="sm">
            {t('orders.timeline.explorer')}
          </Anchor>
        ) : null}
      </Stack>
    );
  }
  if (entry.ledgerEntry) return <Postings entry={entry.ledgerEntry} />;
  if (entry.webhookDelivery) {
    const delivery = entry.webhookDelivery;
    return (
      <Stack gap={2}>
        <Text size="sm">
          {t('orders.timeline.delivery', { event: delivery.event, status: t(`deliveries.status.${delivery.status}`), attempts: tn('orders.timeline.attempts', delivery.attempts), code: delivery.lastStatusCode ?? t('common.none') })}
        </Text>
        {deliveriesLink ? (
          <Anchor component={Link} to="/developers/webhooks" size="sm">
            {t('orders.timeline.deliveriesLink')}
          </Anchor>
        ) : null}
      </Stack>
    );
  }
  return null;
}

function DisputeDetail({ dispute }: { dispute: DisputeEntry }) {
  const { t } = useI18n();
  // A dispute event this page does not know yet is shown by its name.
  const what = isKnownEvent(dispute.event) ? t(`orders.timeline.dispute.event.${dispute.event}`) : dispute.event;
  return (
    <Text component="div" size="sm">
      <Badge color={DISPUTE_COLOUR[dispute.status]} variant="light" c="dark.8" tt="none">{t(`orders.timeline.dispute.status.${dispute.status}`)}</Badge> {what}
      {dispute.outcome ? ` · ${t(`orders.timeline.dispute.outcome.${dispute.outcome}`)}` : null}
      {dispute.status === 'OPEN' ? ` · ${t('orders.timeline.dispute.deadline', { deadline: formatDateTime(dispute.defenseDeadline) })}` : null}
    </Text>
  );
}

function Postings({ entry }: { entry: LedgerEntry }) {
  const { t, language } = useI18n();
  const credit = (posting: Posting) => posting.amount.startsWith('-');
  const shown = (posting: Posting) => money(credit(posting) ? posting.amount.slice(1) : posting.amount, posting.currency, language);
  const columns: Column<Posting>[] = [
    { id: 'account', header: t('orders.timeline.account'), cell: (posting) => posting.account },
    { id: 'debit', header: t('orders.timeline.debit'), align: 'right', cell: (posting) => (credit(posting) ? '' : shown(posting)) },
    { id: 'credit', header: t('orders.timeline.credit'), align: 'right', cell: (posting) => (credit(posting) ? shown(posting) : '') },
  ];
  return (
    <DataTable
      caption={t('orders.timeline.postings', { description: entry.kind })}
      columns={columns}
      rows={entry.postings}
      rowKey={(posting, index) => `${posting.account}-${posting.currency}-${index}`}
      minWidth={0}
      nested
    />
  );
}
