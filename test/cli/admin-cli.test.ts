import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openConfiguredDatabase } from '../../src/db/open-configured.ts';
import { resolveRuntimeConfig } from '../../src/runtime-config.ts';
import { migratedProcessDatabase } from '../helpers/database.ts';
import { runTsToEnd } from '../helpers/processes.ts';

// The CLI runs against the database this test run uses: a migrated copy of its template (PostgreSQL, or PGlite under DATA_DIR).
// Each step starts the CLI as its own process, which opens the database (PGlite takes seconds to start, more on a loaded machine).
describe('npm run admin', { timeout: 120_000 }, () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await migratedProcessDatabase('exchange-cli');
    env = database.env;
    cleanup = database.drop;
  });
  afterAll(() => cleanup());

  it('create-merchant prints working credentials as JSON on stdout', async () => {
    const result = await runTsToEnd('src/cli/admin.ts', ['create-merchant', '--name', 'Acme'], env);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(Object.keys(printed).sort()).toEqual(['apiKey', 'apiSecret', 'merchantId']);

    const issued = await runTsToEnd('src/cli/admin.ts', ['issue-credential', '--merchant', printed.merchantId], env);
    expect(issued.code, issued.stderr).toBe(0);
    const second = JSON.parse(issued.stdout);
    expect(second).toMatchObject({ merchantId: printed.merchantId, apiKey: expect.stringMatching(/^mk_/) });

    // The printed secrets authenticate against the same database with the same keys.
    const { config } = await resolveRuntimeConfig(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    const database = await openConfiguredDatabase(config);
    const app = await buildApp({ config, db: database.db });
    try {
      for (const credential of [printed, second]) {
        const response = await app.inject({
          url: '/api/v1/merchant',
          headers: { 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret },
        });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ id: printed.merchantId, name: 'Acme' });
      }
      const audit = await database.db.selectFrom('admin_audit_log').select(['action', 'actor']).orderBy('created_at').execute();
      expect(audit.map((row) => row.action)).toEqual(['merchant.create', 'credential.issue']);
      expect(audit.every((row) => row.actor.startsWith('cli:'))).toBe(true);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('set-destination-policy sets a merchant’s policy, audited as the CLI operator', async () => {
    const created = JSON.parse((await runTsToEnd('src/cli/admin.ts', ['create-merchant', '--name', 'Marketplace'], env)).stdout);
    const result = await runTsToEnd('src/cli/admin.ts', ['set-destination-policy', '--merchant', created.merchantId, '--policy', 'ANY', '--reason', 'pays sellers'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ merchantId: created.merchantId, destinationPolicy: 'ANY' });
    const bad = await runTsToEnd('src/cli/admin.ts', ['set-destination-policy', '--merchant', created.merchantId, '--policy', 'ANYWHERE'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--policy must be RECEIVER_ONLY or ANY');
    const { config } = await resolveRuntimeConfig(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    const database = await openConfiguredDatabase(config);
    try {
      const audit = await database.db.selectFrom('admin_audit_log').selectAll().where('action', '=', 'merchant.destination_policy').where('target_id', '=', created.merchantId).execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actor: expect.stringMatching(/^cli:/), details: { from: 'RECEIVER_ONLY', to: 'ANY', reason: 'pays sellers' } });
    } finally {
      await database.close();
    }
  });

  it('set-policies sets the payer and wallet ownership policies, each change audited', async () => {
    const created = JSON.parse((await runTsToEnd('src/cli/admin.ts', ['create-merchant', '--name', 'Compliance Co'], env)).stdout);
    const args = ['set-policies', '--merchant', created.merchantId, '--payer-policy', 'FIRST_PARTY', '--wallet-ownership-policy', 'LIMITED', '--unproven-wallet-limit-brl', '500.00', '--reason', 'review'];
    const result = await runTsToEnd('src/cli/admin.ts', args, env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ merchantId: created.merchantId, payerPolicy: 'FIRST_PARTY', walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: 500 });
    const bad = await runTsToEnd('src/cli/admin.ts', ['set-policies', '--merchant', created.merchantId, '--payer-policy', 'NOBODY'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--payer-policy must be ANY or FIRST_PARTY');
    const { config } = await resolveRuntimeConfig(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    const database = await openConfiguredDatabase(config);
    try {
      const audit = await database.db.selectFrom('admin_audit_log').select('action').where('target_id', '=', created.merchantId).where('action', '<>', 'merchant.create').execute();
      expect(audit.map((a) => a.action).sort()).toEqual(['merchant.payer_policy', 'merchant.unproven_wallet_limit_brl', 'merchant.wallet_ownership_policy']);
    } finally {
      await database.close();
    }
  });

  it('invite-operator (break-glass during the bootstrap) emails a link and prints the invitation, never the link nor a password', async () => {
    const result = await runTsToEnd('src/cli/admin.ts', ['invite-operator', '--email', 'Root.Ops@Example.com', '--role', 'ADMIN'], env);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toMatchObject({ email: 'root.ops@example.com', role: 'ADMIN', invitedBy: expect.stringMatching(/^cli:/), approvalId: null });
    expect(result.stdout).not.toMatch(/accept-invitation|password/i);
    // The development email port: the message is logged (to stderr, so stdout stays JSON).
    expect(result.stderr).toMatch(/ops\/accept-invitation#[A-Za-z0-9_-]{43}/);
    expect((await runTsToEnd('src/cli/admin.ts', ['invite-operator', '--email', 'x@example.com', '--role', 'ROOT'], env)).code).toBe(1);
  });

  it('refuses bad usage with a message and a non-zero exit', async () => {
    const missingName = await runTsToEnd('src/cli/admin.ts', ['create-merchant'], env);
    expect(missingName.code).toBe(1);
    expect(missingName.stderr).toContain('--name');
    expect(missingName.stdout).toBe('');
    const unknown = await runTsToEnd('src/cli/admin.ts', ['drop-everything'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('usage');
    const noMerchant = await runTsToEnd('src/cli/admin.ts', ['issue-credential', '--merchant', '00000000-0000-7000-8000-000000000000'], env);
    expect(noMerchant.code).toBe(1);
    expect(noMerchant.stderr).toContain('Merchant not found');
  });

  it('reports a bad setting by name', async () => {
    const result = await runTsToEnd('src/cli/admin.ts', ['create-merchant', '--name', 'Acme'], { ...env, PORT: 'many' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT must be an integer');
  });
});
