/**
 * The start-up sealing pass on a large operations register (decision 0026, migration 0052): how
 * long a start spends in it with the marker set (skipped), void (the scan every start made before
 * the marker), and sealing rows left clear (the first start after migration 0046). A fresh
 * database `bench_pd_<timestamp>` on BENCH_PG_URL, dropped at the end.
 *
 *   npx node bench/personal-data-start.ts [rows, default 200000] [clear rows, default 5000]
 */
import { sql } from 'kysely';
import pg from 'pg';
import { createKeyCustody } from '../src/key-custody.ts';
import { systemClock } from '../src/lib/clock.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { resealPersonalData } from '../src/platform/personal-data-rotation.ts';
import { createServices } from '../src/services.ts';
import { testConfig } from '../test/helpers/app.ts';

const rows = Number(process.argv[2] ?? 200_000);
const clearRows = Number(process.argv[3] ?? 5_000);
const server = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `bench_pd_${Date.now()}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`create database ${name}`);
const url = server.replace(/\/[^/]*$/, `/${name}`);
const database = await openDatabase({ driver: 'postgres', url, poolMax: 4 });
const ms = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return Math.round(performance.now() - started);
};
try {
  await migrateToLatest(database.db);
  const db = database.db;
  const config = testConfig();
  const { personalData: pd, personalDataTables } = createKeyCustody({ config, db, clock: systemClock });
  const [document, name_, account] = [pd.seal('document', '52998224725'), pd.seal('name', 'Maria Registro'), pd.seal('account', '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T')];
  const insert = (count: number, sealed: boolean) => sql`
    insert into operations_register (id, occurred_at, order_id, order_type, merchant_id, movement, direction, asset, chain, quantity, value_brl,
      client_document_type, client_document, client_name, counterparty_type, beneficiary_name, beneficiary_document, beneficiary_account)
    select gen_random_uuid(), now(), gen_random_uuid(), 'PAYIN', gen_random_uuid(), 'CHAIN_TRANSFER', 'OUT', 'USDC', 'solana', 10, 55,
      'CPF', ${sealed ? document : '52998224725'}, ${sealed ? name_ : 'Maria Registro'}, 'SELF_HOSTED_WALLET', ${sealed ? name_ : 'Maria Registro'},
      ${sealed ? document : '52998224725'}, ${sealed ? account : '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'}
    from generate_series(1, ${count})`.execute(db);
  await insert(rows, true);
  await sql`analyze operations_register`.execute(db);
  const start = () => createServices({ config, db, clock: systemClock });
  const figures: Record<string, number> = {};
  figures['scan only (the pass every start made before)'] = await ms(() => resealPersonalData(db, pd, personalDataTables, { onlyClear: true }));
  figures['start, marker void (scans, then marks)'] = await ms(start);
  figures['start, marker set (no scan)'] = await ms(start);
  await insert(clearRows, false);
  figures[`start sealing ${clearRows} clear rows (first start after 0046)`] = await ms(start);
  figures['start after that (no scan)'] = await ms(start);
  console.log(`register of ${rows} sealed rows (PostgreSQL)`);
  for (const [what, took] of Object.entries(figures)) console.log(`| ${what} | ${took} ms |`);
} finally {
  await database.close();
  await admin.query(`drop database ${name} with (force)`);
  await admin.end();
}
