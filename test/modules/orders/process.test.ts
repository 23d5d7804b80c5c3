/**
 * The order process (src/modules/orders/lifecycle/process.ts) against the lifecycles: walking each machine
 * from where an order starts, every edge has exactly one declaration and every declaration is an
 * edge; each declaration agrees with the rules it replaced (the limit given back before money,
 * the next step due where the worker has one, the spec's event and its fields); what a call
 * brings is checked before anything is written; docs/architecture/orders.md shows the table.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ORDER_TYPES, type OrderType } from '../../../src/lib/order-types.ts';
import { ORDER_EVENT_COMMON_FIELDS, orderEventDefinitions } from '../../../src/modules/orders/events.ts';
import { ORDER_PROCESS, type ProcessEdge } from '../../../src/modules/orders/lifecycle/process.ts';
import { BEFORE_MONEY, canTransition } from '../../../src/modules/orders/lifecycle/state-machine.ts';
import { STORED_ORDER_STATUSES, type OrderRow, type StoredOrderStatus } from '../../../src/modules/orders/tables.ts';
import { type TransitionContext, applyTransition } from '../../../src/modules/orders/lifecycle/transitions.ts';
import { INITIAL, LIFECYCLES } from './lifecycles.ts';
import { ORDERS_DOC, renderProcess, withProcess } from './process-doc.ts';

const name = (type: OrderType, from: string, to: string) => `${type} ${from} → ${to}`;
const declarations = (type: OrderType, from: string, to: string) => ORDER_PROCESS.filter((edge) => edge.type === type && edge.from === from && edge.to === to);

/** The statuses in which the worker has a step to run (steps.ts, runStep). */
const WORKER_STEPS: readonly StoredOrderStatus[] = ['PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING', 'REFUNDING', 'DEPOSIT_RECEIVED', 'PIX_SENDING'];
/** The movements each type of order makes (a PAYIN's PIX in, transfer and refund; a PAYOUT's deposit and PIX out). */
const MOVEMENTS: Record<OrderType, readonly string[]> = { PAYIN: ['PIX_IN', 'CHAIN_TRANSFER', 'PIX_REFUND'], PAYOUT: ['CHAIN_DEPOSIT', 'CHAIN_DEPOSIT_EXCESS', 'PIX_OUT'] };

