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
import { operationsDocument } from '../http/openapi.ts';
import { generateDevSecrets, withSecrets } from '../runtime-config.ts';

const target = path.resolve(process.argv[2] ?? 'docs/openapi.json');
// The document only needs the routes: the pool is created lazily and never connects.
const database = await openDatabase({ driver: 'postgres', url: 'postgres://unused@127.0.0.1:1/unused', poolMax: 1 });
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
