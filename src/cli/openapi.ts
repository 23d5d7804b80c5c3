/**
 * npm run openapi: writes the merchant API's OpenAPI document to docs/openapi.json (or the path
 * given) and the root operations' document (health, readiness, metrics) beside it, as
 * openapi-operations.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { operationsDocument } from '../http/openapi.ts';
import { generateDevSecrets, withSecrets } from '../runtime-config.ts';

const target = path.resolve(process.argv[2] ?? 'docs/openapi.json');
// The document only needs the routes, but building the app opens the platform's keys (created at
// first start outside production), so it gets a throwaway in-memory database.
const database = await openDatabase({ driver: 'pglite' });
await migrateToLatest(database.db);
const config = withSecrets(loadConfig({ LOG_LEVEL: 'silent', ADMIN_TOKEN: 'x'.repeat(32) }), generateDevSecrets());
const app = await buildApp({ config, db: database.db });
await app.ready();
await mkdir(path.dirname(target), { recursive: true });
const operationsTarget = path.join(path.dirname(target), 'openapi-operations.json');
await writeFile(target, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await writeFile(operationsTarget, `${JSON.stringify(operationsDocument(app), null, 2)}\n`);
await app.close();
await database.close();
console.log(`wrote ${target} and ${operationsTarget}`);
