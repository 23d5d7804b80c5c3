/**
 * Orders as the API sees them: creating a PAYIN or a PAYOUT (one pipeline, create-order.ts, with
 * a variant each) and reading orders. What happens after creation lives in notifications.ts
 * (provider and chain outcomes) and steps.ts (the worker).
 */
import type { Static } from 'typebox';
import type { ChainAdapter } from '../../adapters/chain/port.ts';
import type { PixProvider } from '../../adapters/pix/port.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import type { Db } from '../../db/database.ts';
import type { OrderRow } from './tables.ts';
import { notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdempotentRequest } from '../../platform/idempotency/claim.ts';
import type { QuotesService } from '../quotes/service.ts';
import type { ReceiversService } from '../receivers/service.ts';
import { type CreatedOrder, createOrderPipeline } from './creation/create-order.ts';
import { type PayinLiquidity, payinVariant } from './creation/payin.ts';
import { payoutVariant } from './creation/payout.ts';
import { ordersRepo as repo } from './repo.ts';
import type { PayinBody, PayoutBody } from './schemas.ts';
import type { OrderSettings } from '../../config.ts';
import { openOrderColumns } from './sealed-columns.ts';
import { type Order, toOrder } from './view.ts';
import type { OrderLog } from './lifecycle-log.ts';
import type { DependencyGate } from './creation/dependency-gate.ts';

export type { Order } from './view.ts';

export interface OrdersDeps {
  db: Db;
  clock: Clock;
  settings: Pick<OrderSettings, 'nightStart' | 'nightEnd' | 'payinExpirySeconds' | 'payoutExpirySeconds'>;
  pix: Pick<PixProvider, 'createCharge' | 'lookupPixKey'>;
  chain: Pick<ChainAdapter, 'createDepositAddress'>;
  quotes: Pick<QuotesService, 'tradeRules' | 'priceOrder' | 'consume'>;
  receivers: Pick<ReceiversService, 'findForOrder'>;
  /** Opens the receivers' names shown with their orders (sealed at rest). */
  personalData: Pick<PersonalData, 'open' | 'openNullable' | 'sealNullable'>;
  /** Told of every order created, so caches of the merchant's orders drop what they hold. */
  onOrderChanged?: (merchantId: string) => void;
  /** The treasury's check of a PAYIN's tokens; none: not limited. */
  liquidity?: PayinLiquidity;
  /** Where each order created is told (lifecycle-log.ts). */
  log?: OrderLog | undefined;
  /** Which dependencies are down: an order needing one is refused (creation/dependency-gate.ts). */
  dependencies?: DependencyGate | undefined;
}

export function createOrdersService(deps: OrdersDeps) {
  const { db, settings } = deps;
  const pipeline = createOrderPipeline(deps);
  const payin = payinVariant({ rules: deps.quotes.tradeRules, pix: deps.pix, settings, ...(deps.liquidity ? { liquidity: deps.liquidity } : {}) });
  const payout = payoutVariant({ rules: deps.quotes.tradeRules, chain: deps.chain, pix: deps.pix, settings });

  /** Orders as the API shows them: with their transactions and the merchant's and receivers' names. */
  async function view(rows: OrderRow[]): Promise<Order[]> {
    if (rows.length === 0) return [];
    const [transactions, [merchant, receivers]] = await Promise.all([
      repo.transactionsOf(db, rows.map((row) => row.id)),
      repo.names(db, rows[0]!.merchant_id, rows.map((row) => row.receiver_id)),
    ]);
    const receiverNames = new Map(receivers.map((r) => [r.id, deps.personalData.open('name', r.name)]));
    return rows.map((row) =>
      toOrder(
        openOrderColumns(deps.personalData, row),
        transactions.filter((tx) => tx.order_id === row.id),
        { merchantName: merchant.name, receiverName: receiverNames.get(row.receiver_id) ?? '' },
      ),
    );
  }

  const viewOne = async (row: OrderRow) => (await view([row]))[0]!;

  /** A just-created order: no movement yet, and its names were read with everything else. */
  const viewCreated = ({ row, names }: CreatedOrder) => {
    deps.onOrderChanged?.(row.merchant_id);
    return toOrder(openOrderColumns(deps.personalData, row), [], names);
  };

  /** The answer of POST /payin and /payout, stored with the order by a request with an Idempotency-Key. */
  const createdAnswer = ({ row, names }: CreatedOrder) => ({ status: 201, body: toOrder(openOrderColumns(deps.personalData, row), [], names) });

  return {
    /** With `claim`, the Idempotency-Key's answer commits with the order. */
    createPayin: async (merchantId: string, body: Static<typeof PayinBody>, claim?: IdempotentRequest): Promise<Order> =>
      viewCreated(await pipeline.create(payin, merchantId, body, createdAnswer, claim)),

    createPayout: async (merchantId: string, body: Static<typeof PayoutBody>, claim?: IdempotentRequest): Promise<Order> =>
      viewCreated(await pipeline.create(payout, merchantId, body, createdAnswer, claim)),

    async get(merchantId: string, id: string): Promise<Order> {
      const row = await repo.find(db, id, merchantId);
      if (!row) throw notFound('Order');
      return viewOne(row);
    },

    /** The merchant's own order row, for the sandbox drivers. */
    async findOwnedRow(merchantId: string, id: string): Promise<OrderRow> {
      const row = await repo.find(db, id, merchantId);
      if (!row) throw notFound('Order');
      return row;
    },

    /** Orders still awaiting money that were created before `before` (the sandbox's demo auto-complete). */
    awaitingCreatedBefore: (before: Date, limit: number): Promise<OrderRow[]> => repo.awaitingCreatedBefore(db, before, limit),
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
