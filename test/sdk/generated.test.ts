/**
 * The SDK's generated types are the contract's: regenerating from docs/openapi.json must give
 * the committed file byte for byte, so a change of the API that forgot `npm run sdk:generate`
 * fails here rather than in a merchant's build.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTsToEnd } from '../helpers/processes.ts';
import { CONTRACT_PATH, GENERATED_PATH, generateTypes } from '../../sdk/scripts/generate.ts';

describe('sdk/src/generated/openapi.ts', () => {
  it('is what the generator makes of docs/openapi.json (else: npm run sdk:generate)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sdk-generate-'));
    try {
      const fresh = path.join(dir, 'openapi.ts');
      // The script itself, as `npm run sdk:generate` runs it, writing into the temporary folder.
      const run = await runTsToEnd('sdk/scripts/generate.ts', [fresh], {});
      expect(run.code, run.stderr).toBe(0);
      const committed = await readFile(GENERATED_PATH, 'utf8');
      expect(await readFile(fresh, 'utf8') === committed, 'sdk/src/generated/openapi.ts is stale: run npm run sdk:generate').toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('changes when the contract does (the comparison above can fail)', async () => {
    const contract = JSON.parse(await readFile(CONTRACT_PATH, 'utf8')) as { paths: Record<string, unknown> };
    contract.paths['/sdk-drift-probe'] = { get: { operationId: 'sdkDriftProbe', responses: { 204: { description: 'nothing' } } } };
    const changed = await generateTypes(JSON.stringify(contract));
    expect(changed).toContain('sdkDriftProbe');
    expect(changed).not.toBe(await readFile(GENERATED_PATH, 'utf8'));
  });
});
