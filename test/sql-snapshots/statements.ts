/**
 * The hot statements whose SQL is committed under test/sql-snapshots/ (one .sql file each), so a
 * change to one shows in review. To add one: a name (the file's), a line on what it is, and a
 * `run` that calls the repo function once, as the service does; `npm run sql:snapshots` writes
 * the file and test/sql-snapshots.test.ts fails while the committed text differs.
 * The arguments only shape the text: the statements run against a driver that executes nothing.
 */
import type { Db } from '../../src/db/database.ts';
import { creationRepo } from '../../src/modules/orders/creation/creation-repo.ts';
import { listingRepo } from '../../src/modules/orders/reads/listing-repo.ts';
import { ordersRepo } from '../../src/modules/orders/repo.ts';
import { deliveryRepo } from '../../src/modules/webhooks/delivery-repo.ts';

export interface SnapshotStatement {
  /** The snapshot's file name, without `.sql`. */
  name: string;
  about: string;
  /** Sends exactly one statement. */
  run: (db: Db) => Promise<unknown>;
}

const MERCHANT = '0190a0e0-0000-7000-8000-00000000000b';
const RECEIVER = '0190a0e0-0000-7000-8000-00000000000c';
const ORDER = '0190a0e0-0000-7000-8000-00000000000a';
const NOW = new Date('2026-11-25T12:00:00.000Z');
/** A worker instance (platform/worker-presence.ts), named in its claims. */
const WORKER = '0190a0e0-0000-7000-8000-00000000000f';

export const SNAPSHOT_STATEMENTS: SnapshotStatement[] = [
  {
    name: 'orders-insert-reserved',
    about: 'POST /payin: re-check the receiver, reserve the day, insert the order (creation-repo insertReserved), with the columns create-order.ts sets',
    run: (db) =>
      creationRepo.insertReserved(db, {
        row: {
          id: ORDER,
          merchant_id: MERCHANT,
          receiver_id: RECEIVER,
          type: 'PAYIN',
          status: 'AWAITING_PAYMENT',
          chain: 'solana',
          token: 'USDC',
          external_id: null,
          quote_id: null,
          amount_brl: '100.00',
          amount_token: '18.224852',
          exchange_rate: '5.40',
          platform_fee_percentage: '0.01',
          merchant_fee_percentage: '0.005',
          platform_fee_amount_brl: '1.00',
          merchant_fee_amount_brl: '0.50',
          net_amount_brl: '98.50',
          destination_wallet: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
          pix_txid: 'txid0000000000000000000000000001',
          pix_payment_code: '00020126580014br.gov.bcb.pix',
          limit_day: '2026-11-25',
          expires_at: NOW,
          created_at: NOW,
          updated_at: NOW,
        },
        amountBrl: '100.00',
        atNight: false,
        dailyLimitBrl: null,
        dailyTransactionLimit: null,
      }),
  },
  {
    name: 'orders-claim-steps',
    about: "The order worker's claim of due steps (orders/lifecycle/steps.ts through the lease helper)",
    run: (db) => ordersRepo.claimDueSteps(db, NOW, 8, 30_000, WORKER),
  },
  {
    name: 'orders-claim-expiries',
    about: "The order worker's expiry sweep: orders awaiting money past expires_at, locked for the transition",
    run: (db) => ordersRepo.dueExpiries(db, NOW, 50),
  },
  {
    name: 'webhooks-claim-deliveries',
    about: "The webhook dispatcher's claim: due deliveries, fair across endpoints, leased (webhooks/delivery-repo.ts claimDue)",
    run: (db) =>
      deliveryRepo.claimDue(db, { now: NOW, until: new Date(NOW.getTime() + 30_000), token: 'token', limit: 64, cap: 8, endpoints: 16, allowances: new Map(), fresh: 8 }),
  },
  {
    name: 'orders-list-first-page',
    about: 'GET /orders?limit=20: the first page, its names, movements and total in one statement',
    run: (db) => listingRepo.page(db, MERCHANT, {}, { offset: 0 }, 20),
  },
  {
    name: 'orders-list-amount-page',
    about: 'GET /orders?amountBrlMin=…&amountBrlMax=…: the range filters the merchant index walk; the total is counted, not read from the counters',
    run: (db) => listingRepo.page(db, MERCHANT, { amountBrlMin: '100', amountBrlMax: '500.50' }, { offset: 0 }, 20),
  },
  {
    name: 'orders-list-cursor-page',
    about: 'GET /orders?limit=20&startingAfter=…: a page after a cursor (keyset)',
    run: (db) => listingRepo.page(db, MERCHANT, {}, { startingAfter: ORDER }, 20),
  },
];
