/**
 * The audit trail of the operator API: every admin action leaves a row with actor, target and
 * request id, and no row ever holds a secret or a secret's hash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { type IssuedCredentialBody, UUID, adminFixture } from './helpers.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});

afterAll(async () => {
  await ctx?.close();
});

const { issuedSecrets, admin, createViaApi, auditRows } = adminFixture(() => ctx);

describe('audit log', () => {
  it('holds every admin action with actor, target and request id, and never a secret or a secret hash', async () => {
    // One of each action, so this test stands on its own.
    const { merchant } = await createViaApi('Audited');
    expect((await admin('POST', `/merchants/${merchant.id}/disable`)).statusCode).toBe(200);
    expect((await admin('POST', `/merchants/${merchant.id}/enable`)).statusCode).toBe(200);
    const issue = await admin('POST', `/merchants/${merchant.id}/credentials`);
    expect(issue.statusCode).toBe(201);
    const issued = issue.json() as IssuedCredentialBody;
    issuedSecrets.push(issued.apiSecret);
    expect((await admin('DELETE', `/merchants/${merchant.id}/credentials/${issued.id}`)).statusCode).toBe(200);

    const rows = await auditRows();
    // Every request made with the admin token is itself on record, whatever it did.
    const tokenUses = await ctx.database.db.selectFrom('admin_audit_log').selectAll().where('action', '=', 'admin_token.use').execute();
    const routesUsed = tokenUses.map((row) => row.target_id);
    expect(routesUsed).toEqual(expect.arrayContaining(['POST /api/v1/admin/merchants/:id/disable', 'DELETE /api/v1/admin/merchants/:id/credentials/:credentialId']));
    for (const use of tokenUses) expect(use.actor).toBe('admin-api@127.0.0.1');
    const adminRows = rows.filter((row) => row.actor.startsWith('admin-api'));
    const actions = new Set(adminRows.map((row) => row.action));
    expect([...actions]).toEqual(
      expect.arrayContaining(['credential.issue', 'credential.revoke', 'merchant.create', 'merchant.disable', 'merchant.enable']),
    );
    for (const row of adminRows) {
      expect(row.request_id).toEqual(expect.any(String));
      expect(row.target_id).toEqual(expect.stringMatching(UUID));
    }

    expect(issuedSecrets.length).toBeGreaterThanOrEqual(2);
    const hashes = (await ctx.database.db.selectFrom('api_credentials').select('secret_hash').execute()).map((row) => row.secret_hash);
    const dump = JSON.stringify([...rows, ...tokenUses]);
    for (const secret of issuedSecrets) expect(dump).not.toContain(secret);
    for (const hash of hashes) expect(dump).not.toContain(hash);
    expect(dump).not.toMatch(/sk_[A-Za-z0-9_-]{43}/);
  });
});