describe('the order process', () => {
  it.each(ORDER_TYPES)('%s: walking the machine from its first status meets every declaration once, and nothing else', (type) => {
    const seen = new Set<ProcessEdge>();
    const missing: string[] = [];
    const visited = new Set<StoredOrderStatus>([INITIAL[type]]);
    for (const queue = [INITIAL[type]]; queue.length > 0; ) {
      const from = queue.shift()!;
      for (const to of STORED_ORDER_STATUSES.filter((status) => canTransition(type, from, status))) {
        const found = declarations(type, from, to);
        if (found.length !== 1) missing.push(`${name(type, from, to)}: ${found.length} declarations`);
        found.forEach((edge) => seen.add(edge));
        if (!visited.has(to)) {
          queue.push(to);
          visited.add(to);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(ORDER_PROCESS.filter((edge) => edge.type === type && !seen.has(edge)).map((edge) => name(type, edge.from, edge.to))).toEqual([]);
  });

  it.each(ORDER_TYPES)('%s: the declared edges are the lifecycle of DESIGN.md §5, no more, no less', (type) => {
    const declared = ORDER_PROCESS.filter((edge) => edge.type === type).map((edge) => name(type, edge.from, edge.to));
    expect(declared.toSorted()).toEqual(LIFECYCLES[type].map(([from, to]) => name(type, from, to)).toSorted());
  });

  describe.each(ORDER_PROCESS.map((edge) => [name(edge.type, edge.from, edge.to), edge] as const))('%s', (_, edge) => {
    it('gives the daily limit back exactly when it ends the order before money arrived', () => {
      expect(edge.releasesLimit === true).toBe(BEFORE_MONEY.includes(edge.from) && (edge.to === 'EXPIRED' || edge.to === 'FAILED'));
    });

    it('leaves a step due at once exactly where the worker has one', () => {
      expect(edge.next === 'at once').toBe(WORKER_STEPS.includes(edge.to));
    });

    it("records only its type's movements, and posts what moved only from a movement", () => {
      for (const movement of edge.movements ?? []) expect(MOVEMENTS[edge.type]).toContain(movement.type);
      if (edge.ledger?.received) expect(edge.movements?.[0]?.when).toBeUndefined();
      expect(edge.movements?.[0]?.when === undefined || edge.movements.every((movement) => movement.when !== undefined)).toBe(true);
    });

    it("writes the spec's event for its type, with exactly the event's fields", () => {
      if (!edge.event) return;
      const definition = orderEventDefinitions().find((event) => event.name === edge.event!.name && event.orderTypes.includes(edge.type));
      expect(definition?.status).toBe(edge.event.status);
      const order = { type: edge.type, amount_brl: '540.00', amount_token: '100', token: 'USDC', destination_wallet: 'W', pix_key: 'sealed', markup_amount_brl: '0' } as OrderRow;
      const fields = edge.event.fields({
        order,
        moved: { amount: '1.5', currency: 'BRL', txHash: 'E2E' },
        facts: { reason: 'why', changes: { provider_transaction_id: 'P1' } },
        ctx: { personalData: { openNullable: (_kind, value) => (value === null ? null : `open ${value}`), seal: (_kind, value) => value } },
      });
      const common = Object.keys(ORDER_EVENT_COMMON_FIELDS);
      expect(Object.keys(fields).toSorted()).toEqual(Object.keys(definition!.payload.properties).filter((field) => !common.includes(field)).toSorted());
      if ('pixKey' in fields) expect(fields.pixKey).toBe('open sealed');
      if (edge.event.name === 'order.pix_sending') expect(fields.pspTransactionId).toBe('P1');
    });
  });
});

describe('applyTransition refuses, before writing anything,', () => {
  // No database: each of these throws before the first statement.
  const ctx = { clock: { now: () => new Date() }, ledger: { postOrderEntries: () => Promise.reject(new Error('posted')) }, personalData: { openNullable: () => null } } as unknown as TransitionContext;
  const order = (type: OrderType, status: StoredOrderStatus) => ({ id: 'o', type, status }) as OrderRow;
  const trx = undefined as never;

  it('an edge the machine does not have', async () => {
    await expect(applyTransition(trx, ctx, order('PAYIN', 'COMPLETED'), 'REFUNDING')).rejects.toThrow('illegal PAYIN transition COMPLETED → REFUNDING');
    await expect(applyTransition(trx, ctx, order('PAYOUT', 'AWAITING_PAYMENT'), 'PAYMENT_RECEIVED')).rejects.toThrow('illegal PAYOUT transition');
  });

  it('a movement the edge records but the call does not give, or one it does not record', async () => {
    await expect(applyTransition(trx, ctx, order('PAYOUT', 'PIX_SENT_UNCONFIRMED'), 'COMPLETED')).rejects.toThrow('PAYOUT PIX_SENT_UNCONFIRMED → COMPLETED records 1 movement(s), given 0');
    const figures = { amount: '1', currency: 'BRL' };
    await expect(applyTransition(trx, ctx, order('PAYOUT', 'DEPOSIT_RECEIVED'), 'PIX_SENDING', { moved: figures })).rejects.toThrow('records 0 movement(s), given 1');
    await expect(applyTransition(trx, ctx, order('PAYOUT', 'AWAITING_DEPOSIT'), 'DEPOSIT_RECEIVED', { moved: [figures, figures, figures] })).rejects.toThrow('records 2 movement(s), given 3');
  });

  it("chain costs where the edge posts none, and none where it always does", async () => {
    const costs = { feeLamports: 5000n, rentLamports: 0n };
    const transfer = { amount: '1', currency: 'USDC', txHash: 'S' };
    await expect(applyTransition(trx, ctx, order('PAYIN', 'SWAPPING'), 'TRANSFERRING', { moved: transfer, chainCosts: costs })).rejects.toThrow('posts no chain costs');
    await expect(applyTransition(trx, ctx, order('PAYIN', 'TRANSFERRING'), 'COMPLETED', { moved: transfer })).rejects.toThrow("posts the chain's costs: none given");
  });
});

describe('docs/architecture/orders.md', () => {
  it('shows the order process as declared (npm run docs:orders)', () => {
    const page = readFileSync(ORDERS_DOC, 'utf8');
    expect(page, 'the order process table differs from src/modules/orders/lifecycle/process.ts: run `npm run docs:orders`').toBe(withProcess(page, renderProcess()));
  });
});
