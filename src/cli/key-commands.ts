/**
 * The admin commands of the platform's keys (docs/architecture/keys.md). They reach the keys
 * through the key custody alone, never the whole service: creating the keys is what lets a
 * production deployment start, so these must work before it can. Output is JSON of purposes,
 * addresses and counts; a key itself is read from stdin only (never argv, which `ps` and shell
 * history show) and never printed.
 */
import { type PlatformKeyPurpose, treasuryWalletPurpose } from '../modules/platform-keys/tables.ts';
import { fail } from './config.ts';
import type { RuntimeConfig } from '../runtime-config.ts';
import type { Db } from '../db/database.ts';

export const KEY_USAGE = {
  'create-platform-keys': 'npm run admin -- create-platform-keys',
  'import-platform-key': 'npm run admin -- import-platform-key --purpose sponsor|treasury|treasury_N < keypair (base58 or solana-keygen JSON, on stdin)',
  'rotate-kek': 'npm run admin -- rotate-kek',
  'rotate-secrets': 'npm run admin -- rotate-secrets',
} as const;
export type KeyCommand = keyof typeof KEY_USAGE;

const MAX_KEYPAIR_INPUT = 4096;

/** The purpose --purpose names (treasury_2 … treasury_8: a further treasury wallet, decision 0057), or the usage line. */
export function purposeOf(value: string | undefined): PlatformKeyPurpose {
  const purpose = value?.toUpperCase() ?? '';
  if (purpose !== 'SPONSOR' && purpose !== 'TREASURY' && !/^TREASURY_[2-8]$/.test(purpose)) fail(`--purpose must be sponsor, treasury or treasury_2 to treasury_8; usage: ${KEY_USAGE['import-platform-key']}`);
  return purpose as PlatformKeyPurpose;
}

/** The keypair piped on stdin, checked (its halves agree) before the database is opened. */
export async function readKeypairFromStdin(): Promise<string> {
  if (process.stdin.isTTY) fail(`pipe the keypair on stdin (it is never read from the command line); usage: ${KEY_USAGE['import-platform-key']}`);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length > MAX_KEYPAIR_INPUT) fail('stdin holds more than a keypair: pipe one 64-byte keypair, base58 or a JSON array of 64 numbers');
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  const { seedFromKeypair } = await import('../lib/key-vault.ts');
  try {
    seedFromKeypair(text, 'the keypair on stdin').fill(0);
  } catch (err) {
    fail(`${(err as Error).message}: pipe one 64-byte keypair, base58 or a JSON array of 64 numbers (solana-keygen's file)`);
  }
  return text;
}

/**
 * Re-seals what WEBHOOK_SECRET_KEY_PREVIOUS and API_SECRET_PEPPER_PREVIOUS sealed under the current
 * keys (src/platform/secret-rotation.ts); prints counts per column. API secrets still in the older
 * HMAC form are counted `unsealable`: only their next use re-seals them (src/modules/merchants/credentials.ts).
 */
async function rotateSecrets(config: RuntimeConfig, db: Db): Promise<void> {
  const [{ resealSecrets, SecretRotationError }, { sealedSecretColumns }] = await Promise.all([import('../platform/secret-rotation.ts'), import('../secret-custody.ts')]);
  try {
    console.log(JSON.stringify({ resealed: await resealSecrets(db, sealedSecretColumns(config)) }));
  } catch (err) {
    if (err instanceof SecretRotationError) fail(err.message);
    throw err;
  }
}

export async function runKeyCommand(command: KeyCommand, input: { config: RuntimeConfig; purpose?: PlatformKeyPurpose; keypair?: string }): Promise<void> {
  const [{ openConfiguredDatabase }, { createKeyCustody }, { resealAll }, { systemClock }, { resealAllPersonalData }] = await Promise.all([
    import('../db/open-configured.ts'),
    import('../key-custody.ts'),
    import('../platform/key-rotation.ts'),
    import('../lib/clock.ts'),
    import('../platform/personal-data-sealed-marker.ts'),
  ]);
  const { config } = input;
  const database = await openConfiguredDatabase(config);
  try {
    const { platformKeys, sealedKeyStores, personalData, personalDataTables } = createKeyCustody({ config, db: database.db, clock: systemClock });
    if (command === 'create-platform-keys') {
      // As start-up does outside production: SPONSOR_PRIVATE_KEY, when set, is the sponsor to keep.
      // And the treasury's further wallets, CHAIN_TREASURY_WALLETS (decision 0057), as start-up would want them.
      const prepared = await platformKeys.prepare({ createMissing: true, sponsorKeypair: config.sponsorPrivateKey, treasuryWallets: config.chain.treasuryWallets });
      const actionOf = (purpose: PlatformKeyPurpose) =>
        prepared.created.some((key) => key.purpose === purpose) ? 'created' : prepared.imported.some((key) => key.purpose === purpose) ? 'imported' : 'existing';
      const wallets = prepared.treasuryWallets.map((signer, i) => ({ purpose: treasuryWalletPurpose(i + 1), address: signer.address }));
      const keys = [...wallets.slice(0, 1), { purpose: 'SPONSOR' as const, address: prepared.signers.SPONSOR.address }, ...wallets.slice(1)].map((key) => ({ ...key, action: actionOf(key.purpose) }));
      console.log(JSON.stringify({ keys }));
    } else if (command === 'import-platform-key') {
      const result = await platformKeys.importKeypair(input.purpose!, input.keypair!, 'the keypair on stdin');
      console.log(JSON.stringify(result));
    } else if (command === 'rotate-secrets') {
      await rotateSecrets(config, database.db);
    } else {
      const resealed = await resealAll(sealedKeyStores);
      // Personal data under the same KEK (src/lib/personal-data.ts): rows, not keys, counted apart;
      // the start-up pass's marker is voided first and set again once all is under this version.
      const personalDataResealed = await resealAllPersonalData(database.db, personalData, personalDataTables);
      console.log(JSON.stringify({ kekVersion: config.walletKekVersion, resealed, personalData: personalDataResealed.resealed, personalDataMarked: personalDataResealed.marked }));
    }
  } finally {
    await database.close();
  }
}
