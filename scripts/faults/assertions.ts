/**
 * What the suite asserts, read from the database after the drain (and from the clients' and the
 * receiver's records): orders exactly once and answered by replay, none stuck, the ledger
 * balanced with the fee balance equal to the merchant fees of completed orders, events and
 * deliveries exactly once per (order, event), and every delivery of merchant A received.
 *
 * "Duplicated" under at-least-once delivery: the receiver may see one delivery more than once
 * (same webhook-id: a worker killed after the POST and before recording its outcome, or a
 * recovered delivery whose earlier attempt had in fact arrived). That is the contract, and the
 * receiver de-duplicates on webhook-id: it is counted as `redelivered`, not as a failure. A
 * duplicate is one (order, event) under two different webhook-ids — two events, or two deliveries
 * of one event to one endpoint — which a receiver cannot tell from two real transitions.
 */
import { decimal } from '../../src/lib/money.ts';
import type pg from 'pg';
import type { OrderOutcome } from './clients.ts';
import type { Received } from './receivers.ts';

const TERMINAL = ['COMPLETED', 'REFUNDED', 'FAILED', 'EXPIRED'];

/** The events each order's journey records, by type and final status. */
const EXPECTED_EVENTS: Record<string, string[]> = {
  'PAYIN COMPLETED': ['order.payment_received', 'order.completed'],
  'PAYIN REFUNDED': ['order.refunding', 'order.refunded'],
  'PAYOUT COMPLETED': ['order.deposit_received', 'order.processing', 'order.pix_sending', 'order.completed'],
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface DrainState {
  nonTerminalOrders: number;
  eventsNotFannedOut: number;
  undeliveredToA: number;
}

async function drainState(db: pg.Client, endpointA: string): Promise<DrainState> {
  const { rows } = await db.query<{ orders: number; events: number; deliveries: number }>(
    `select (select count(*)::int from orders where status <> all($1)) as orders,
            (select count(*)::int from events where fanned_out_at is null) as events,
            (select count(*)::int from webhook_deliveries where endpoint_id = $2 and status <> 'SUCCEEDED') as deliveries`,
    [TERMINAL, endpointA],
  );
  const row = rows[0]!;
  return { nonTerminalOrders: row.orders, eventsNotFannedOut: row.events, undeliveredToA: row.deliveries };
}

/** Waits until every order is terminal, every event fanned out and every delivery to A succeeded, or the bound passes. */
export async function drain(db: pg.Client, endpointA: string, boundMs: number): Promise<DrainState & { ms: number }> {
  const started = Date.now();
  for (;;) {
    const state = await drainState(db, endpointA);
    const done = state.nonTerminalOrders === 0 && state.eventsNotFannedOut === 0 && state.undeliveredToA === 0;
    if (done || Date.now() - started > boundMs) return { ...state, ms: Date.now() - started };
    await sleep(500);
  }
}

export interface CheckInput {
  db: pg.Client;
  outcomes: OrderOutcome[];
  merchants: Array<{ name: string; id: string; endpointId: string; feeBalance: string }>;
  /** Merchant A's endpoint: every delivery must have reached the receiver. */
  endpointA: string;
  receivedByA: Received[];
}

type Figures = Record<string, number | string>;

export async function check(input: CheckInput): Promise<{ figures: Figures; failures: string[] }> {
  const { db, outcomes } = input;
  const failures: string[] = [];
  const figures: Figures = {};
  const fail = (what: string, n: number) => n !== 0 && failures.push(`${what}: ${n}`);

  // --- Orders: acknowledged exactly once, replayed, none stuck -----------------------------
  const orders = (
    await db.query<{ id: string; merchant_id: string; type: string; status: string; amount: string; merchant_fee: string }>(
      `select id, merchant_id, type, status, case when type = 'PAYIN' then amount_brl::text else amount_token::text end as amount,
              merchant_fee_amount_brl::text as merchant_fee from orders`,
    )
  ).rows;
  const byId = new Map(orders.map((o) => [o.id, o]));
  const sameOrder = new Map<string, number>();
  for (const o of orders) sameOrder.set(`${o.merchant_id} ${o.type} ${decimal(o.amount).toFixed(2)}`, (sameOrder.get(`${o.merchant_id} ${o.type} ${decimal(o.amount).toFixed(2)}`) ?? 0) + 1);
  const acked = outcomes.filter((o) => o.create.first?.status === 201);
  const ackedIds = new Set(acked.map((o) => o.orderId!));
  figures['orders sent'] = outcomes.length;
  figures['orders acknowledged'] = acked.length;
  figures['acknowledged by a replay'] = acked.filter((o) => o.create.first!.replayed).length;
  figures['orders found'] = acked.filter((o) => byId.has(o.orderId!)).length;
  figures['orders in the database'] = orders.length;
  figures['orders duplicated'] = [...sameOrder.values()].filter((n) => n > 1).length;
  figures['orders replayed'] = outcomes.filter((o) => o.create.replayMatches).length;
  figures['payments answered'] = outcomes.filter((o) => o.pay.first && !o.pay.unexpected).length;
  figures['payments answered 409 (paid by a lost attempt)'] = outcomes.filter((o) => o.pay.first?.status === 409).length;
  figures['payments replayed'] = outcomes.filter((o) => o.pay.replayMatches).length;
  const stuck = orders.filter((o) => !TERMINAL.includes(o.status));
  figures['orders stuck'] = stuck.length;
  const wrongEnd = outcomes.filter((o) => {
    const status = byId.get(o.orderId ?? '')?.status;
    return status !== (o.plan.wrongAmount ? 'REFUNDED' : 'COMPLETED');
  });
  figures['orders not in their expected end'] = wrongEnd.length;
  const unexpected = outcomes.flatMap((o) => [o.create.unexpected, o.pay.unexpected].filter((u): u is string => u !== undefined));
  figures['unexpected answers'] = unexpected.length;
  fail('orders not acknowledged', outcomes.length - acked.length);
  fail('acknowledged orders not found', acked.length - (figures['orders found'] as number));
  fail('orders without an acknowledgement', orders.filter((o) => !ackedIds.has(o.id)).length);
  fail('distinct acknowledged ids short of acknowledgements', acked.length - ackedIds.size);
  fail('orders duplicated', figures['orders duplicated'] as number);
  fail('order creations not replayed', outcomes.length - (figures['orders replayed'] as number));
  fail('payments not replayed', outcomes.length - (figures['payments replayed'] as number));
  fail('orders stuck after the drain', stuck.length);
  fail('orders not in their expected end (COMPLETED; REFUNDED for a wrong amount)', wrongEnd.length);
  fail('unexpected answers', unexpected.length);
  for (const u of unexpected.slice(0, 5)) failures.push(`  unexpected: ${u}`);
  for (const o of outcomes.flatMap((x) => [x.create, x.pay]).filter((k) => k.first && !k.unexpected && !k.replayMatches).slice(0, 5)) {
    failures.push(`  not replayed: ${o.key}: first ${o.first!.status} ${JSON.stringify(o.first!.body).slice(0, 200)}, then ${o.mismatch ? `${o.mismatch.status} replayed=${o.mismatch.replayed} ${JSON.stringify(o.mismatch.body).slice(0, 200)}` : "no answer before the deadline"}`);
  }
  for (const o of stuck.slice(0, 5)) failures.push(`  stuck: ${o.type} ${o.id} in ${o.status}`);

  // --- Ledger: every currency sums to zero, nothing left in transit, fees = completed orders' --
  const sums = (await db.query<{ currency: string; sum: string }>('select currency, sum(amount)::text as sum from ledger_postings group by currency')).rows;
  const transit = (
    await db.query<{ currency: string; sum: string }>(
      `select p.currency, sum(p.amount)::text as sum from ledger_postings p join ledger_accounts a on a.id = p.account_id
        where a.code = 'customer_funds_in_transit' group by p.currency`,
    )
  ).rows;
  const ledgerDifference = sums.reduce((total, row) => total.plus(decimal(row.sum).abs()), decimal(0));
  const inTransit = transit.reduce((total, row) => total.plus(decimal(row.sum).abs()), decimal(0));
  figures['ledger difference (sum of postings)'] = ledgerDifference.toString();
  figures['ledger left in transit'] = inTransit.toString();
  if (!ledgerDifference.isZero()) failures.push(`ledger postings do not sum to zero: ${JSON.stringify(sums)}`);
  if (!inTransit.isZero()) failures.push(`money left in customer_funds_in_transit after the drain: ${JSON.stringify(transit)}`);
  const settled = new Map(
    (await db.query<{ merchant_id: string; sum: string }>('select merchant_id, sum(amount_brl)::text as sum from settlements group by merchant_id')).rows.map((r) => [r.merchant_id, r.sum]),
  );
  let feeDifference = decimal(0);
  for (const merchant of input.merchants) {
    const fees = orders.filter((o) => o.merchant_id === merchant.id && o.status === 'COMPLETED').reduce((t, o) => t.plus(o.merchant_fee), decimal(0));
    // Fees the worker's daily settlement already paid out left the balance; they count as collected.
    const collected = decimal(merchant.feeBalance).plus(settled.get(merchant.id) ?? 0);
    figures[`fee balance ${merchant.name} (+ settled) / merchant fees of completed orders`] = `${collected.toFixed(2)} / ${fees.toFixed(2)}`;
    feeDifference = feeDifference.plus(collected.minus(fees).abs());
  }
  figures['fee difference'] = feeDifference.toFixed(2);
  if (!feeDifference.isZero()) failures.push(`fee balance differs from the merchant fees of completed orders by ${feeDifference.toFixed(2)}`);

  // --- Events and deliveries per (order, event) ----------------------------------------------
  const events = (await db.query<{ id: string; order_id: string; event_type: string }>(`select id, payload->>'orderId' as order_id, event_type from events where payload ? 'orderId'`)).rows;
  const eventsByOrder = new Map<string, string[]>();
  for (const e of events) eventsByOrder.set(e.order_id, [...(eventsByOrder.get(e.order_id) ?? []), e.event_type]);
  let eventsLost = 0;
  let eventsDuplicated = 0;
  let eventsUnexpected = 0;
  const expectedPairs: Array<{ orderId: string; merchantId: string; event: string }> = [];
  for (const o of orders) {
    const expected = EXPECTED_EVENTS[`${o.type} ${o.status}`] ?? [];
    const got = eventsByOrder.get(o.id) ?? [];
    for (const name of expected) {
      const n = got.filter((g) => g === name).length;
      if (n === 0) eventsLost++;
      if (n > 1) eventsDuplicated += n - 1;
      expectedPairs.push({ orderId: o.id, merchantId: o.merchant_id, event: name });
    }
    eventsUnexpected += got.filter((g) => !expected.includes(g)).length;
  }
  figures['events recorded'] = events.length;
  figures['events lost'] = eventsLost;
  figures['events duplicated'] = eventsDuplicated;
  fail('events lost (an expected (order, event) without its event)', eventsLost);
  fail('events duplicated (an (order, event) recorded twice)', eventsDuplicated);
  fail('events a journey should not have', eventsUnexpected);

  const deliveries = (await db.query<{ id: string; endpoint_id: string; event_id: string; status: string }>('select id, endpoint_id, event_id, status from webhook_deliveries where order_id is not null')).rows;
  const perEventEndpoint = new Map<string, number>();
  for (const d of deliveries) perEventEndpoint.set(`${d.event_id} ${d.endpoint_id}`, (perEventEndpoint.get(`${d.event_id} ${d.endpoint_id}`) ?? 0) + 1);
  const endpointOf = new Map(input.merchants.map((m) => [m.id, m.endpointId]));
  const merchantOfEvent = new Map(orders.map((o) => [o.id, o.merchant_id]));
  let fanOutMissing = 0;
  for (const e of events) {
    const n = perEventEndpoint.get(`${e.id} ${endpointOf.get(merchantOfEvent.get(e.order_id) ?? '')}`) ?? 0;
    if (n !== 1) fanOutMissing++;
  }
  figures['deliveries (rows)'] = deliveries.length;
  figures['events not fanned out exactly once to their endpoint'] = fanOutMissing;
  fail('events not fanned out exactly once to their endpoint', fanOutMissing);
  const toA = deliveries.filter((d) => d.endpoint_id === input.endpointA);
  figures['deliveries to A not SUCCEEDED'] = toA.filter((d) => d.status !== 'SUCCEEDED').length;
  fail('deliveries to A not SUCCEEDED after recover and drain', figures['deliveries to A not SUCCEEDED'] as number);

  // --- What receiver A saw: every (order, event) of A once, under one webhook-id ---------------
  const receivedIds = new Map<string, Set<string>>();
  const timesPerId = new Map<string, number>();
  for (const r of input.receivedByA) {
    if (!r.orderId) continue;
    const pair = `${r.orderId} ${r.event}`;
    receivedIds.set(pair, (receivedIds.get(pair) ?? new Set()).add(r.webhookId));
    timesPerId.set(r.webhookId, (timesPerId.get(r.webhookId) ?? 0) + 1);
  }
  const pairsOfA = expectedPairs.filter((p) => p.merchantId === input.merchants[0]!.id);
  const lost = pairsOfA.filter((p) => !receivedIds.has(`${p.orderId} ${p.event}`));
  const duplicated = [...receivedIds.values()].filter((ids) => ids.size > 1).length;
  figures['A: (order, event) pairs expected'] = pairsOfA.length;
  figures['A: deliveries received (requests)'] = input.receivedByA.length;
  figures['A: deliveries lost'] = lost.length;
  figures['A: deliveries duplicated (one pair, several webhook-ids)'] = duplicated;
  figures['A: redelivered (one webhook-id received again; allowed)'] = [...timesPerId.values()].filter((n) => n > 1).length;
  fail('A: deliveries lost', lost.length);
  fail('A: deliveries duplicated', duplicated);
  for (const p of lost.slice(0, 5)) failures.push(`  lost: ${p.event} of ${p.orderId}`);
  return { figures, failures };
}
