/**
 * Once per test run: migrate a template database, so each test file starts from a fresh,
 * migrated copy in a fraction of a second. On PostgreSQL (DATABASE_URL set) the template is a
 * database cloned with CREATE DATABASE ... TEMPLATE; on PGlite it is a dump of a data directory.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { adminQuery, templateNameFor, withDatabase } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: { driver: 'postgres'; url: string; template: string } | { driver: 'pglite'; dumpPath: string };
    /** A directory for this run's files that outlive a test file (removed at the run's end): test/helpers/dashboard-server.ts. */
    runScratchDir: string;
  }
}

export default async function setup(project: TestProject) {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'exchange-run-'));
  project.provide('runScratchDir', scratch);
  const teardown = await setupDatabase(project).catch(async (err: unknown) => {
    await rm(scratch, { recursive: true, force: true });
    throw err;
  });
  return async () => {
    await teardown();
    await rm(scratch, { recursive: true, force: true });
  };
}

async function setupDatabase(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = templateNameFor(url);
    await adminQuery(url, `drop database if exists "${template}" with (force)`, `create database "${template}"`);
    const handle = await openDatabase({ driver: 'postgres', url: withDatabase(url, template), poolMax: 1 });
    await migrateToLatest(handle.db);
    await handle.close();
    project.provide('testDatabase', { driver: 'postgres', url, template });
    return async () => {
      await adminQuery(url, `drop database if exists "${template}" with (force)`);
    };
  }

  const handle = await openDatabase({ driver: 'pglite' });
  await migrateToLatest(handle.db);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'exchange-test-'));
  const dumpPath = path.join(dir, 'template.tar');
  await writeFile(dumpPath, Buffer.from(await (await handle.dump!()).arrayBuffer()));
  await handle.close();
  project.provide('testDatabase', { driver: 'pglite', dumpPath });
  return () => rm(dir, { recursive: true, force: true });
}
