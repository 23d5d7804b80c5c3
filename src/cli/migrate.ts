/**
 * npm run migrate               apply pending migrations
 * npm run migrate -- down       revert the latest migration
 * npm run migrate -- down --all revert every migration
 */
import { parseArgs } from 'node:util';
import { openConfiguredDatabase } from '../db/open-configured.ts';
import { migrateDown, migrateToLatest } from '../db/migrate.ts';
import { cliConfig, fail } from './config.ts';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { all: { type: 'boolean', default: false } } });
const direction = positionals[0] ?? 'up';
if (direction !== 'up' && direction !== 'down') fail('usage: npm run migrate [-- up | down [--all]]');

const database = await openConfiguredDatabase(await cliConfig(), { migrate: false });
try {
  const ran = direction === 'up' ? await migrateToLatest(database.db) : await migrateDown(database.db, { all: values.all });
  console.log(JSON.stringify({ driver: database.driver, ran }));
} finally {
  await database.close();
}
