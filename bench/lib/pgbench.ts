/** pgbench with bench/pgbench-update-insert.sql: the database's own rate for an update + insert transaction. */
import { spawn } from 'node:child_process';
import { withClient } from './database.ts';

export interface PgbenchFigures {
  tps: number;
  latencyAverageMs: number;
  transactions: number;
  failed: number;
  clients: number;
  durationSeconds: number;
  command: string;
}

export async function preparePgbench(dbUrl: string): Promise<void> {
  await withClient(dbUrl, async (client) => {
    await client.query(`create table bench_pgb_accounts (id integer primary key, balance numeric(18, 2) not null default 0, updated_at timestamptz not null default now())`);
    await client.query(`insert into bench_pgb_accounts (id) select generate_series(1, 100000)`);
    await client.query(
      `create table bench_pgb_history (id bigint generated always as identity primary key, account_id integer not null references bench_pgb_accounts (id),
                                       amount numeric(18, 2) not null, note text not null, created_at timestamptz not null default now())`,
    );
    await client.query('analyze bench_pgb_accounts');
  });
}

export async function dropPgbenchTables(dbUrl: string): Promise<void> {
  await withClient(dbUrl, (client) => client.query('drop table if exists bench_pgb_history, bench_pgb_accounts'));
}

export function runPgbench(dbUrl: string, script: string, clients: number, durationSeconds: number): Promise<PgbenchFigures> {
  const url = new URL(dbUrl);
  const args = ['-n', '-c', String(clients), '-j', '2', '-T', String(durationSeconds), '-f', script, '-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres'), url.pathname.slice(1)];
  const command = `pgbench ${args.join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('pgbench', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), (durationSeconds + 60) * 1000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
      if (code !== 0 || !tps) return reject(new Error(`pgbench failed (${code}):\n${out}`));
      resolve({
        tps: Number(tps[1]),
        latencyAverageMs: Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? NaN),
        transactions: Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1] ?? NaN),
        failed: Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0),
        clients,
        durationSeconds,
        command,
      });
    });
  });
}
