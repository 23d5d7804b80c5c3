/**
 * Issue 44, item 4b: the service behind a real PgBouncer (Debian's package) in transaction mode.
 * The service runs as production does (`src/main.ts`, both roles) with DATABASE_URL at PgBouncer,
 * DATABASE_DIRECT_URL at PostgreSQL and DATABASE_NAMED_STATEMENTS=false, on a new empty database
 * it migrates itself (through the direct URL); a PAYIN and a PAYOUT go to COMPLETED over HTTP with
 * the worker doing the steps, and what needs a session of its own (the LISTEN connection, the
 * worker presence lock) is shown to be on PostgreSQL directly, never on a connection of
 * PgBouncer's. The control: named prepared statements through PgBouncer 1.18 fail (42P05), which
 * is why the service turns them off there. PostgreSQL runs only: PgBouncer fronts PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { emptyPostgresDatabase } from '../helpers/database.ts';
import { randomCpf } from '../helpers/documents.ts';
import { type RunningPgBouncer, pgbouncerVersion, startPgBouncer } from '../helpers/pgbouncer.ts';
import { type RunningService, startService, waitFor } from '../helpers/processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ADMIN_TOKEN = `pgbouncer-admin-${randomBytes(16).toString('hex')}`;

describe('the service behind PgBouncer in transaction mode', () => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let bouncer: RunningPgBouncer | undefined;
  let service: RunningService | undefined;
  let dataDir: string | undefined;
  let headers: Record<string, string> = {};

  beforeAll(async () => {
    database = await emptyPostgresDatabase();
    if (!database || !pgbouncerVersion()) return;
    const server = new URL(database.url);
    bouncer = await startPgBouncer({ host: server.hostname, port: Number(server.port || 5432), user: decodeURIComponent(server.username) || 'postgres' });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-pgbouncer-'));
    service = await startService(dataDir, {
      DATABASE_URL: bouncer!.through(database.url),
      DATABASE_DIRECT_URL: database.url,
      DATABASE_NAMED_STATEMENTS: 'false',
      // main.ts's replica wiring, on a server that is not a standby: opened and closed, never read (read-router.ts).
      DATABASE_READ_URL: database.url,
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
    });
    const created = await call('POST', '/admin/merchants', { name: 'Loja PgBouncer' }, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    headers = { 'x-api-key': created.body.credential.apiKey, 'x-api-secret': created.body.credential.apiSecret };
  }, 240_000);

  afterAll(async () => {
    if (service) expect(await service.stop()).toBe(0);
    await bouncer?.stop();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function call(method: string, url: string, body?: unknown, extra: Record<string, string> = headers): Promise<{ status: number; body: Json }> {
    const response = await fetch(`${service!.base}/api/v1${url}`, {
      method,
      headers: { ...extra, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Json };
  }

  const completed = (id: string) =>
    waitFor(async () => {
      const order = await call('GET', `/orders/${id}`);
      if (order.body.status === 'FAILED' || order.body.status === 'REFUNDED') throw new Error(`order ${id} ended ${order.body.status}: ${JSON.stringify(order.body)}`);
      return order.body.status === 'COMPLETED' ? order.body : undefined;
    }, 30_000);

  const skipUnlessRunning = (ctx: { skip: (note?: string) => void }) => {
    if (!database) ctx.skip('PgBouncer fronts PostgreSQL: this file runs in the PostgreSQL run (DATABASE_URL set)');
    if (!bouncer) ctx.skip(`pgbouncer is not installed (apt-get install pgbouncer; .ci/run does)`);
  };

  it('runs a PAYIN and a PAYOUT to COMPLETED, the worker stepping them through PgBouncer', async (ctx) => {
    skipUnlessRunning(ctx);
    const receiver = await call('POST', '/receivers', {
      type: 'PF',
      document: randomCpf(),
      name: 'Cliente PgBouncer',
      email: 'pgbouncer@example.com',
      walletAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
      limits: { nightTransactionsEnabled: true }, // the real clock may be in the night window
    });
    expect(receiver.status, JSON.stringify(receiver.body)).toBe(201);
    expect((await call('POST', `/sandbox/receivers/${receiver.body.id}/kyc`, { decision: 'APPROVE' })).status).toBe(200);

    const payin = await call('POST', '/payin', { receiverId: receiver.body.id, amountBrl: 150 });
    expect(payin.status, JSON.stringify(payin.body)).toBe(201);
    expect((await call('POST', `/sandbox/orders/${payin.body.id}/pix-payment`, {})).status).toBe(200);
    const paidIn = await completed(payin.body.id);
    expect(paidIn.transactions.map((tx: Json) => tx.type).sort()).toEqual(['CHAIN_TRANSFER', 'PIX_IN']);

    const payout = await call('POST', '/payout', { receiverId: receiver.body.id, amountCrypto: 10, sourceToken: 'USDC' });
    expect(payout.status, JSON.stringify(payout.body)).toBe(201);
    expect((await call('POST', `/sandbox/orders/${payout.body.id}/deposit`, {})).status).toBeLessThan(300);
    const paidOut = await completed(payout.body.id);
    expect(paidOut.transactions.map((tx: Json) => tx.type)).toContain('PIX_OUT');

    // Every client connection of the service's pools went through PgBouncer: it counted their transactions.
    const [stats] = (await bouncer!.admin<{ database: string; total_xact_count: string }>('SHOW STATS')).filter((row) => row.database === new URL(database!.url).pathname.slice(1));
    expect(Number(stats!.total_xact_count)).toBeGreaterThan(20);
  }, 120_000);

  it('keeps the LISTEN connection and the worker presence lock on PostgreSQL itself, not on a server connection of PgBouncer', async (ctx) => {
    skipUnlessRunning(ctx);
    const servers = await bouncer!.admin<{ remote_pid: string }>('SHOW SERVERS');
    const pooled = new Set(servers.map((row) => Number(row.remote_pid)));
    const direct = new pg.Client({ connectionString: database!.url });
    await direct.connect();
    try {
      // The two connections name themselves (application_name); the presence one holds the instance's advisory lock.
      const { rows } = await direct.query<{ pid: number; application_name: string; locks: number }>(
        `select a.pid, a.application_name, (select count(*)::int from pg_locks l where l.pid = a.pid and l.locktype = 'advisory' and l.granted) as locks
         from pg_stat_activity a where a.datname = current_database() and a.application_name like 'exchange-%' order by a.application_name`,
      );
      expect(rows.map((row) => [row.application_name, row.locks])).toEqual([['exchange-notifications', 0], ['exchange-worker-presence', 1]]);
      for (const { pid } of rows) expect(pooled.has(pid), `backend ${pid} is one of PgBouncer's`).toBe(false);
    } finally {
      await direct.end();
    }
  });

  it('needs named prepared statements off: through PgBouncer 1.18 in transaction mode they collide (42P05)', async (ctx) => {
    skipUnlessRunning(ctx);
    const errorsWith = async (namedStatements: boolean) => {
      const handle = await openDatabase({ driver: 'postgres', url: bouncer!.through(database!.url), poolMax: 8, namedStatements });
      const codes: string[] = [];
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          sql`select count(*) from orders where amount_brl > ${i}::numeric`.execute(handle.db).catch((err: { code?: string }) => void codes.push(err.code ?? 'none')),
        ),
      );
      await handle.close();
      return codes;
    };
    expect(await errorsWith(false)).toEqual([]);
    // PgBouncer 1.21+ with max_prepared_statements keeps them: this control is about the Debian 12 package.
    if (bouncer!.version.localeCompare('1.21', undefined, { numeric: true }) < 0) expect(new Set(await errorsWith(true))).toContain('42P05');
  });
});
