/**
 * A fresh, migrated database for one test file, cloned from the run's template (see
 * global-setup.ts): a new PostgreSQL database when DATABASE_URL is set, else the worker's PGlite
 * put back to the template (pglite-reuse.ts).
 */
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { openReusedPglite } from './pglite-reuse.ts';
import { adminQuery, withDatabase } from './postgres.ts';

export async function openTestDatabase(): Promise<DatabaseHandle> {
  const target = inject('testDatabase');
  if (target.driver === 'pglite') return openReusedPglite(async () => new Blob([await readFile(target.dumpPath)]));
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(target.url, `create database "${name}" template "${target.template}"`);
  const handle = await openDatabase({ driver: 'postgres', url: withDatabase(target.url, name), poolMax: 5 });
  return {
    ...handle,
    async close() {
      await handle.close();
      await adminQuery(target.url, `drop database if exists "${name}" with (force)`);
    },
  };
}

/** The driver this run tests against, for the few tests that differ by driver. */
export const testDriver = () => inject('testDatabase').driver;

/** A URL for a new empty PostgreSQL database (dropped by the returned function), or undefined on PGlite runs. */
export const emptyPostgresDatabase = () => newPostgresDatabase('empty');

/**
 * A URL for a new migrated PostgreSQL database, a copy of the run's template (dropped by the
 * returned function), or undefined on PGlite runs: for tests that open it from several pools
 * ("processes") and so cannot use the one handle of openTestDatabase.
 */
export const migratedPostgresDatabase = () => newPostgresDatabase('migrated');

async function newPostgresDatabase(kind: 'empty' | 'migrated'): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const target = inject('testDatabase');
  if (target.driver !== 'postgres') return undefined;
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(target.url, kind === 'migrated' ? `create database "${name}" template "${target.template}"` : `create database "${name}"`);
  return { url: withDatabase(target.url, name), drop: () => adminQuery(target.url, `drop database if exists "${name}" with (force)`) };
}

/**
 * What a child process (the CLI, the service) needs to start on this run's driver with nothing
 * left to migrate: a new DATA_DIR, and a copy of the template database on PostgreSQL runs or, on
 * PGlite runs, the template's data directory unpacked as DATA_DIR/pglite (open-configured.ts).
 * Migrating an empty database in every such test cost each a few seconds.
 */
export async function migratedProcessDatabase(prefix: string): Promise<{ env: { DATA_DIR: string; DATABASE_URL?: string }; drop: () => Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
  const target = inject('testDatabase');
  const postgres = target.driver === 'postgres' ? await migratedPostgresDatabase() : undefined;
  if (target.driver === 'pglite') {
    await mkdir(path.join(dataDir, 'pglite'));
    await promisify(execFile)('tar', ['-xf', target.dumpPath, '-C', path.join(dataDir, 'pglite')]);
  }
  return {
    env: { DATA_DIR: dataDir, ...(postgres ? { DATABASE_URL: postgres.url } : {}) },
    async drop() {
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
