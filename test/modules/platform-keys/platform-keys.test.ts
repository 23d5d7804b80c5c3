/**
 * Issue 26, item 4: the treasury and the sponsor live sealed in platform_keys. Outside production
 * the first start creates them; production only opens them (a missing one is refused, naming the
 * admin command); SPONSOR_PRIVATE_KEY is imported once; a key sealed for one purpose does not open
 * as another; rotate-kek re-seals managed wallets' keys, platform keys and deposit keys alike; and no key reaches
 * a log line or an error.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Writable } from 'node:stream';
import { getBase58Decoder } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/database.ts';
import { createKeyCustody } from '../../../src/key-custody.ts';
import { systemClock } from '../../../src/lib/clock.ts';
import { newId } from '../../../src/lib/ids.ts';
import { createKeyVault } from '../../../src/lib/key-vault.ts';
import { createLogger } from '../../../src/logger.ts';
import { createPlatformKeys } from '../../../src/modules/platform-keys/service.ts';
import { KekError, resealAll } from '../../../src/platform/key-rotation.ts';
import { type TestContext, createTestContext } from '../../helpers/app.ts';
import { openTestDatabase } from '../../helpers/database.ts';

const kek = Buffer.alloc(32, 5).toString('base64');
const kek2 = Buffer.alloc(32, 6).toString('base64');

/** A fresh keypair as SPONSOR_PRIVATE_KEY would hold it, and the forms its secret half could leak in. */
function keypair() {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d!, 'base64url');
  const bytes = Buffer.concat([seed, Buffer.from(jwk.x!, 'base64url')]);
  return {
    text: getBase58Decoder().decode(bytes),
    address: getBase58Decoder().decode(Buffer.from(jwk.x!, 'base64url')),
    secrets: [getBase58Decoder().decode(bytes), JSON.stringify([...bytes]), seed.toString('hex'), seed.toString('base64'), jwk.d!],
  };
}

