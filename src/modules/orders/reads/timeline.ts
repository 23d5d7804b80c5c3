/**
 * GET /orders/{id}/timeline: what happened to one order, oldest first, for the dashboard.
 *
 * Status history is not stored as such: an order row holds its current status only. The changes
 * come from the order's events (the outbox keeps every order event whether or not the merchant
 * has a webhook endpoint; events.ts lists which status each reports), plus the status the order
 * was created in, plus its current status when no event reports it (SWAPPING, TRANSFERRING,
 * PIX_SENT_UNCONFIRMED and EXPIRED have no event). Events are purged after EVENT_RETENTION_DAYS
 * (30 by default) once none of their deliveries is left (docs/architecture/webhooks.md), so an
 * older order's story keeps only its creation, its current status, its movements, its ledger
 * entries and the deliveries still kept.
 *
 * A MED claim's events (order.disputed, dispute.updated, dispute.resolved) are the order's events
 * too, but their `status` is the claim's (OPEN, ACCEPTED...): they become DISPUTE entries typed by
 * DisputeStatus, never STATUS entries, and the order's reported status is its last STATUS entry's.
 *
 * Movements are the order's transactions (a chain one links to the configured explorer), the
 * ledger's entries come from the ledger and the webhook deliveries from the webhooks module:
 * each module answers for its own rows, given to this one by the composition root. The merchant
 * sees its own ledger accounts only (docs/decisions/0041); the back office's order page asks for
 * the platform's legs too.
 */
import { ORDER_CREATED_EVENT } from '../order-source.ts';
import type { Static } from 'typebox';
import type { Db } from '../../../db/database.ts';
import { notFound } from '../../../errors.ts';
import type { LedgerService, LedgerView } from '../../ledger/service.ts';
import type { WebhooksService } from '../../webhooks/service.ts';
import { ordersRepo as repo } from '../repo.ts';
import { ORDER_STATUSES, type OrderStatus, type OrderTransactionRow } from '../tables.ts';
import { TIMELINE_KINDS, type OrderTimelineSchema, type TimelineEntrySchema } from './timeline-schemas.ts';
import { timelineRepo } from './timeline-repo.ts';
import { toOrder } from '../view.ts';

type TimelineEntry = Static<typeof TimelineEntrySchema>;
type DisputeEntry = NonNullable<TimelineEntry['dispute']>;
export type OrderTimeline = Static<typeof OrderTimelineSchema>;

/** The deliveries shown: the newest this many (GET /webhook/deliveries?orderId=… has them all). */
const MAX_DELIVERIES = 100;
const CHAIN_MOVEMENTS = new Set(['CHAIN_DEPOSIT', 'CHAIN_TRANSFER', 'CHAIN_DEPOSIT_EXCESS']);

const empty = { status: null, dispute: null, transaction: null, ledgerEntry: null, webhookDelivery: null };
const isOrderStatus = (value: string | null): value is OrderStatus => (ORDER_STATUSES as readonly (string | null)[]).includes(value);

/** `template`: CHAIN_EXPLORER_TX_URL, a URL with {signature}; '' for none. */
export function explorerUrl(template: string, tx: Pick<OrderTransactionRow, 'type' | 'tx_hash'>): string | null {
  if (!template || !tx.tx_hash || !CHAIN_MOVEMENTS.has(tx.type)) return null;
  return template.replaceAll('{signature}', encodeURIComponent(tx.tx_hash));
}

export function createOrderTimeline(deps: {
  db: Db;
  explorerTxUrl: string;
  ledger: Pick<LedgerService, 'orderEntries'>;
  webhooks: Pick<WebhooksService, 'listDeliveries'>;
}) {
  const { db } = deps;

  return {
    async get(merchantId: string, orderId: string, view: LedgerView = 'merchant'): Promise<OrderTimeline> {
      const order = await repo.find(db, orderId, merchantId);
      if (!order) throw notFound('Order');
      const [events, transactions, ledgerEntries, deliveries] = await Promise.all([
        timelineRepo.orderEvents(db, merchantId, orderId),
        repo.transactionsOf(db, [orderId]),
        deps.ledger.orderEntries(merchantId, orderId, view),
        deps.webhooks.listDeliveries(merchantId, { orderId, page: 1, limit: MAX_DELIVERIES }),
      ]);
      const shown = toOrder(order, transactions, { merchantName: '', receiverName: '' }).transactions;

      const initial: OrderStatus = order.type === 'PAYIN' ? 'AWAITING_PAYMENT' : 'AWAITING_DEPOSIT';
      const entries: TimelineEntry[] = [{ ...empty, at: order.created_at.toISOString(), kind: 'STATUS', status: { status: initial, source: 'CREATED', event: null } }];
      let reported: OrderStatus = initial;
      for (const event of events) {
        const at = new Date(event.timestamp ?? event.created_at).toISOString();
        if (event.dispute_id !== null) {
          // The claim's event: its fields are the dispute's, written by disputes/events.ts.
          const dispute = { disputeId: event.dispute_id, event: event.event_type, status: event.status, outcome: event.outcome, defenseDeadline: event.defense_deadline } as DisputeEntry;
          entries.push({ ...empty, at, kind: 'DISPUTE', dispute });
        } else if (event.event_type === ORDER_CREATED_EVENT.name) {
          // The first entry above already shows the status it was created in.
          continue;
        } else if (isOrderStatus(event.status)) {
          entries.push({ ...empty, at, kind: 'STATUS', status: { status: event.status, source: 'EVENT', event: event.event_type } });
          reported = event.status;
        }
        // Any other event naming the order reports no status of it: the timeline has no entry for it.
      }
      if (reported !== order.status) {
        entries.push({ ...empty, at: order.updated_at.toISOString(), kind: 'STATUS', status: { status: order.status, source: 'CURRENT', event: null } });
      }
      transactions.forEach((tx, i) => entries.push({ ...empty, at: shown[i]!.createdAt, kind: 'TRANSACTION', transaction: { ...shown[i]!, explorerUrl: explorerUrl(deps.explorerTxUrl, tx) } }));
      for (const entry of ledgerEntries) entries.push({ ...empty, at: entry.createdAt, kind: 'LEDGER_ENTRY', ledgerEntry: entry });
      for (const d of deliveries.data) {
        entries.push({
          ...empty,
          at: d.createdAt,
          kind: 'WEBHOOK_DELIVERY',
          webhookDelivery: { id: d.id, endpointId: d.endpointId, event: d.event, status: d.status, attempts: d.attemptCount, lastStatusCode: d.lastStatusCode, lastAttemptAt: d.lastAttemptAt },
        });
      }
      // Stable: equal times keep the order of kinds (a status, a claim, then the movement, the entry, the delivery it caused).
      const rank = (entry: TimelineEntry) => TIMELINE_KINDS.indexOf(entry.kind);
      entries.sort((a, b) => a.at.localeCompare(b.at) || rank(a) - rank(b));
      return { orderId: order.id, type: order.type, status: order.status, entries };
    },
  };
}

export type OrderTimelineService = ReturnType<typeof createOrderTimeline>;
