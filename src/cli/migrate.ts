/**
 * npm run migrate               apply pending migrations
 * npm run migrate -- down       revert the latest migration
 * npm run migrate -- down --all revert every migration
 */
import { parseArgs } from 'node:util';
import { cliConfig, cliName, fail, parseArgsProblem, runCli } from './config.ts';

const USAGE = 'npm run migrate [-- up | down [--all]]';

cliName('migrate');
let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { all: { type: 'boolean', default: false } } });
} catch (err) {
  fail(parseArgsProblem(err, USAGE) ?? String(err));
}
const { positionals, values } = parsed;
const direction = positionals[0] ?? 'up';
if (direction !== 'up' && direction !== 'down') fail(`unknown direction "${direction}"; usage: ${USAGE}`);
if (positionals.length > 1) fail(`unexpected argument "${positionals[1]}"; usage: ${USAGE}`);

await runCli(async () => {
  const [{ openConfiguredDatabase }, { migrateDown, migrateToLatest }] = await Promise.all([import('../db/open-configured.ts'), import('../db/migrate.ts')]);
  const database = await openConfiguredDatabase(await cliConfig(), { migrate: false });
  try {
    const ran = direction === 'up' ? await migrateToLatest(database.db) : await migrateDown(database.db, { all: values.all });
    console.log(JSON.stringify({ driver: database.driver, ran }));
  } finally {
    await database.close();
  }
});
