/**
 * A PgBouncer (Debian's package) on a free loopback port in front of a PostgreSQL server, in
 * transaction mode, from a temporary ini: auth trust (the loopback server trusts too), every
 * database passed through, a small server pool so client connections really share server ones.
 * `undefined` when the binary is missing (.ci/run installs it). Docs: docs/architecture/scale.md.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, waitFor } from './processes.ts';

export const PGBOUNCER_BINARY = '/usr/sbin/pgbouncer';

export interface RunningPgBouncer {
  port: number;
  version: string;
  /** `url` (a postgresql:// URL of the server behind) with PgBouncer's host and port instead. */
  through(url: string): string;
  /** A statement on PgBouncer's admin console (SHOW POOLS, SHOW SERVERS, …). */
  admin<Row>(statement: string): Promise<Row[]>;
  output(): string;
  stop(): Promise<void>;
}

export function pgbouncerVersion(): string | undefined {
  try {
    return /PgBouncer (\S+)/.exec(execFileSync(PGBOUNCER_BINARY, ['--version'], { encoding: 'utf8' }))?.[1];
  } catch {
    return undefined;
  }
}

export async function startPgBouncer(server: { host: string; port: number; user: string }, options: { poolSize?: number } = {}): Promise<RunningPgBouncer | undefined> {
  const version = pgbouncerVersion();
  if (!version) return undefined;
  const port = await freePort();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pgbouncer-'));
  // PgBouncer refuses to run as root: as root it is started with -u postgres, which must read these.
  await chmod(dir, 0o755);
  const ini = path.join(dir, 'pgbouncer.ini');
  const users = path.join(dir, 'users.txt');
  await writeFile(users, `"${server.user}" ""\n`, { mode: 0o644 });
  await writeFile(
    ini,
    [
      '[databases]',
      `* = host=${server.host} port=${server.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      `admin_users = ${server.user}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 4}`,
      'max_client_conn = 500',
      // node-postgres sends none of these today; a driver that does would otherwise be refused at connect.
      'ignore_startup_parameters = extra_float_digits,options',
      'server_reset_query =',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER_BINARY, [...(asRoot ? ['-u', server.user] : []), ini], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const adminUrl = `postgresql://${server.user}@127.0.0.1:${port}/pgbouncer`;
  const admin = async <Row>(statement: string): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      // The admin console speaks the simple protocol only.
      return (await client.query({ text: statement, queryMode: 'simple' } as pg.QueryConfig)).rows as Row[];
    } finally {
      await client.end();
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}): ${output}`);
      return (await admin('SHOW VERSION').then(() => true).catch(() => undefined));
    }, 10_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    port,
    version,
    through(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    admin,
    output: () => output,
    stop,
  };
}
