/**
 * `npm run admin -- report operations`: the same file GET /admin/reports/operations answers,
 * on stdout, from the database this test run uses (a migrated copy of its template: PostgreSQL, or PGlite under
 * DATA_DIR); bad arguments end with the usage and exit 1, before the database is opened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openConfiguredDatabase } from '../../src/db/open-configured.ts';
import { resolveRuntimeConfig } from '../../src/runtime-config.ts';
import { ADMIN_TOKEN } from '../helpers/app.ts';
import { migratedProcessDatabase } from '../helpers/database.ts';
import { runTsToEnd } from '../helpers/processes.ts';
import { insertRow } from '../modules/operations-register/helpers.ts';

// Each step starts the CLI as its own process, which opens the database (PGlite takes seconds to start, more on a loaded machine).
describe('npm run admin -- report operations', { timeout: 120_000 }, () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  const answers: Record<string, string> = {};

  beforeAll(async () => {
    const processDatabase = await migratedProcessDatabase('exchange-report-cli');
    env = { ...processDatabase.env, ADMIN_TOKEN };
    cleanup = processDatabase.drop;
    // Rows in November (one on its last evening in São Paulo) and one in December; the HTTP answers to compare with.
    const { config } = await resolveRuntimeConfig(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    const database = await openConfiguredDatabase(config);
    const app = await buildApp({ config, db: database.db });
    try {
      await insertRow(database.db, '2026-11-03T12:00:00.000Z');
      await insertRow(database.db, '2026-12-01T02:59:59.999Z', { clientName: 'Última, da noite' });
      await insertRow(database.db, '2026-12-01T03:00:00.000Z');
      for (const format of ['csv', 'jsonl']) {
        const response = await app.inject({ url: `/api/v1/admin/reports/operations?month=2026-11&format=${format}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        expect(response.statusCode, response.body).toBe(200);
        answers[format] = response.body;
      }
    } finally {
      await app.close();
      await database.close();
    }
  });
  afterAll(() => cleanup());

  it('prints the month as the HTTP export answers it, CSV by default and JSON lines on request', async () => {
    const csv = await runTsToEnd('src/cli/admin.ts', ['report', 'operations', '--month', '2026-11'], env);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe(answers.csv);
    expect(csv.stdout.split('\r\n').filter(Boolean)).toHaveLength(3);
    const jsonl = await runTsToEnd('src/cli/admin.ts', ['report', 'operations', '--month', '2026-11', '--format', 'jsonl'], env);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    expect(jsonl.stdout).toBe(answers.jsonl);
    expect(jsonl.stdout.trim().split('\n').map((line) => JSON.parse(line).clientName)).toContain('Última, da noite');
  });

  it('refuses a bad month, format or report with the usage and exit 1', async () => {
    for (const [args, message] of [
      [['report', 'operations', '--month', '2026-13'], '--month must be a calendar month'],
      [['report', 'operations'], '--month must be a calendar month'],
      [['report', 'operations', '--month', '2026-11', '--format', 'xml'], '--format must be csv or jsonl'],
      [['report', 'sales', '--month', '2026-11'], 'the only report is "operations"'],
    ] as const) {
      const result = await runTsToEnd('src/cli/admin.ts', [...args], env);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe('');
    }
  });
});
