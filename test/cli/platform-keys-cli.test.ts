/**
 * Issue 26, item 4: `npm run admin` creates, imports and re-seals the platform's keys. Output is
 * purposes, addresses and counts; a keypair is read from stdin only; failures are one line; and
 * no key (nor a KEK, nor a sealed key) appears in any output.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { getBase58Decoder } from '@solana/kit';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openConfiguredDatabase } from '../../src/db/open-configured.ts';
import { newId } from '../../src/lib/ids.ts';
import { createKeyVault } from '../../src/lib/key-vault.ts';
import { createPersonalData } from '../../src/lib/personal-data.ts';
import { resolveRuntimeConfig } from '../../src/runtime-config.ts';
import { migratedProcessDatabase } from '../helpers/database.ts';
import { runTsToEnd } from '../helpers/processes.ts';

const cleanups: Array<() => Promise<void>> = [];
afterAll(() => Promise.all(cleanups.map((cleanup) => cleanup())));

/** A fresh data directory (and PostgreSQL database on PostgreSQL runs) for the CLI. */
async function freshEnv(): Promise<Record<string, string>> {
  const database = await migratedProcessDatabase('exchange-keys-cli');
  cleanups.push(database.drop);
  return database.env;
}

function keypair() {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d!, 'base64url');
  const bytes = Buffer.concat([seed, Buffer.from(jwk.x!, 'base64url')]);
  return {
    text: getBase58Decoder().decode(bytes),
    json: JSON.stringify([...bytes]),
    address: getBase58Decoder().decode(Buffer.from(jwk.x!, 'base64url')),
    secrets: [getBase58Decoder().decode(bytes), JSON.stringify([...bytes]), seed.toString('hex'), seed.toString('base64'), jwk.d!],
  };
}

const admin = (args: string[], env: Record<string, string>, stdin?: string) => runTsToEnd('src/cli/admin.ts', args, env, stdin === undefined ? {} : { stdin });

