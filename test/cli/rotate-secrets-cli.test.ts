/**
 * `npm run admin -- rotate-secrets` (issue 38, secrets rotate without downtime): with the old
 * API_SECRET_PEPPER in API_SECRET_PEPPER_PREVIOUS it re-seals every stored API secret's digest
 * under the new pepper and prints counts; a rerun prints zeros; a value no configured key opens is
 * one line naming what to set, and no output carries a key.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { migratedProcessDatabase } from '../helpers/database.ts';
import { runTsToEnd } from '../helpers/processes.ts';

const cleanups: Array<() => Promise<void>> = [];
afterAll(() => Promise.all(cleanups.map((cleanup) => cleanup())));

const OLD = 'old-pepper-'.padEnd(40, 'o');
const NEW = 'new-pepper-'.padEnd(40, 'n');
const WEBHOOK = 'webhook-key-'.padEnd(40, 'w');
const admin = (args: string[], env: Record<string, string>) => runTsToEnd('src/cli/admin.ts', args, env);

// Each step starts the CLI as its own process, which opens the database (PGlite takes seconds to start).
describe('npm run admin -- rotate-secrets', { timeout: 180_000 }, () => {
  it('re-seals what the previous pepper sealed, prints counts, reruns to zeros, and a key it lacks is one line', async () => {
    const database = await migratedProcessDatabase('exchange-rotate-secrets');
    cleanups.push(database.drop);
    const env = { ...database.env, WEBHOOK_SECRET_KEY: WEBHOOK };

    const created = await admin(['create-merchant', '--name', 'Before the rotation'], { ...env, API_SECRET_PEPPER: OLD });
    expect(created.code, created.stderr).toBe(0);

    const rotating = { ...env, API_SECRET_PEPPER: NEW, API_SECRET_PEPPER_PREVIOUS: OLD };
    const first = await admin(['rotate-secrets'], rotating);
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout) as { resealed: Record<string, { resealed: number; unsealable: number }> };
    expect(Object.keys(report.resealed)).toEqual(['apiCredentials', 'webhookSecrets', 'userTotpSecrets', 'operatorTotpSecrets', 'idempotentAnswers']);
    expect(report.resealed.apiCredentials).toEqual({ resealed: 1, unsealable: 0 });

    const rerun = await admin(['rotate-secrets'], rotating);
    expect(rerun.code, rerun.stderr).toBe(0);
    for (const counts of Object.values((JSON.parse(rerun.stdout) as typeof report).resealed)) expect(counts).toEqual({ resealed: 0, unsealable: 0 });

    const lacking = await admin(['rotate-secrets'], { ...env, API_SECRET_PEPPER: 'a-third-pepper-'.padEnd(40, 't') });
    expect(lacking.code).toBe(1);
    expect(lacking.stdout).toBe('');
    const lines = lacking.stderr.trim().split('\n');
    expect(lines, lacking.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/apiCredentials .* opens under neither API_SECRET_PEPPER nor API_SECRET_PEPPER_PREVIOUS: set API_SECRET_PEPPER_PREVIOUS/);
    for (const output of [first, rerun, lacking]) for (const key of [OLD, NEW, WEBHOOK]) expect(output.stdout + output.stderr).not.toContain(key);
  });
});
