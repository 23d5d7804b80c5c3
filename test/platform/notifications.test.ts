/**
 * The notifications hub: in-process delivery, and across "processes" (two hubs, two connections)
 * on PostgreSQL with coalescing, the own echo dropped, and a resync after a lost connection; and
 * commit signals, which leave a transaction only once it has committed.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCommit, forwardCommitSignals, inTransaction, signalAfterCommit } from '../../src/platform/commit-signals.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { createInProcessNotifications, createPostgresNotifications, type Notifications } from '../../src/platform/notifications.ts';
import { emptyPostgresDatabase, openTestDatabase } from '../helpers/database.ts';
import { waitFor } from '../helpers/processes.ts';

const until = (check: () => boolean, timeoutMs = 3000) => waitFor(async () => (check() ? true : undefined), timeoutMs);

describe('in-process notifications', () => {
  it('runs subscribers at once; unsubscribe and close stop delivery; a throwing handler does not stop the others', async () => {
    const hub = createInProcessNotifications();
    const got: string[] = [];
    hub.subscribe('orders', () => {
      throw new Error('boom');
    });
    const stop = hub.subscribe('orders', (payload) => got.push(payload));
    hub.publish('orders', 'a');
    hub.publish('other', 'x');
    expect(got).toEqual(['a']);
    stop();
    hub.publish('orders', 'b');
    expect(got).toEqual(['a']);
    hub.subscribe('orders', (payload) => got.push(payload));
    await hub.close();
    hub.publish('orders', 'c');
    expect(got).toEqual(['a']);
    expect(() => hub.publish('Bad-Channel')).toThrow(/must match/);
  });
});

describe('PostgreSQL notifications (two hubs = two processes)', () => {
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  const hubs: Notifications[] = [];
  const hub = () => {
    const created = createPostgresNotifications({ url: url!, backoffStartMs: 20 });
    hubs.push(created);
    return created;
  };

  beforeAll(async () => {
    const empty = await emptyPostgresDatabase();
    url = empty?.url;
    drop = empty?.drop;
  });
  afterAll(async () => {
    await Promise.all(hubs.map((h) => h.close()));
    await drop?.();
  });

  it('a publish reaches the other process, coalesced; the publisher runs its own subscribers once', async (ctx) => {
    if (!url) return ctx.skip();
    const [a, b] = [hub(), hub()];
    const inA: string[] = [];
    const inB: string[] = [];
    a.subscribe('wake', (payload) => inA.push(payload));
    b.subscribe('wake', (payload) => inB.push(payload));
    await Promise.all([a.ready(), b.ready()]);
    for (let i = 0; i < 50; i++) a.publish('wake', 'same');
    a.publish('wake', 'other');
    await until(() => inB.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // 51 publishes in a burst: two NOTIFYs (one per distinct payload).
    expect(inB.sort()).toEqual(['other', 'same']);
    // The publisher's subscribers ran at publish, once each, and its own NOTIFY echo was dropped.
    expect(inA.filter((payload) => payload === 'other')).toEqual(['other']);
    expect(inA).toHaveLength(51);
  });

  it('channels subscribed at once on a live connection are LISTENed one query at a time, and all deliver', async (ctx) => {
    if (!url) return ctx.skip();
    const [a, b] = [hub(), hub()];
    await Promise.all([a.ready(), b.ready()]);
    // pg queues a query sent while another runs, warns that it is deprecated, and pg 9 refuses it.
    const overlapping: string[] = [];
    const query = pg.Client.prototype.query;
    const running = new WeakSet<object>();
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (running.has(this)) overlapping.push(String(args[0]));
      running.add(this);
      const result = (query as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      return result.finally(() => running.delete(this));
    } as typeof query;
    const got: string[] = [];
    try {
      for (const channel of ['one', 'two', 'three']) b.subscribe(channel, () => got.push(channel));
      b.publish('one');
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      pg.Client.prototype.query = query;
    }
    expect(overlapping).toEqual([]);
    for (const channel of ['one', 'two', 'three']) a.publish(channel);
    await until(() => got.filter((channel) => channel !== 'one').length >= 2 && got.filter((channel) => channel === 'one').length >= 2);
  });

  it('after a lost connection it reconnects, LISTENs again and runs the resync handlers', async (ctx) => {
    if (!url) return ctx.skip();
    const [a, b] = [hub(), hub()];
    const inB: string[] = [];
    let resyncs = 0;
    b.subscribe('wake', (payload) => inB.push(payload));
    b.onResync(() => resyncs++);
    await Promise.all([a.ready(), b.ready()]);
    const initial = resyncs;
    // Kill b's connection from the server side.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where query like 'LISTEN%' and pid <> pg_backend_pid() and datname = current_database()
      and pid in (select pid from pg_stat_activity where state = 'idle')`);
    await admin.end();
    await until(() => resyncs > initial, 5000);
    await b.ready();
    a.publish('wake', 'after');
    await until(() => inB.includes('after'));
  });
});

describe('commit signals', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('leave a transaction after COMMIT, never after a rollback; outside a transaction at once', async () => {
    const seen: string[] = [];
    const stop = forwardCommitSignals(database.db, (channel, payload) => seen.push(`${channel}:${payload}`));
    await inTransaction(database.db, async (trx) => {
      signalAfterCommit(trx, 'order_steps', 'x');
      signalAfterCommit(trx, 'order_steps', 'x');
      await sql`select 1`.execute(trx);
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['order_steps:x']);
    await expect(
      inTransaction(database.db, async (trx) => {
        signalAfterCommit(trx, 'lost', '');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // A transaction opened without inTransaction() could never send its signal: raising one fails loudly.
    await expect(database.db.transaction().execute(async (trx) => signalAfterCommit(trx, 'unseen', ''))).rejects.toThrow(/inTransaction/);
    signalAfterCommit(database.db, 'now', '');
    expect(seen).toEqual(['order_steps:x', 'now:']);
    stop();
    signalAfterCommit(database.db, 'now', '');
    expect(seen).toHaveLength(2);
  });

  it('after-commit actions run once COMMIT is done, in order, never after a rollback; outside a transaction at once; one that throws does not fail the work', async () => {
    const ran: string[] = [];
    const result = await inTransaction(database.db, async (trx) => {
      afterCommit(trx, () => ran.push('first'));
      afterCommit(trx, () => {
        throw new Error('a broken log line');
      });
      afterCommit(trx, () => ran.push('second'));
      await sql`select 1`.execute(trx);
      expect(ran).toEqual([]);
      return 'committed';
    });
    expect(result).toBe('committed');
    expect(ran).toEqual(['first', 'second']);
    await expect(
      inTransaction(database.db, async (trx) => {
        afterCommit(trx, () => ran.push('rolled back'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expect(database.db.transaction().execute(async (trx) => afterCommit(trx, () => ran.push('never')))).rejects.toThrow(/inTransaction/);
    afterCommit(database.db, () => ran.push('now'));
    expect(ran).toEqual(['first', 'second', 'now']);
  });
});
