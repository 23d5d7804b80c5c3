/**
 * Secrets rotate without downtime (issue 38): WEBHOOK_SECRET_KEY and API_SECRET_PEPPER gain a
 * previous-version slot. While it holds the old key, what the old key sealed keeps working (API
 * secrets, TOTP secrets, webhook signing secrets, stored idempotent answers); `rotate-secrets`
 * re-seals every row under the current key, a rerun changes nothing, and then the previous slot
 * can go. API secrets stored in the older HMAC form are re-sealed at their next use.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/http/types.ts';
import { createRotatingBox } from '../../src/lib/rotating-box.ts';
import { IDEMPOTENCY_ANSWERS_PURPOSE } from '../../src/platform/idempotency/store.ts';
import { TOTP_SECRETS_PURPOSE } from '../../src/modules/users/totp.ts';
import { createSecretBox } from '../../src/modules/webhooks/secrets.ts';
import { resealSecrets, SecretRotationError } from '../../src/platform/secret-rotation.ts';
import { sealedSecretColumns } from '../../src/secret-custody.ts';
import { createTestContext, TestClock, type TestContext, type TestMerchant } from '../helpers/app.ts';
import { operatorsOf } from '../helpers/operators.ts';
import { PASSWORD } from '../helpers/people.ts';

const clock = new TestClock(new Date('2026-12-05T12:00:10Z'));
const OLD = { pepper: 'old-pepper-'.padEnd(40, 'o'), webhook: 'old-webhook-key-'.padEnd(40, 'o') };
const NEW = { pepper: 'new-pepper-'.padEnd(40, 'n'), webhook: 'new-webhook-key-'.padEnd(40, 'n') };
const ROTATING = { API_SECRET_PEPPER: NEW.pepper, API_SECRET_PEPPER_PREVIOUS: OLD.pepper, WEBHOOK_SECRET_KEY: NEW.webhook, WEBHOOK_SECRET_KEY_PREVIOUS: OLD.webhook };
const ROTATED = { API_SECRET_PEPPER: NEW.pepper, WEBHOOK_SECRET_KEY: NEW.webhook };
const rotatedConfig = { apiSecretPepper: NEW.pepper, apiSecretPepperPrevious: OLD.pepper, webhookSecretKey: NEW.webhook, webhookSecretKeyPrevious: OLD.webhook };

describe('rotating WEBHOOK_SECRET_KEY and API_SECRET_PEPPER', () => {
  let ctx: TestContext;
  let used: TestMerchant;
  let unused: TestMerchant;
  let legacy: { apiKey: string; apiSecret: string; id: string };
  let operator: { email: string; secret: string };
  let webhookSecret: string;

  const merchantCall = (app: App, merchant: Pick<TestMerchant, 'apiKey' | 'apiSecret'>) =>
    app.inject({ method: 'GET', url: '/api/v1/merchant', headers: { 'x-api-key': merchant.apiKey, 'x-api-secret': merchant.apiSecret } });
  const operatorSignIn = (app: App, totp: string) => app.inject({ method: 'POST', url: '/api/v1/admin/auth/sessions', payload: { email: operator.email, password: PASSWORD, totp } });
  const storedHash = async (id: string) => (await ctx.database.db.selectFrom('api_credentials').select('secret_hash').where('id', '=', id).executeTakeFirstOrThrow()).secret_hash;

  beforeAll(async () => {
    ctx = await createTestContext({ API_SECRET_PEPPER: OLD.pepper, WEBHOOK_SECRET_KEY: OLD.webhook }, { clock });
    used = await ctx.createMerchant('Uses its key during the rotation');
    unused = await ctx.createMerchant('Idle during the rotation');
    // A credential stored before this change: hex HMAC-SHA256(pepper, secret).
    const older = await ctx.createMerchant('Stored in the older form');
    legacy = { apiKey: older.apiKey, apiSecret: older.apiSecret, id: older.credentialId };
    await ctx.database.db.updateTable('api_credentials').set({ secret_hash: createHmac('sha256', OLD.pepper).update(older.apiSecret).digest('hex') }).where('id', '=', older.credentialId).execute();
    const ops = operatorsOf(ctx.app, clock, 'rotation-op');
    operator = await ops.signedIn('VIEWER');
    const created = await ctx.app.inject({ method: 'POST', url: '/api/v1/webhook/endpoints', headers: { ...used.headers, 'idempotency-key': 'rotation-endpoint' }, payload: { url: 'http://127.0.0.1:9/hooks' } });
    expect(created.statusCode, created.body).toBe(201);
    webhookSecret = created.json().secret;
  });
  afterAll(() => ctx?.close());

  it('with the old key in the previous slot, what it sealed keeps working: API secrets (both forms), TOTP, idempotent replays', async () => {
    const rotating = await ctx.buildApp(ROTATING);
    expect((await merchantCall(rotating, used)).statusCode).toBe(200);
    expect((await merchantCall(rotating, legacy)).statusCode).toBe(200);
    clock.advance(30_000);
    expect((await operatorSignIn(rotating, operatorsOf(rotating, clock).codeFor(operator.secret))).statusCode).toBe(201);
    const replay = await rotating.inject({ method: 'POST', url: '/api/v1/webhook/endpoints', headers: { ...used.headers, 'idempotency-key': 'rotation-endpoint' }, payload: { url: 'http://127.0.0.1:9/hooks' } });
    expect(replay.statusCode, replay.body).toBe(201);
    expect(replay.json().secret).toBe(webhookSecret);
    // The successful use re-sealed the used secrets under the new pepper; the older form is gone.
    expect(await storedHash(legacy.id)).toMatch(/^s1:/);
    // A wrong secret is still refused.
    expect((await merchantCall(rotating, { apiKey: unused.apiKey, apiSecret: used.apiSecret })).statusCode).toBe(401);
  });

  it('without the previous slot, a new key alone opens nothing the old one sealed (the rotation is needed)', async () => {
    const rotated = await ctx.buildApp(ROTATED);
    expect((await merchantCall(rotated, unused)).statusCode).toBe(401);
  });

  it('rotate-secrets re-seals every row under the new keys; a rerun changes nothing; then the new keys alone open everything', async () => {
    const first = await resealSecrets(ctx.database.db, sealedSecretColumns(rotatedConfig));
    // The used credential and the legacy one were re-sealed at use; the idle merchants' keys here (unused and used's sibling rows).
    expect(first.apiCredentials!.resealed).toBeGreaterThanOrEqual(1);
    expect(first.apiCredentials!.unsealable).toBe(0);
    expect(first.webhookSecrets).toEqual({ resealed: 1, unsealable: 0 });
    expect(first.operatorTotpSecrets!.resealed).toBeGreaterThanOrEqual(1);
    expect(first.idempotentAnswers!.resealed).toBeGreaterThanOrEqual(1);
    const rerun = await resealSecrets(ctx.database.db, sealedSecretColumns(rotatedConfig));
    for (const counts of Object.values(rerun)) expect(counts).toEqual({ resealed: 0, unsealable: 0 });

    // Every sealed row opens under the new key alone.
    const newOnly = { current: NEW.webhook };
    const secrets = await ctx.database.db.selectFrom('webhook_endpoint_secrets').select(['endpoint_id', 'secret_ciphertext']).execute();
    for (const row of secrets) expect(createSecretBox(newOnly).open(row.secret_ciphertext, row.endpoint_id)).toBe(webhookSecret);
    const totpBox = createRotatingBox(newOnly, TOTP_SECRETS_PURPOSE);
    for (const row of await ctx.database.db.selectFrom('operators').select(['id', 'totp_secret_sealed']).where('totp_secret_sealed', 'is not', null).execute()) {
      expect(() => totpBox.open(row.totp_secret_sealed!, row.id)).not.toThrow();
    }
    const answersBox = createRotatingBox(newOnly, IDEMPOTENCY_ANSWERS_PURPOSE);
    for (const row of await ctx.database.db.selectFrom('idempotency_keys').select(['merchant_id', 'key', 'response_body']).where('response_body', 'is not', null).execute()) {
      expect(() => answersBox.open(row.response_body!, `${row.merchant_id}:${row.key}`)).not.toThrow();
    }

    const rotated = await ctx.buildApp(ROTATED);
    for (const merchant of [used, unused, legacy]) expect((await merchantCall(rotated, merchant)).statusCode).toBe(200);
    clock.advance(30_000);
    expect((await operatorSignIn(rotated, operatorsOf(rotated, clock).codeFor(operator.secret))).statusCode).toBe(201);
  });

  it('a row no configured key opens stops the command with what to set, naming no secret', async () => {
    const wrongPrevious = { ...rotatedConfig, webhookSecretKey: 'a-third-key-'.padEnd(40, 't'), webhookSecretKeyPrevious: 'not-the-old-one-'.padEnd(40, 'x') };
    const failure = await resealSecrets(ctx.database.db, sealedSecretColumns(wrongPrevious)).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(SecretRotationError);
    expect((failure as Error).message).toMatch(/opens under neither WEBHOOK_SECRET_KEY nor WEBHOOK_SECRET_KEY_PREVIOUS: set WEBHOOK_SECRET_KEY_PREVIOUS/);
    expect((failure as Error).message).not.toContain(NEW.webhook);
  });

  it('an API secret still in the older form is counted unsealable until its next use', async () => {
    const idle = await ctx.createMerchant('Older form, idle');
    await ctx.database.db.updateTable('api_credentials').set({ secret_hash: createHmac('sha256', NEW.pepper).update(idle.apiSecret).digest('hex') }).where('id', '=', idle.credentialId).execute();
    const counts = await resealSecrets(ctx.database.db, sealedSecretColumns({ ...rotatedConfig, apiSecretPepperPrevious: undefined }).slice(0, 1));
    expect(counts.apiCredentials).toEqual({ resealed: 0, unsealable: 1 });
  });
});
