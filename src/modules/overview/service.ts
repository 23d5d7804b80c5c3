/**
 * The dashboard's first page (GET /overview): the orders' volumes of the last days, the orders by
 * status, the fees, and what needs attention. It composes: the fee figures are the ledger's own
 * (feeBalance, unsettledFees), the endpoints' health the webhooks' own (listEndpoints); only the
 * orders' aggregates are read here (repo.ts says which index serves each).
 */
import type { Static } from 'typebox';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { saoPauloDay } from '../../lib/sao-paulo-time.ts';
import type { OrderType } from '../../lib/order-types.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { WebhooksService } from '../webhooks/service.ts';
import { overviewRepo as repo } from './repo.ts';
import type { OverviewSchema } from './schemas.ts';

export type Overview = Static<typeof OverviewSchema>;

const LATEST_FAILED = 5;
const TYPES: OrderType[] = ['PAYIN', 'PAYOUT'];
const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' plus `n` calendar days (UTC arithmetic on a date without a time: no time zone involved). */
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

export function createOverviewService(deps: {
  db: Db;
  clock: Clock;
  ledger: Pick<LedgerService, 'feeBalance' | 'unsettledFees'>;
  webhooks: Pick<WebhooksService, 'listEndpoints'>;
}) {
  const { db, clock } = deps;

  return {
    async get(merchantId: string, days: number): Promise<Overview> {
      const today = saoPauloDay(clock.now());
      const from = addDays(today, -(days - 1));
      const [volumes, statuses, failed, balance, unsettled, endpoints] = await Promise.all([
        repo.volumes(db, merchantId, from),
        repo.statusCounts(db, merchantId),
        repo.latestFailed(db, merchantId, from, LATEST_FAILED),
        deps.ledger.feeBalance(merchantId),
        deps.ledger.unsettledFees(merchantId),
        deps.webhooks.listEndpoints(merchantId),
      ]);
      const byKey = new Map(volumes.map((row) => [`${row.day}|${row.type}`, row]));
      const series: Overview['volumes'] = [];
      for (let i = 0; i < days; i++) {
        const day = addDays(from, i);
        for (const type of TYPES) {
          const row = byKey.get(`${day}|${type}`);
          series.push({
            day,
            type,
            count: row?.count ?? 0,
            amountBrl: row?.amount_brl ?? '0.00',
            completedCount: row?.completed_count ?? 0,
            completedAmountBrl: row?.completed_amount_brl ?? '0.00',
          });
        }
      }
      return {
        days,
        from,
        to: today,
        timeZone: 'America/Sao_Paulo',
        volumes: series,
        ordersByStatus: statuses.map((row) => ({ status: row.status, count: row.count })),
        fees: { balance: balance.balance, chargebacksOwed: balance.chargebacksOwed, currency: 'BRL', unsettledEntries: unsettled.entries, unsettledAmountBrl: unsettled.amountBrl },
        attention: {
          failedOrders: { count: volumes.reduce((sum, row) => sum + row.failed_count, 0), latestIds: failed.map((row) => row.id) },
          webhookEndpoints: endpoints.data
            .filter((endpoint) => endpoint.failingSince !== null || !endpoint.enabled)
            .map((endpoint) => ({ id: endpoint.id, url: endpoint.url, enabled: endpoint.enabled, failingSince: endpoint.failingSince, disabledReason: endpoint.disabledReason })),
        },
      };
    },
  };
}

export type OverviewService = ReturnType<typeof createOverviewService>;
