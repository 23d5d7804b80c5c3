/**
 * The operator API's merchant credentials (/api/v1/admin/merchants/{id}/credentials), happy
 * path: issue, list (never with secrets), revoke idempotently, each audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext } from '../../helpers/app.ts';
import { API_KEY, API_SECRET, type CredentialBody, ISO_TIMESTAMP, type IssuedCredentialBody, UUID, adminFixture, keyHeaders } from './helpers.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});

afterAll(async () => {
  await ctx?.close();
});

const { issuedSecrets, admin, getMerchant, createViaApi, auditRows, expectAudit } = adminFixture(() => ctx);

/** Keys issued here carry no restriction; when one was last used is written off the request path (once a minute). */
const UNRESTRICTED = { expiresAt: null, allowedIps: null, scopes: null };
const LAST_USED = expect.toSatisfy((value: unknown) => value === null || ISO_TIMESTAMP.test(String(value)));

describe('credentials', () => {
  it('issues, lists (without secrets), revokes idempotently, and audits', async () => {
    const { merchant, credential: first } = await createViaApi('Credentials');

    const issue = await admin('POST', `/merchants/${merchant.id}/credentials`);
    expect(issue.statusCode).toBe(201);
    const second = issue.json() as IssuedCredentialBody;
    issuedSecrets.push(second.apiSecret);
    expect(Object.keys(second).sort()).toEqual(['allowedIps', 'apiKey', 'apiSecret', 'createdAt', 'expiresAt', 'id', 'label', 'lastUsedAt', 'revokedAt', 'scopes']);
    expect(second).toEqual({
      id: expect.stringMatching(UUID),
      apiKey: expect.stringMatching(API_KEY),
      apiSecret: expect.stringMatching(API_SECRET),
      label: null,
      ...UNRESTRICTED,
      lastUsedAt: null,
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
      revokedAt: null,
    });
    expect(second.apiKey).not.toBe(first.apiKey);
    expect(second.apiSecret).not.toBe(first.apiSecret);
    const { apiSecret: _secret, ...issued } = second;
    await expectAudit('credential.issue', 'credential', second.id, issue, { merchantId: merchant.id, apiKey: second.apiKey, after: issued });

    const me = await getMerchant(keyHeaders(second));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(merchant);

    const list = await admin('GET', `/merchants/${merchant.id}/credentials`);
    expect(list.statusCode).toBe(200);
    const items = list.json() as Array<Record<string, unknown>>;
    expect(items).toHaveLength(2);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(['allowedIps', 'apiKey', 'createdAt', 'expiresAt', 'id', 'label', 'lastUsedAt', 'revokedAt', 'scopes']);
    expect(items).toEqual([
      { id: second.id, apiKey: second.apiKey, label: null, ...UNRESTRICTED, lastUsedAt: LAST_USED, createdAt: second.createdAt, revokedAt: null },
      { id: first.id, apiKey: first.apiKey, label: null, ...UNRESTRICTED, lastUsedAt: LAST_USED, createdAt: first.createdAt, revokedAt: null },
    ]);
    expect(list.body).not.toContain(first.apiSecret);
    expect(list.body).not.toContain(second.apiSecret);
    expect(list.body.toLowerCase()).not.toContain('secret');
    expect(list.body.toLowerCase()).not.toContain('hash');

    const revoke = await admin('DELETE', `/merchants/${merchant.id}/credentials/${second.id}`);
    expect(revoke.statusCode).toBe(200);
    const revoked = revoke.json() as CredentialBody;
    expect(revoked).toEqual({ id: second.id, apiKey: second.apiKey, label: null, ...UNRESTRICTED, lastUsedAt: LAST_USED, createdAt: second.createdAt, revokedAt: expect.stringMatching(ISO_TIMESTAMP) });
    await expectAudit('credential.revoke', 'credential', second.id, revoke, {
      merchantId: merchant.id,
      apiKey: second.apiKey,
      before: { revokedAt: null },
      after: { revokedAt: revoked.revokedAt },
    });

    expectErrorBody(await getMerchant(keyHeaders(second)), 401, 'UNAUTHORIZED');
    // The merchant's other credential still works.
    expect((await getMerchant(keyHeaders(first))).statusCode).toBe(200);

    // Revoking again is idempotent: same answer, same revokedAt, no second audit row.
    const again = await admin('DELETE', `/merchants/${merchant.id}/credentials/${second.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...revoked, lastUsedAt: LAST_USED });
    expect((await auditRows()).filter((row) => row.action === 'credential.revoke' && row.target_id === second.id)).toHaveLength(1);

    const after = (await admin('GET', `/merchants/${merchant.id}/credentials`)).json() as CredentialBody[];
    expect(after).toEqual([
      { ...revoked, lastUsedAt: LAST_USED },
      { id: first.id, apiKey: first.apiKey, label: null, ...UNRESTRICTED, lastUsedAt: LAST_USED, createdAt: first.createdAt, revokedAt: null },
    ]);
  });
});
