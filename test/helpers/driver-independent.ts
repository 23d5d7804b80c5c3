/**
 * The test files whose outcome cannot depend on the database driver of the run: neither they nor
 * any test module they import (transitively, within test/) opens the run's database or reads
 * which driver it is. CI runs the suite on PostgreSQL, then again on PGlite; this second pass
 * skips these files, which would only repeat themselves (vitest.config.ts, SECOND_DRIVER_PASS).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * What a module does when it depends on the run's driver (test/helpers/database.ts and its users).
 * A DATABASE_URL a test writes itself (an unreachable one, a configuration's) is not the run's.
 */
const USES_THE_RUN_DATABASE = /openTestDatabase|createTestContext|testDriver|inject\('testDatabase'\)|PostgresDatabase\(|migratedProcessDatabase|process\.env\.DATABASE_URL/;
const RELATIVE_IMPORT = /from '(\.{1,2}\/[^']+\.ts)'/g;

export function driverIndependentTests(root: string): string[] {
  const verdicts = new Map<string, boolean>();
  const dependsOnDriver = (file: string, seen: Set<string>): boolean => {
    const known = verdicts.get(file);
    if (known !== undefined) return known;
    if (seen.has(file) || !file.startsWith(path.join(root, 'test'))) return false;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const verdict =
      USES_THE_RUN_DATABASE.test(source) ||
      [...source.matchAll(RELATIVE_IMPORT)].some(([, specifier]) => dependsOnDriver(path.resolve(path.dirname(file), specifier!), seen));
    verdicts.set(file, verdict);
    return verdict;
  };
  return readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry.endsWith('.test.ts'))
    .map((entry) => path.join('test', entry))
    .filter((file) => !dependsOnDriver(path.join(root, file), new Set()));
}
