import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { ISO_TIMESTAMP, UUID, API_KEY, API_SECRET, type MerchantBody, type CredentialBody, type IssuedCredentialBody, ctx, issuedSecrets, admin, getMerchant, keyHeaders, createViaApi, auditRows, expectAudit, useAdminContext } from './helpers.ts';

describe('admin: merchants and credentials', () => {
  useAdminContext();

  describe('POST /admin/merchants', () => {
    it('creates an ACTIVE merchant with a working credential, and audits it', async () => {
      const { merchant, credential, response } = await createViaApi('Loja Exemplo Ltda');
      const body = response.json() as Record<string, Record<string, unknown>>;
      expect(Object.keys(body).sort()).toEqual(['credential', 'merchant']);
      expect(Object.keys(body.merchant!).sort()).toEqual(['createdAt', 'id', 'name', 'status']);
      expect(Object.keys(body.credential!).sort()).toEqual(['apiKey', 'apiSecret', 'createdAt', 'id', 'revokedAt']);
      expect(merchant).toEqual({ id: expect.stringMatching(UUID), name: 'Loja Exemplo Ltda', status: 'ACTIVE', createdAt: expect.stringMatching(ISO_TIMESTAMP) });
      expect(credential).toEqual({
        id: expect.stringMatching(UUID),
        apiKey: expect.stringMatching(API_KEY),
        apiSecret: expect.stringMatching(API_SECRET),
        createdAt: expect.stringMatching(ISO_TIMESTAMP),
        revokedAt: null,
      });
      expect(credential.id).not.toBe(merchant.id);

      const me = await getMerchant(keyHeaders(credential));
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual(merchant);

      const byId = await admin('GET', `/merchants/${merchant.id}`);
      expect(byId.statusCode).toBe(200);
      expect(byId.json()).toEqual(merchant);

      await expectAudit('merchant.create', 'merchant', merchant.id, response, { name: 'Loja Exemplo Ltda', credentialId: credential.id });
    });
  });

  describe('GET /admin/merchants', () => {
    it('pages newest first with {data, total, page, limit}', async () => {
      await createViaApi('Page One');
      await createViaApi('Page Two');
      await createViaApi('Page Three');
      const all = await ctx.database.db.selectFrom('merchants').select('id').orderBy('id', 'desc').execute();
      const expectedIds = all.map((row) => row.id);
      expect(expectedIds.length).toBeGreaterThanOrEqual(3);

      const first = await admin('GET', '/merchants?page=1&limit=2');
      expect(first.statusCode).toBe(200);
      const page1 = first.json() as { data: MerchantBody[]; total: number; page: number; limit: number };
      expect(Object.keys(page1).sort()).toEqual(['data', 'limit', 'page', 'total']);
      expect(page1.total).toBe(expectedIds.length);
      expect(page1.page).toBe(1);
      expect(page1.limit).toBe(2);
      expect(page1.data.map((m) => m.id)).toEqual(expectedIds.slice(0, 2));
      // Newest first: the last merchant created is on top, in full.
      expect(page1.data[0]).toEqual(await ctx.app.services.merchants.getMerchant(expectedIds[0]!));
      expect(page1.data[0]!.name).toBe('Page Three');
      for (const merchant of page1.data) expect(Object.keys(merchant).sort()).toEqual(['createdAt', 'id', 'name', 'status']);

      const second = (await admin('GET', '/merchants?page=2&limit=2')).json() as typeof page1;
      expect(second).toMatchObject({ total: expectedIds.length, page: 2, limit: 2 });
      expect(second.data.map((m) => m.id)).toEqual(expectedIds.slice(2, 4));

      const beyond = (await admin('GET', '/merchants?page=1000&limit=2')).json() as typeof page1;
      expect(beyond).toEqual({ data: [], total: expectedIds.length, page: 1000, limit: 2 });
    });

    it('page and limit default to 1 and 20 when omitted', async () => {
      const newest = await ctx.database.db.selectFrom('merchants').select('id').orderBy('id', 'desc').limit(20).execute();
      const expectedIds = newest.map((row) => row.id);
      const defaults = await admin('GET', '/merchants');
      expect(defaults.statusCode).toBe(200);
      const body = defaults.json() as { data: MerchantBody[]; page: number; limit: number };
      expect(body.page).toBe(1);
      expect(body.limit).toBe(20);
      expect(body.data.map((m) => m.id)).toEqual(expectedIds);

      const onlyLimit = await admin('GET', '/merchants?limit=5');
      expect(onlyLimit.statusCode).toBe(200);
      expect(onlyLimit.json()).toMatchObject({ page: 1, limit: 5 });
    });

    it('limit=100 is allowed', async () => {
      const response = await admin('GET', '/merchants?page=1&limit=100');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ page: 1, limit: 100 });
    });
  });

  describe('disable and enable', () => {
    it("disabling makes the merchant's credentials 403, enabling restores them; both are audited", async () => {
      const { merchant, credential } = await createViaApi('Toggle');
      const token = await ctx.bearerFor({ merchantId: merchant.id, credentialId: credential.id, apiKey: credential.apiKey, apiSecret: credential.apiSecret, headers: keyHeaders(credential) });

      const disable = await admin('POST', `/merchants/${merchant.id}/disable`);
      expect(disable.statusCode).toBe(200);
      expect(disable.json()).toEqual({ ...merchant, status: 'DISABLED' });
      await expectAudit('merchant.disable', 'merchant', merchant.id, disable, { from: 'ACTIVE', to: 'DISABLED' });

      expectErrorBody(await getMerchant(keyHeaders(credential)), 403, 'FORBIDDEN');
      expectErrorBody(await getMerchant(token), 403, 'FORBIDDEN');
      expect((await admin('GET', `/merchants/${merchant.id}`)).json()).toEqual({ ...merchant, status: 'DISABLED' });

      // Disabling again changes nothing and records nothing.
      const again = await admin('POST', `/merchants/${merchant.id}/disable`);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ ...merchant, status: 'DISABLED' });
      expect((await auditRows()).filter((row) => row.action === 'merchant.disable' && row.target_id === merchant.id)).toHaveLength(1);

      const enable = await admin('POST', `/merchants/${merchant.id}/enable`);
      expect(enable.statusCode).toBe(200);
      expect(enable.json()).toEqual(merchant);
      await expectAudit('merchant.enable', 'merchant', merchant.id, enable, { from: 'DISABLED', to: 'ACTIVE' });

      const me = await getMerchant(keyHeaders(credential));
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual(merchant);
      expect((await getMerchant(token)).statusCode).toBe(200);
    });
  });

  describe('credentials', () => {
    it('issues, lists (without secrets), revokes idempotently, and audits', async () => {
      const { merchant, credential: first } = await createViaApi('Credentials');

      const issue = await admin('POST', `/merchants/${merchant.id}/credentials`);
      expect(issue.statusCode).toBe(201);
      const second = issue.json() as IssuedCredentialBody;
      issuedSecrets.push(second.apiSecret);
      expect(Object.keys(second).sort()).toEqual(['apiKey', 'apiSecret', 'createdAt', 'id', 'revokedAt']);
      expect(second).toEqual({
        id: expect.stringMatching(UUID),
        apiKey: expect.stringMatching(API_KEY),
        apiSecret: expect.stringMatching(API_SECRET),
        createdAt: expect.stringMatching(ISO_TIMESTAMP),
        revokedAt: null,
      });
      expect(second.apiKey).not.toBe(first.apiKey);
      expect(second.apiSecret).not.toBe(first.apiSecret);
      await expectAudit('credential.issue', 'credential', second.id, issue, { merchantId: merchant.id, apiKey: second.apiKey });

      const me = await getMerchant(keyHeaders(second));
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual(merchant);

      const list = await admin('GET', `/merchants/${merchant.id}/credentials`);
      expect(list.statusCode).toBe(200);
      const items = list.json() as Array<Record<string, unknown>>;
      expect(items).toHaveLength(2);
      for (const item of items) expect(Object.keys(item).sort()).toEqual(['apiKey', 'createdAt', 'id', 'revokedAt']);
      expect(items).toEqual([
        { id: second.id, apiKey: second.apiKey, createdAt: second.createdAt, revokedAt: null },
        { id: first.id, apiKey: first.apiKey, createdAt: first.createdAt, revokedAt: null },
      ]);
      expect(list.body).not.toContain(first.apiSecret);
      expect(list.body).not.toContain(second.apiSecret);
      expect(list.body.toLowerCase()).not.toContain('secret');
      expect(list.body.toLowerCase()).not.toContain('hash');

      const revoke = await admin('DELETE', `/merchants/${merchant.id}/credentials/${second.id}`);
      expect(revoke.statusCode).toBe(200);
      const revoked = revoke.json() as CredentialBody;
      expect(revoked).toEqual({ id: second.id, apiKey: second.apiKey, createdAt: second.createdAt, revokedAt: expect.stringMatching(ISO_TIMESTAMP) });
      await expectAudit('credential.revoke', 'credential', second.id, revoke, { merchantId: merchant.id, apiKey: second.apiKey });

      expectErrorBody(await getMerchant(keyHeaders(second)), 401, 'UNAUTHORIZED');
      // The merchant's other credential still works.
      expect((await getMerchant(keyHeaders(first))).statusCode).toBe(200);

      // Revoking again is idempotent: same answer, same revokedAt, no second audit row.
      const again = await admin('DELETE', `/merchants/${merchant.id}/credentials/${second.id}`);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(revoked);
      expect((await auditRows()).filter((row) => row.action === 'credential.revoke' && row.target_id === second.id)).toHaveLength(1);

      const after = (await admin('GET', `/merchants/${merchant.id}/credentials`)).json() as CredentialBody[];
      expect(after).toEqual([revoked, { id: first.id, apiKey: first.apiKey, createdAt: first.createdAt, revokedAt: null }]);
    });
  });

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
      const dump = JSON.stringify(rows);
      for (const secret of issuedSecrets) expect(dump).not.toContain(secret);
      for (const hash of hashes) expect(dump).not.toContain(hash);
      expect(dump).not.toMatch(/sk_[A-Za-z0-9_-]{43}/);
    });
  });
});
