/**
 * By-hand mutants (docs/architecture/mutation-testing.md): the boundaries Stryker cannot reach.
 * Stryker does not mutate decimal.js calls (`a.lt(b)` is a method call to it, not an operator),
 * and under vitest's `isolate: false` it reports module-level mutants (a constant table such as
 * the MED state machine's) as survived without running them. Each mutant here replaces one exact
 * text in one file, runs the tests that should notice, and restores the file, whatever happens.
 *
 *   npm run mutation:by-hand                      every mutant
 *   npm run mutation:by-hand -- --only money      the mutants whose id contains "money"
 *
 * Exits 1 when a mutant survives. Runs one vitest process at a time (the machine is shared).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { MUTANTS } from './mutation-by-hand.mutants.ts';

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const chosen = MUTANTS.filter((mutant) => only === undefined || mutant.id.includes(only));
const originals = new Map<string, string>();
/** Longer than any listed test file takes on a loaded machine. */
const TIMEOUT_MS = 180_000;

function restoreAll() {
  for (const [file, text] of originals) writeFileSync(file, text);
  originals.clear();
}
// A run cut short (Ctrl-C) must not leave a mutant in the source.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    restoreAll();
    process.exit(130);
  });
}

const results: Array<{ id: string; killed: boolean; ms: number }> = [];
for (const mutant of chosen) {
  const original = readFileSync(mutant.file, 'utf8');
  const count = original.split(mutant.find).length - 1;
  if (count !== 1) {
    console.error(`${mutant.id}: "${mutant.find}" occurs ${count} times in ${mutant.file} (must be once): fix the mutant`);
    process.exitCode = 2;
    continue;
  }
  originals.set(mutant.file, original);
  const started = Date.now();
  try {
    writeFileSync(mutant.file, original.replace(mutant.find, mutant.replace));
    // A mutant that loops for ever (a search whose bound became Infinity) is detected, as Stryker counts a timeout.
    const run = spawnSync('node_modules/.bin/vitest', ['run', '--bail=1', ...mutant.tests], { encoding: 'utf8', timeout: TIMEOUT_MS, env: { ...process.env, FORCE_COLOR: '0' } });
    results.push({ id: mutant.id, killed: run.status !== 0, ms: Date.now() - started });
  } finally {
    restoreAll();
  }
  const last = results.at(-1)!;
  console.log(`${last.killed ? 'killed  ' : 'SURVIVED'} ${mutant.id} (${Math.round(last.ms / 1000)} s)`);
}

const killed = results.filter((r) => r.killed).length;
console.log(`\n${killed} of ${results.length} by-hand mutants killed (${results.length ? Math.round((100 * killed) / results.length) : 100} %)`);
if (killed < results.length) process.exitCode = 1;