function expectOneLine(result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp) {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

/** What the CLI must never print: the KEK, sealed keys, key material. */
async function expectNoSecret(outputs: string[], env: Record<string, string>, extra: string[] = []) {
  const devSecrets = JSON.parse(await readFile(path.join(env.DATA_DIR!, 'dev-secrets.json'), 'utf8')) as { walletKek: string };
  const text = outputs.join('\n');
  expect(text).not.toMatch(/v1:[A-Za-z0-9+/]{20}/);
  for (const secret of [devSecrets.walletKek, ...extra]) expect(text).not.toContain(secret);
}

// Each step starts the CLI as its own process, which opens the database (PGlite takes seconds to start, more on a loaded machine).
describe('npm run admin: platform keys', { timeout: 120_000 }, () => {
  let env: Record<string, string>;

  it('create-platform-keys creates the treasury and the sponsor once and prints their addresses only', async () => {
    env = await freshEnv();
    const first = await admin(['create-platform-keys'], env);
    expect(first.code, first.stderr).toBe(0);
    const created = JSON.parse(first.stdout) as { keys: Array<{ purpose: string; address: string; action: string }> };
    expect(created.keys.map(({ purpose, action }) => [purpose, action])).toEqual([
      ['TREASURY', 'created'],
      ['SPONSOR', 'created'],
    ]);
    for (const key of created.keys) expect(Object.keys(key).sort()).toEqual(['action', 'address', 'purpose']);
    const again = await admin(['create-platform-keys'], env);
    expect(JSON.parse(again.stdout)).toEqual({ keys: created.keys.map((key) => ({ ...key, action: 'existing' })) });
    await expectNoSecret([first.stdout, first.stderr, again.stdout, again.stderr], env);
  });

  it('rotate-kek re-seals every key under the new version, a rerun changes nothing, and a KEK it lacks is one line', async () => {
    const { config } = await resolveRuntimeConfig(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    const oldKek = config.walletKek;
    const merchant = JSON.parse((await admin(['create-merchant', '--name', 'Rotating'], env)).stdout) as { merchantId: string };
    const receiverId = newId();
    const eventId = newId();
    const database = await openConfiguredDatabase(config);
    try {
      const sealed = createKeyVault({ kek: oldKek, version: 1 }).generate(merchant.merchantId);
      await database.db
        .insertInto('managed_wallets')
        .values({ id: newId(), merchant_id: merchant.merchantId, receiver_id: null, address: sealed.address, encrypted_private_key: sealed.encryptedPrivateKey, key_version: 1, created_at: new Date() })
        .execute();
      // A receiver's personal data sealed under KEK version 1 (src/lib/personal-data.ts), its address too: rotate-kek re-seals it.
      const pd = createPersonalData({ kek: oldKek, version: 1 });
      await database.db
        .insertInto('receivers')
        .values({ id: receiverId, merchant_id: merchant.merchantId, person_type: 'PF', document_type: 'CPF', document: pd.seal('document', '52998224725'), document_hash: pd.index('document', '52998224725'), name: pd.seal('name', 'Maria Rotação'), email: pd.seal('email', 'maria@example.com'), address_street: pd.seal('address', 'Rua da Rotação'), address_zip_code: pd.seal('address', '01001-000'), night_transactions_enabled: false })
        .execute();
      // A PAYOUT event naming its PIX key, sealed in the payload under version 1 (src/platform/event-payload-sealing.ts).
      await database.db
        .insertInto('events')
        .values({ id: eventId, merchant_id: merchant.merchantId, event_type: 'order.completed', payload: JSON.stringify({ event: 'order.completed', orderId: newId(), status: 'COMPLETED', pixKey: pd.seal('account', '52998224725') }) })
        .execute();
    } finally {
      await database.close();
    }

    const newKek = randomBytes(32).toString('base64');
    const rotated = { ...env, WALLET_KEK: newKek, WALLET_KEK_VERSION: '2', WALLET_KEK_PREVIOUS: `1:${oldKek}` };
    const first = await admin(['rotate-kek'], rotated);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ kekVersion: 2, resealed: { managedWallets: 1, platformKeys: 2, depositAddresses: 0 }, personalData: { receivers: 1, kycSubmissions: 0, operationsRegister: 0, orders: 0, events: 1, auditLog: 0, settlementPixKeys: 0, payoutBatchItems: 0, standingAddresses: 0 }, personalDataMarked: true });
    const rerun = await admin(['rotate-kek'], rotated);
    expect(JSON.parse(rerun.stdout)).toEqual({ kekVersion: 2, resealed: { managedWallets: 0, platformKeys: 0, depositAddresses: 0 }, personalData: { receivers: 0, kycSubmissions: 0, operationsRegister: 0, orders: 0, events: 0, auditLog: 0, settlementPixKeys: 0, payoutBatchItems: 0, standingAddresses: 0 }, personalDataMarked: true });
    const after = await openConfiguredDatabase(config);
    try {
      const row = await after.db.selectFrom('receivers').select(['name', 'address_street', 'address_zip_code', 'address_city']).where('id', '=', receiverId).executeTakeFirstOrThrow();
      const current = createPersonalData({ kek: newKek, version: 2 });
      expect([row.address_street, row.address_zip_code].map((value) => current.open('address', value!))).toEqual(['Rua da Rotação', '01001-000']);
      for (const value of [row.name, row.address_street, row.address_zip_code]) expect(value).toMatch(/^pd2:v1:/);
      expect(row.address_city).toBeNull();
      const event = await after.db.selectFrom('events').select('payload').where('id', '=', eventId).executeTakeFirstOrThrow();
      expect(event.payload.pixKey).toMatch(/^pd2:v1:/);
      expect(current.open('account', event.payload.pixKey as string)).toBe('52998224725');
    } finally {
      await after.close();
    }
    // The old KEK can go: the keys open under the new one alone.
    const opened = await admin(['create-platform-keys'], { ...env, WALLET_KEK: newKek, WALLET_KEK_VERSION: '2' });
    expect(opened.code, opened.stderr).toBe(0);
    expect((JSON.parse(opened.stdout) as { keys: Array<{ action: string }> }).keys.map((key) => key.action)).toEqual(['existing', 'existing']);

    const lacking = await admin(['rotate-kek'], { ...env, WALLET_KEK: randomBytes(32).toString('base64'), WALLET_KEK_VERSION: '3' });
    expectOneLine(lacking, /^admin: 1 managed wallet key\(s\) are sealed under KEK version 2, which neither WALLET_KEK nor WALLET_KEK_PREVIOUS holds: add "2:<that KEK, base64>" to WALLET_KEK_PREVIOUS/);
    await expectNoSecret([first.stdout, first.stderr, rerun.stdout, lacking.stderr], env, [oldKek, newKek]);
  });

  it('import-platform-key seals a keypair read from stdin, once, and refuses another over it in one line', async () => {
    const fresh = await freshEnv();
    const sponsor = keypair();
    expectOneLine(await admin(['import-platform-key'], fresh, sponsor.text), /^admin: --purpose must be sponsor, treasury or treasury_2 to treasury_8; usage: npm run admin -- import-platform-key --purpose sponsor\|treasury\|treasury_N/);
    expectOneLine(await admin(['import-platform-key', '--purpose', 'sponsor'], fresh), /^admin: the keypair on stdin is not a 64-byte Solana keypair: pipe one 64-byte keypair/);

    const imported = await admin(['import-platform-key', '--purpose', 'sponsor'], fresh, `${sponsor.json}\n`);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ purpose: 'SPONSOR', address: sponsor.address, imported: true });
    const same = await admin(['import-platform-key', '--purpose', 'sponsor'], fresh, sponsor.text);
    expect(JSON.parse(same.stdout)).toEqual({ purpose: 'SPONSOR', address: sponsor.address, imported: false });

    const other = keypair();
    const refused = await admin(['import-platform-key', '--purpose', 'SPONSOR'], fresh, other.text);
    expectOneLine(refused, new RegExp(`^admin: a SPONSOR key is stored already \\(address ${sponsor.address}\\), and the keypair on stdin is another key \\(address ${other.address}\\): nothing changed$`));

    const completed = await admin(['create-platform-keys'], fresh);
    expect((JSON.parse(completed.stdout) as { keys: unknown[] }).keys).toEqual([
      { purpose: 'TREASURY', address: expect.any(String), action: 'created' },
      { purpose: 'SPONSOR', address: sponsor.address, action: 'existing' },
    ]);
    const outputs = [imported, same, refused, completed].flatMap((result) => [result.stdout, result.stderr]);
    await expectNoSecret(outputs, fresh, [...sponsor.secrets, ...other.secrets]);
  });
});
