/**
 * A streaming replica of the local PostgreSQL server (127.0.0.1:5432) for the tests of the read
 * replica: `pg_basebackup -R` into a temporary directory, then `pg_ctl start` on a free loopback
 * port, as the postgres user (a cluster refuses to run as root). The primary's pg_hba.conf needs
 * `host replication all 127.0.0.1/32 trust` (.ci/run adds it and reloads). `undefined`, with the
 * reason, when that or the binaries are missing. Docs: docs/architecture/scale.md, "Read replica".
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes.ts';

const run = promisify(execFile);

export interface RunningReplica {
  port: number;
  /** `url` (a database on the primary) on the replica. */
  on(url: string): string;
  stop(): Promise<void>;
}

function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort((a, b) => Number(a) - Number(b)).at(-1);
  return version ? path.join(root, version, 'bin') : undefined;
}

export async function startReplica(primary: { host: string; port: number; user: string }): Promise<RunningReplica | { skipped: string }> {
  const bin = postgresBin();
  if (!bin) return { skipped: 'no PostgreSQL server binaries under /usr/lib/postgresql' };
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? (await run('id', ['-u', 'postgres'])).stdout.trim() : undefined;
  const group = asRoot ? (await run('id', ['-g', 'postgres'])).stdout.trim() : undefined;
  const as = (command: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args));

  const dir = await mkdtemp(path.join(os.tmpdir(), 'replica-'));
  await chmod(dir, 0o755);
  if (owner && group) await chown(dir, Number(owner), Number(group));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const stop = async () => {
    await as(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await as(path.join(bin, 'pg_basebackup'), ['-h', primary.host, '-p', String(primary.port), '-U', primary.user, '-D', data, '-R', '-X', 'stream', '-c', 'fast']);
  } catch (err) {
    await stop();
    const message = (err as { stderr?: string }).stderr ?? String(err);
    return { skipped: `pg_basebackup from ${primary.host}:${primary.port} failed (a replication entry in pg_hba.conf? .ci/run adds it): ${message.trim()}` };
  }
  // Debian keeps the primary's configuration in /etc: the copy has none of its own. (max_connections
  // and the like stay at their defaults: a hot standby refuses less than the primary has.)
  const files = {
    'postgresql.conf': `listen_addresses = '127.0.0.1'\nport = ${port}\nunix_socket_directories = '${dir}'\nhot_standby = on\nfsync = off\n`,
    'pg_hba.conf': 'local all all trust\nhost all all 127.0.0.1/32 trust\n',
    'pg_ident.conf': '',
  };
  for (const [name, text] of Object.entries(files)) {
    await writeFile(path.join(data, name), text, { mode: 0o600 });
    if (owner && group) await chown(path.join(data, name), Number(owner), Number(group));
  }
  try {
    await as(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']);
  } catch (err) {
    const log = await readFile(path.join(dir, 'log'), 'utf8').catch(() => '');
    await stop();
    throw new Error(`the replica did not start: ${String(err)}\n${log}`, { cause: err });
  }
  return {
    port,
    on(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    stop,
  };
}
