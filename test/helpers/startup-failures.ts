/**
 * What the failure tests of the service's start (test/e2e/startup-failures*.test.ts) and of the
 * CLI (test/cli/cli-failures*.test.ts) share: a start run to its exit, the one line a known
 * failure prints, and production's keys.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { runTsToEnd } from './processes.ts';

/** `node src/main.ts` on `dataDir`, run to its exit (a failed start exits at once). */
export const startToExit = (dataDir: string, env: Record<string, string>) => runTsToEnd('src/main.ts', [], { DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env });

/** The start failed (exit 1) with exactly one line on stderr, matching `pattern`. */
export function expectOneLine(result: { code: number | null; stderr: string }, pattern: RegExp): void {
  expect(result.code).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

/** A CLI command failed (non-zero exit) with exactly one line on stderr matching `pattern`, no stack and nothing on stdout. */
export function expectCliFailureLine(result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  expect(result.code, result.stderr).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(result.stderr, 'no stack frames').not.toMatch(/^\s+at /m);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(result.stdout).toBe('');
}

/** The keys production requires, fresh (the formats `admin generate-keys` prints). */
export function productionKeys(): Record<string, string> {
  const sponsor = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  return {
    JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    API_SECRET_PEPPER: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    WALLET_KEK: randomBytes(32).toString('base64'),
    SPONSOR_PRIVATE_KEY: JSON.stringify([...Buffer.from(sponsor.d!, 'base64url'), ...Buffer.from(sponsor.x!, 'base64url')]),
  };
}
