/**
 * Operator bootstrap without the HTTP API:
 *   npm run admin -- create-merchant --name "Acme"     prints {"merchantId","apiKey","apiSecret"}
 *   npm run admin -- issue-credential --merchant <id>   prints {"merchantId","credentialId","apiKey","apiSecret"}
 *   npm run admin -- set-destination-policy --merchant <id> --policy ANY|RECEIVER_ONLY [--reason "..."]
 *                                                        prints {"merchantId","destinationPolicy","updatedAt"}; audited
 *   npm run admin -- generate-keys                       prints every production key (production-keys.ts); no database
 * The secret is printed this once and never stored in clear. Uses the configured database
 * (DATABASE_URL, or the embedded one under DATA_DIR, which must not be open in a running server).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { openConfiguredDatabase } from '../db/open-configured.ts';
import { UUID_PATTERN } from '../lib/ids.ts';
import { DESTINATION_POLICIES } from '../modules/merchants/tables.ts';
import { systemClock } from '../lib/clock.ts';
import { createServices } from '../services.ts';
import { cliConfig, fail } from './config.ts';
import { productionKeyLines } from './production-keys.ts';

const USAGE =
  'usage: npm run admin -- create-merchant --name "Acme" | issue-credential --merchant <merchant id> | set-destination-policy --merchant <merchant id> --policy ANY|RECEIVER_ONLY [--reason "..."] | generate-keys';
const COMMANDS = ['create-merchant', 'issue-credential', 'set-destination-policy'];

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { name: { type: 'string' }, merchant: { type: 'string' }, policy: { type: 'string' }, reason: { type: 'string' } },
});
const command = positionals[0];
if (command === 'generate-keys') {
  console.log(productionKeyLines().join('\n'));
  process.exit(0);
}
const name = values.name?.trim();
if (command === 'create-merchant' && (!name || name.length < 2 || name.length > 255)) fail(`--name must have 2 to 255 characters\n${USAGE}`);
if ((command === 'issue-credential' || command === 'set-destination-policy') && !UUID_PATTERN.test(values.merchant ?? '')) fail(`--merchant must be a merchant id\n${USAGE}`);
const policy = DESTINATION_POLICIES.find((p) => p === values.policy);
if (command === 'set-destination-policy' && !policy) fail(`--policy must be ${DESTINATION_POLICIES.join(' or ')}\n${USAGE}`);
if (!COMMANDS.includes(command ?? '')) fail(USAGE);

const config = await cliConfig();
const database = await openConfiguredDatabase(config);
const { merchants, destinationPolicies } = await createServices({ config, db: database.db, clock: systemClock });
const by = { actor: `cli:${os.userInfo().username}` };
try {
  if (command === 'create-merchant') {
    const { merchant, credential } = await merchants.createMerchant({ name: name! }, by);
    console.log(JSON.stringify({ merchantId: merchant.id, apiKey: credential.apiKey, apiSecret: credential.apiSecret }));
  } else if (command === 'set-destination-policy') {
    const reason = values.reason?.trim();
    console.log(JSON.stringify(await destinationPolicies.set(values.merchant!, { policy: policy!, ...(reason ? { reason } : {}) }, by)));
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