describe('platform keys outside production', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('the first start creates the treasury and the sponsor, sealed; every later start opens the same ones', async () => {
    const rows = await ctx.database.db.selectFrom('platform_keys').selectAll().orderBy('purpose').execute();
    expect(rows.map((row) => [row.purpose, row.key_version])).toEqual([
      ['SPONSOR', 1],
      ['TREASURY', 1],
    ]);
    for (const row of rows) expect(row.encrypted_private_key).toMatch(/^v1:/);
    const again = await ctx.buildApp();
    expect(again.services.platformKeysAtStart).toMatchObject({ created: [], imported: [] });
    const signers = again.services.platformKeysAtStart.signers;
    expect(signers.SPONSOR.address).toBe(rows[0]!.address);
    expect(signers.TREASURY.address).toBe(rows[1]!.address);
    expect(await again.services.platformKeys.signer('TREASURY')).toBe(signers.TREASURY);
    // The sponsor of managed wallets is the stored one.
    expect((await again.inject({ url: '/api/v1/wallet/fee-payer' })).json()).toEqual({ address: rows[0]!.address });
    expect(JSON.stringify(await again.services.platformKeys.list())).not.toContain(rows[0]!.encrypted_private_key);
  });

  it('rotate-kek re-seals managed wallets, platform keys and deposit addresses under the new version, once, and refuses a version it cannot open', async () => {
    const db = ctx.database.db;
    const merchant = await ctx.createMerchant();
    const walletVault = createKeyVault({ kek: ctx.config.walletKek, version: 1 });
    const sealed = walletVault.generate(merchant.merchantId);
    await db
      .insertInto('managed_wallets')
      .values({ id: newId(), merchant_id: merchant.merchantId, receiver_id: null, address: sealed.address, encrypted_private_key: sealed.encryptedPrivateKey, key_version: 1, created_at: new Date() })
      .execute();
    const depositVault = createKeyVault({ kek: ctx.config.walletKek, version: 1 }, 'deposit-address');
    const deposit = depositVault.generate('payout-reference');
    await db
      .insertInto('deposit_addresses')
      .values({ reference: 'payout-reference', token: 'USDC', mint: sealed.address, owner_address: deposit.address, token_account: deposit.address, encrypted_private_key: deposit.encryptedPrivateKey, key_version: 1 })
      .execute();
    // A standing address's key (reference standing:<id>, decision 0046): the same table, re-sealed with the others, swept long after.
    const standing = depositVault.generate('standing:0191f0a0-0000-7000-8000-000000000001');
    await db
      .insertInto('deposit_addresses')
      .values({ reference: 'standing:0191f0a0-0000-7000-8000-000000000001', token: 'USDC', mint: sealed.address, owner_address: standing.address, token_account: standing.address, encrypted_private_key: standing.encryptedPrivateKey, key_version: 1 })
      .execute();
    const before = await db.selectFrom('platform_keys').selectAll().orderBy('purpose').execute();

    // Version 3 with no KEK for version 1: refused before anything changes, naming the fix.
    const blind = createKeyCustody({ config: { ...ctx.config, walletKek: kek2, walletKekVersion: 3, walletKekPrevious: {} }, db, clock: systemClock });
    const refusal = await resealAll(blind.sealedKeyStores).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(KekError);
    expect((refusal as KekError).code).toBe('KEK_VERSION_MISSING');
    expect((refusal as Error).message).toMatch(/^1 managed wallet key\(s\) are sealed under KEK version 1, .*add "1:<that KEK, base64>" to WALLET_KEK_PREVIOUS/);
    expect(await db.selectFrom('platform_keys').selectAll().orderBy('purpose').execute()).toEqual(before);
    // A wrong KEK given for version 1: refused at the first key, naming it and the version, never a key.
    const wrong = createKeyCustody({ config: { ...ctx.config, walletKek: kek2, walletKekVersion: 2, walletKekPrevious: { 1: kek } }, db, clock: systemClock });
    const mismatch = (await resealAll(wrong.sealedKeyStores).catch((err: unknown) => err)) as KekError;
    expect(mismatch.code).toBe('KEK_DOES_NOT_OPEN');
    expect(mismatch.message).toMatch(/^managed wallet key [0-9a-f-]{36} does not open under the KEK of version 1: check the KEK given for version 1/);
    expect(mismatch.message).not.toContain(kek);

    const rotated = { ...ctx.config, walletKek: kek2, walletKekVersion: 2, walletKekPrevious: { 1: ctx.config.walletKek } };
    const custody = createKeyCustody({ config: rotated, db, clock: systemClock });
    expect(await resealAll(custody.sealedKeyStores)).toEqual({ managedWallets: 1, platformKeys: 2, depositAddresses: 2 });
    expect(await resealAll(custody.sealedKeyStores)).toEqual({ managedWallets: 0, platformKeys: 0, depositAddresses: 0 });

    const after = await db.selectFrom('platform_keys').selectAll().orderBy('purpose').execute();
    expect(after.map((row) => [row.purpose, row.address, row.key_version])).toEqual(before.map((row) => [row.purpose, row.address, 2]));
    for (const [i, row] of after.entries()) expect(row.encrypted_private_key).not.toBe(before[i]!.encrypted_private_key);
    const wallet = await db.selectFrom('managed_wallets').selectAll().where('address', '=', sealed.address).executeTakeFirstOrThrow();
    expect(wallet.key_version).toBe(2);
    // The deposit key too: it must open long after its order, to sweep or return what reached it.
    const depositRow = await db.selectFrom('deposit_addresses').selectAll().where('reference', '=', 'payout-reference').executeTakeFirstOrThrow();
    expect(depositRow.key_version).toBe(2);
    expect(custody.depositVault.open('payout-reference', { encryptedPrivateKey: depositRow.encrypted_private_key, keyVersion: 2 }).address).toBe(deposit.address);
    const standingRow = await db.selectFrom('deposit_addresses').select(['encrypted_private_key', 'key_version']).where('owner_address', '=', standing.address).executeTakeFirstOrThrow();
    expect(custody.depositVault.open('standing:0191f0a0-0000-7000-8000-000000000001', { encryptedPrivateKey: standingRow.encrypted_private_key, keyVersion: standingRow.key_version }).address).toBe(standing.address);

    // The new KEK alone opens everything now: the retired one can leave WALLET_KEK_PREVIOUS.
    const onlyNew = { ...rotated, walletKekPrevious: {} };
    const fresh = createKeyCustody({ config: onlyNew, db, clock: systemClock });
    expect(fresh.walletVault.open(merchant.merchantId, { encryptedPrivateKey: wallet.encrypted_private_key, keyVersion: 2 }).address).toBe(sealed.address);
    expect((await fresh.platformKeys.signer('SPONSOR')).address).toBe(before[0]!.address);
    const app = await ctx.buildApp({ WALLET_KEK: kek2, WALLET_KEK_VERSION: '2' });
    expect(app.services.platformKeysAtStart.signers.TREASURY.address).toBe(before[1]!.address);
  });
});

