/**
 * A payout batch's wall time on the production path (issue 43's bench): from the one SPL transfer
 * that funds it to the last PIX settled, for 1,000 lines against a 200-line baseline run in the
 * same session, alternated so a noisy machine weighs on both alike. Each run is one pass of
 * test/e2e/payout-batch-production-path.test.ts (PSP and chain simulators in their own processes,
 * CHAIN_PROVIDER=solana-rpc, PIX_PROVIDER=api-pix, sandbox off; the worker's jobs driven by the
 * test) with PAYOUT_BATCH_LINES set; the database is DATABASE_URL's (PGlite without it).
 *
 *   npx node bench/payout-batch.ts [rounds, default 2] [lines, default 1000] [baseline lines, default 200]
 */
import { spawnSync } from 'node:child_process';

const rounds = Number(process.argv[2] ?? 2);
const lines = Number(process.argv[3] ?? 1000);
const baseline = Number(process.argv[4] ?? 200);

function wallMs(count: number): number {
  const run = spawnSync('npx', ['vitest', 'run', 'test/e2e/payout-batch-production-path.test.ts', '--silent=false'], {
    env: { ...process.env, PAYOUT_BATCH_LINES: String(count) },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const found = /(\d+)-line batch on the production path: funding to the last PIX settled in (\d+) ms/.exec(run.stdout);
  if (run.status !== 0 || !found) throw new Error(`the ${count}-line run failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`);
  return Number(found[2]);
}

const rows: Array<{ round: number; base: number; large: number }> = [];
for (let round = 1; round <= rounds; round++) {
  const base = wallMs(baseline);
  const large = wallMs(lines);
  rows.push({ round, base, large });
  console.error(`round ${round}: ${baseline} lines ${base} ms, ${lines} lines ${large} ms`);
}
const perLine = (ms: number, count: number) => (ms / count).toFixed(1);
console.log(`| round | ${baseline} lines (ms) | ${lines} lines (ms) | ms/line at ${baseline} | ms/line at ${lines} | ${lines} ÷ ${baseline} |`);
console.log('|---|---|---|---|---|---|');
for (const { round, base, large } of rows) {
  console.log(`| ${round} | ${base} | ${large} | ${perLine(base, baseline)} | ${perLine(large, lines)} | ${(large / base).toFixed(2)} |`);
}
