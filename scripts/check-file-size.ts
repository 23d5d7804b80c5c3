/**
 * Keeps source files small enough to read in one sitting: every file under src/ but the
 * migrations, under sdk/ but the generated types, and under web/src (the dashboard), has at most
 * MAX_LINES lines. Run by CI
 * (`npm run lint:size`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const MAX_LINES = 400;
const EXEMPT = /[/\\]db[/\\]migrations[/\\]|^sdk[/\\]src[/\\]generated[/\\]/;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.tsx?$/.test(entry.name) && !EXEMPT.test(full)) yield full;
  }
}

const tooLong = [...sourceFiles('src'), ...sourceFiles('sdk/src'), ...sourceFiles('sdk/scripts'), ...sourceFiles('web/src')]
  .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
  .filter(({ lines }) => lines > MAX_LINES);

for (const { file, lines } of tooLong) console.error(`${file}: ${lines} lines (at most ${MAX_LINES})`);
if (tooLong.length > 0) process.exit(1);
console.log(`lint:size: every file under src/, sdk/ and web/src has at most ${MAX_LINES} lines`);
