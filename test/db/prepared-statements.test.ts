/**
 * Named prepared statements on node-postgres: a text with values is prepared once per
 * connection, and a text marked PLANNED_EACH_RUN never is (its plan follows the table as it is).
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PLANNED_EACH_RUN, preparedStatements } from '../../src/db/prepared-statements.ts';
import { emptyPostgresDatabase } from '../helpers/database.ts';

let pool: pg.Pool | undefined;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const empty = await emptyPostgresDatabase();
  if (!empty) return;
  drop = empty.drop;
  pool = new pg.Pool({ connectionString: empty.url, max: 1 });
  pool.on('connect', preparedStatements);
});
afterAll(async () => {
  await pool?.end();
  await drop?.();
});

it('prepares a statement with values once per connection, and never one planned each run', async (ctx) => {
  if (!pool) return ctx.skip();
  const prepared = `select $1::int + 1 as n`;
  const eachRun = `${PLANNED_EACH_RUN} select $1::int + 2 as n`;
  // As Kysely runs queries: on a checked-out client, without a callback.
  const client = await pool.connect();
  try {
    for (let i = 0; i < 3; i++) {
      expect((await client.query(prepared, [i])).rows).toEqual([{ n: i + 1 }]);
      expect((await client.query(eachRun, [i])).rows).toEqual([{ n: i + 2 }]);
    }
    const { rows } = await client.query<{ statement: string }>('select statement from pg_prepared_statements');
    expect(rows.map((row) => row.statement)).toEqual([prepared]);
  } finally {
    client.release();
  }
});
