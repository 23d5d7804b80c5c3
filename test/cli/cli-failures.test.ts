/**
 * Every failure of `npm run admin` and `npm run migrate` that the operator can fix is one line on
 * stderr naming the problem and the fix, a non-zero exit and no stack trace: a bad argument, a
 * bad setting, the embedded database held by another process, PostgreSQL unreachable (missing:
 * cli-failures-postgres.test.ts).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runTsToEnd } from '../helpers/processes.ts';
import { expectCliFailureLine } from '../helpers/startup-failures.ts';

const ADMIN = 'src/cli/admin.ts';

async function npmRun(args: string[], env: Record<string, string>) {
  const child = spawn('npm', args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}
const MIGRATE = 'src/cli/migrate.ts';

describe('CLI failures: one line with the fix', { timeout: 120_000 }, () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-cli-failures-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('the embedded database held by another process (a running server): names the process and what to do', async () => {
    // The lock a running server holds: its pid in DATA_DIR/pglite.lock (src/db/embedded-lock.ts); this test process is alive.
    await writeFile(path.join(dataDir, 'pglite.lock'), String(process.pid));
    try {
      const busy = new RegExp(`is in use by process ${process.pid}; stop it first, or use the admin API, or set DATABASE_URL$`);
      expectCliFailureLine(await runTsToEnd(ADMIN, ['create-merchant', '--name', 'Acme'], { DATA_DIR: dataDir }), new RegExp(`^admin: the embedded database in .*${busy.source}`));
      expectCliFailureLine(await runTsToEnd(MIGRATE, [], { DATA_DIR: dataDir }), new RegExp(`^migrate: the embedded database in .*${busy.source}`));
      // Through npm, as the README runs it: npm adds its banner on stdout and nothing on stderr.
      const npm = await npmRun(['run', 'admin', '--', 'create-merchant', '--name', 'Acme'], { DATA_DIR: dataDir });
      expectCliFailureLine({ ...npm, stdout: '' }, new RegExp(`^admin: the embedded database in .*${busy.source}`));
    } finally {
      await rm(path.join(dataDir, 'pglite.lock'), { force: true });
    }
  });

  it('PostgreSQL unreachable: names where and DATABASE_URL', async () => {
    const env = { DATA_DIR: dataDir, DATABASE_URL: 'postgresql://postgres:pw@127.0.0.1:1/exchange' };
    const unreachable = /cannot reach PostgreSQL at 127\.0\.0\.1:1 \(ECONNREFUSED\): start it, or fix DATABASE_URL$/;
    const admin = await runTsToEnd(ADMIN, ['issue-credential', '--merchant', '00000000-0000-7000-8000-000000000000'], env);
    expectCliFailureLine(admin, new RegExp(`^admin: ${unreachable.source}`));
    const migrate = await runTsToEnd(MIGRATE, ['down'], env);
    expectCliFailureLine(migrate, new RegExp(`^migrate: ${unreachable.source}`));
    expect(admin.stderr + migrate.stderr).not.toContain('pw');
  });

  it('bad arguments: the problem, then the usage, on one line', async () => {
    const env = { DATA_DIR: dataDir };
    const cases: Array<[string, string[], RegExp]> = [
      [ADMIN, [], /^admin: no command given; usage: npm run admin -- create-merchant --name "Acme" \| issue-credential/],
      [ADMIN, ['drop-everything'], /^admin: unknown command "drop-everything"; usage: npm run admin -- /],
      [ADMIN, ['create-merchant', '--nmae', 'Acme'], /^admin: unknown option '--nmae'; usage: npm run admin -- /],
      [ADMIN, ['issue-credential', '--merchant'], /^admin: option '--merchant <value>' argument missing; usage: /],
      [ADMIN, ['create-merchant'], /^admin: --name must have 2 to 255 characters; usage: npm run admin -- create-merchant --name "Acme"$/],
      [ADMIN, ['issue-credential', '--merchant', 'acme'], /^admin: --merchant must be a merchant id .*; usage: npm run admin -- issue-credential --merchant <merchant id>$/],
      [ADMIN, ['import-platform-key', '--purpose', 'fee-payer'], /^admin: --purpose must be sponsor, treasury or treasury_2 to treasury_8; usage: npm run admin -- import-platform-key --purpose sponsor\|treasury\|treasury_N < keypair/],
      [MIGRATE, ['sideways'], /^migrate: unknown direction "sideways"; usage: npm run migrate \[-- up \| down \[--all\]\]$/],
      [MIGRATE, ['down', '--everything'], /^migrate: unknown option '--everything'; usage: npm run migrate /],
    ];
    const results = await Promise.all(cases.map(([script, args]) => runTsToEnd(script, args, env)));
    results.forEach((result, i) => expectCliFailureLine(result, cases[i]![2]));
  });

  it('a bad setting: names the variable', async () => {
    const result = await runTsToEnd(MIGRATE, [], { DATA_DIR: dataDir, PORT: String(await freePort()), LOG_LEVEL: 'loud' });
    expectCliFailureLine(result, /^migrate: invalid configuration: LOG_LEVEL /);
  });
});
