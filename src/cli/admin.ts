/**
 * Operator bootstrap without the HTTP API:
 *   npm run admin -- create-merchant --name "Acme"     prints {"merchantId","apiKey","apiSecret"}
 *   npm run admin -- issue-credential --merchant <id>   prints {"merchantId","credentialId","apiKey","apiSecret"}
 *   npm run admin -- generate-keys                       prints every production key (production-keys.ts); no database
 * The secret is printed this once and never stored in clear. Uses the configured database
 * (DATABASE_URL, or the embedded one under DATA_DIR, which must not be open in a running server).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { openConfiguredDatabase } from '../db/open-configured.ts';
import { UUID_PATTERN } from '../lib/ids.ts';
import { systemClock } from '../lib/clock.ts';
import { createServices } from '../services.ts';
import { cliConfig, fail } from './config.ts';
import { productionKeyLines } from './production-keys.ts';

const USAGE = 'usage: npm run admin -- create-merchant --name "Acme" | issue-credential --merchant <merchant id> | generate-keys';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { name: { type: 'string' }, merchant: { type: 'string' } },
});
const command = positionals[0];
if (command === 'generate-keys') {
  console.log(productionKeyLines().join('\n'));
  process.exit(0);
}
const name = values.name?.trim();
if (command === 'create-merchant' && (!name || name.length < 2 || name.length > 255)) fail(`--name must have 2 to 255 characters\n${USAGE}`);
if (command === 'issue-credential' && !UUID_PATTERN.test(values.merchant ?? '')) fail(`--merchant must be a merchant id\n${USAGE}`);
if (command !== 'create-merchant' && command !== 'issue-credential') fail(USAGE);

const config = await cliConfig();
const database = await openConfiguredDatabase(config);
const { merchants } = await createServices({ config, db: database.db, clock: systemClock });
const by = { actor: `cli:${os.userInfo().username}` };
try {
  if (command === 'create-merchant') {
    const { merchant, credential } = await merchants.createMerchant({ name: name! }, by);
    console.log(JSON.stringify({ merchantId: merchant.id, apiKey: credential.apiKey, apiSecret: credential.apiSecret }));
  } else {
    const credential = await merchants.issueCredential(values.merchant!, by);
    console.log(
      JSON.stringify({ merchantId: values.merchant, credentialId: credential.id, apiKey: credential.apiKey, apiSecret: credential.apiSecret }),
    );
  }
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
} finally {
  await database.close();
}