describe('platform keys in production', () => {
  let database: DatabaseHandle;
  const vault = createKeyVault({ kek, version: 1 }, 'platform-key');
  const sponsor = keypair();
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('opens only: a missing key is refused with the admin command; SPONSOR_PRIVATE_KEY is imported once', async () => {
    const keys = createPlatformKeys({ db: database.db, clock: systemClock, vault });
    await expect(keys.prepare({ createMissing: false })).rejects.toMatchObject({
      code: 'PLATFORM_KEYS_MISSING',
      message: expect.stringMatching(/^no TREASURY or SPONSOR key in the database: run `npm run admin -- create-platform-keys` once/),
    });
    await expect(keys.prepare({ createMissing: false, sponsorKeypair: sponsor.text })).rejects.toThrow(/^no TREASURY key in the database/);
    expect(await keys.list()).toEqual([expect.objectContaining({ purpose: 'SPONSOR', address: sponsor.address, keyVersion: 1 })]);

    expect(await keys.create('TREASURY')).toMatchObject({ purpose: 'TREASURY', created: true });
    const prepared = await keys.prepare({ createMissing: false, sponsorKeypair: sponsor.text });
    expect(prepared).toMatchObject({ created: [], imported: [] });
    expect(prepared.signers.SPONSOR.address).toBe(sponsor.address);
    expect(await keys.create('TREASURY')).toMatchObject({ created: false, address: prepared.signers.TREASURY.address });

    // A further treasury wallet (CHAIN_TREASURY_WALLETS, decision 0057) is a key like the others: refused when missing, then created once.
    await expect(keys.prepare({ createMissing: false, treasuryWallets: 3 })).rejects.toMatchObject({ code: 'PLATFORM_KEYS_MISSING', message: expect.stringMatching(/^no TREASURY_2 or TREASURY_3 key in the database/) });
    const three = await keys.prepare({ createMissing: true, treasuryWallets: 3 });
    expect(three.created.map((key) => key.purpose)).toEqual(['TREASURY_2', 'TREASURY_3']);
    expect(three.treasuryWallets[0]!.address).toBe(prepared.signers.TREASURY.address);
    expect(new Set(three.treasuryWallets.map((signer) => signer.address)).size).toBe(3);
    // Wallets are added, never retired: a count below the stored wallets is refused, naming the setting.
    await expect(keys.prepare({ createMissing: true, treasuryWallets: 2 })).rejects.toMatchObject({ code: 'TREASURY_WALLETS_LOWERED', message: expect.stringMatching(/TREASURY_3: set CHAIN_TREASURY_WALLETS to at least 3/) });
    await database.db.deleteFrom('platform_keys').where('purpose', 'in', ['TREASURY_2', 'TREASURY_3']).execute();
  });

  it('keeps the stored sponsor when SPONSOR_PRIVATE_KEY names another key, and refuses to import over it', async () => {
    const other = keypair();
    const keys = createPlatformKeys({ db: database.db, clock: systemClock, vault });
    const prepared = await keys.prepare({ createMissing: false, sponsorKeypair: other.text });
    expect(prepared.ignoredSponsorKeypair).toEqual({ purpose: 'SPONSOR', address: sponsor.address });
    expect(prepared.signers.SPONSOR.address).toBe(sponsor.address);
    const refusal = (await keys.importKeypair('SPONSOR', other.text).catch((err: unknown) => err)) as Error & { code: string };
    expect(refusal.code).toBe('PLATFORM_KEY_EXISTS');
    expect(refusal.message).toContain(other.address);
    for (const secret of other.secrets) expect(refusal.message).not.toContain(secret);
    expect(await keys.importKeypair('SPONSOR', sponsor.text)).toEqual({ purpose: 'SPONSOR', address: sponsor.address, imported: false });
    // One key, one purpose.
    await expect(keys.importKeypair('TREASURY', sponsor.text)).rejects.toMatchObject({ code: 'PLATFORM_KEY_EXISTS', message: expect.stringMatching(/^the keypair is the stored SPONSOR key \(address /) });
  });

  it('a wrong or missing KEK at start is a KekError naming the setting to fix, never a key (issue 40)', async () => {
    const startWith = (settings: Parameters<typeof createKeyVault>[0]) => createPlatformKeys({ db: database.db, clock: systemClock, vault: createKeyVault(settings, 'platform-key') }).prepare({ createMissing: false });
    const wrong = (await startWith({ kek: kek2, version: 1 }).catch((err: unknown) => err)) as KekError;
    expect(wrong).toBeInstanceOf(KekError);
    expect(wrong).toMatchObject({ code: 'KEK_DOES_NOT_OPEN', message: expect.stringMatching(/^the (TREASURY|SPONSOR) platform key does not open under WALLET_KEK \(KEK version 1\): set WALLET_KEK to the KEK/) });
    await expect(startWith({ kek: kek2, version: 2 })).rejects.toMatchObject({
      code: 'KEK_VERSION_MISSING',
      message: expect.stringMatching(/^the (TREASURY|SPONSOR) platform key is sealed under KEK version 1, which neither WALLET_KEK \(version 2\) nor WALLET_KEK_PREVIOUS holds: add "1:<that KEK, base64>" to WALLET_KEK_PREVIOUS/),
    });
    const badPrevious = (await startWith({ kek: kek2, version: 2, previous: { 1: kek2 } }).catch((err: unknown) => err)) as KekError;
    expect(badPrevious).toMatchObject({ code: 'KEK_DOES_NOT_OPEN', message: expect.stringContaining("does not open under WALLET_KEK_PREVIOUS's entry (KEK version 1)") });
    for (const refusal of [wrong, badPrevious]) expect(refusal.message).not.toContain(kek2);
    expect((await startWith({ kek, version: 1 })).signers.SPONSOR.address).toBe(sponsor.address);
  });

  it('a key sealed for one purpose does not open as another', async () => {
    const sponsorRow = await database.db.selectFrom('platform_keys').selectAll().where('purpose', '=', 'SPONSOR').executeTakeFirstOrThrow();
    await database.db.updateTable('platform_keys').set({ encrypted_private_key: sponsorRow.encrypted_private_key }).where('purpose', '=', 'TREASURY').execute();
    const keys = createPlatformKeys({ db: database.db, clock: systemClock, vault });
    await expect(keys.signer('TREASURY')).rejects.toThrow();
    expect((await keys.signer('SPONSOR')).address).toBe(sponsor.address);
  });

  it('writes no key material to a log line, even when the configuration and the results are logged whole', async () => {
    const text: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        text.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('info', sink);
    const keys = createPlatformKeys({ db: database.db, clock: systemClock, vault });
    const brought = keypair();
    const refusal = await keys.importKeypair('SPONSOR', brought.text).catch((err: unknown) => err);
    const sponsorSigner = await keys.signer('SPONSOR');
    logger.info({ config: { walletKek: kek, sponsorPrivateKey: brought.text }, signer: sponsorSigner, list: await keys.list() }, 'keys');
    logger.error({ err: refusal }, 'refused');
    logger.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = text.join('');
    expect(logged).toContain(sponsor.address);
    for (const secret of [...brought.secrets, ...sponsor.secrets, kek]) expect(logged).not.toContain(secret);
    const rows = await database.db.selectFrom('platform_keys').select('encrypted_private_key').execute();
    for (const row of rows) expect(logged).not.toContain(row.encrypted_private_key.slice(3));
  });
});
