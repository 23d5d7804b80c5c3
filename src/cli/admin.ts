/**
 * Operator bootstrap without the HTTP API:
 *   npm run admin -- create-merchant --name "Acme"     prints {"merchantId","apiKey","apiSecret"}
 *   npm run admin -- issue-credential --merchant <id>   prints {"merchantId","credentialId","apiKey","apiSecret"}
 *   npm run admin -- set-destination-policy --merchant <id> --policy ANY|RECEIVER_ONLY [--reason "..."]
 *                                                        prints {"merchantId","destinationPolicy","updatedAt"}; audited
 *   npm run admin -- set-policies --merchant <id> [--payer-policy ANY|FIRST_PARTY] [--wallet-ownership-policy ALLOW|LIMITED|REQUIRED]
 *                                 [--unproven-wallet-limit-brl 500.00] [--reason "..."]
 *                                                        prints the merchant's policies (MerchantPolicies); each change audited
 *   npm run admin -- invite-operator --email <email> --role ADMIN|OPERATIONS|COMPLIANCE|FINANCE|VIEWER
 *                                                        break-glass for a fresh install: emails the operator a single-use
 *                                                        set-password link, only until two operators have enrolled TOTP;
 *                                                        prints the invitation (never the link); audited
 *   npm run admin -- generate-keys                       prints every production key (production-keys.ts); no database
 *   npm run admin -- create-platform-keys                creates the missing treasury and sponsor keys; prints their addresses
 *   npm run admin -- import-platform-key --purpose sponsor|treasury|treasury_N < keypair
 *                                                        seals an existing keypair read from stdin; prints its address
 *   npm run admin -- rotate-kek                          re-seals every key under WALLET_KEK_VERSION; prints counts
 *   npm run admin -- rotate-secrets                      re-seals what WEBHOOK_SECRET_KEY_PREVIOUS and API_SECRET_PEPPER_PREVIOUS
 *                                                        sealed under the current keys; rerunnable; prints counts
 *   npm run admin -- report operations --month YYYY-MM [--format csv|jsonl]
 *                                                        writes the month's operations register to stdout (report-command.ts)
 * (the key commands: key-commands.ts)
 * The secret is printed this once and never stored in clear. Uses the configured database
 * (DATABASE_URL, or the embedded one under DATA_DIR, which must not be open in a running server).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { UUID_PATTERN } from '../lib/ids.ts';
import { DESTINATION_POLICIES, PAYER_POLICIES, WALLET_OWNERSHIP_POLICIES } from '../modules/merchants/tables.ts';
import { OPERATOR_ROLES } from '../modules/operators/roles.ts';
import { cliConfig, cliName, fail, parseArgsProblem, runCli } from './config.ts';
import { KEY_USAGE, type KeyCommand, purposeOf, readKeypairFromStdin, runKeyCommand } from './key-commands.ts';
import { REPORT_USAGE, checkReportArgs, runReportCommand } from './report-command.ts';

const USAGE = {
  'create-merchant': 'npm run admin -- create-merchant --name "Acme"',
  'issue-credential': 'npm run admin -- issue-credential --merchant <merchant id>',
  'set-destination-policy': 'npm run admin -- set-destination-policy --merchant <merchant id> --policy ANY|RECEIVER_ONLY [--reason "..."]',
  'set-policies':
    'npm run admin -- set-policies --merchant <merchant id> [--payer-policy ANY|FIRST_PARTY] [--wallet-ownership-policy ALLOW|LIMITED|REQUIRED] [--unproven-wallet-limit-brl 500.00] [--reason "..."]',
  'invite-operator': 'npm run admin -- invite-operator --email <email> --role ADMIN|OPERATIONS|COMPLIANCE|FINANCE|VIEWER',
  'generate-keys': 'npm run admin -- generate-keys',
  report: REPORT_USAGE,
  ...KEY_USAGE,
} as const;
const ALL_USAGES = `npm run admin -- ${Object.values(USAGE).map((line) => line.replace('npm run admin -- ', '')).join(' | ')}`;

cliName('admin');
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      merchant: { type: 'string' },
      policy: { type: 'string' },
      reason: { type: 'string' },
      purpose: { type: 'string' },
      month: { type: 'string' },
      format: { type: 'string' },
      'payer-policy': { type: 'string' },
      'wallet-ownership-policy': { type: 'string' },
      'unproven-wallet-limit-brl': { type: 'string' },
    },
  });
} catch (err) {
  fail(parseArgsProblem(err, ALL_USAGES) ?? String(err));
}
const { positionals, values } = parsed;
const command = positionals[0];
if (!command) fail(`no command given; usage: ${ALL_USAGES}`);
if (!Object.hasOwn(USAGE, command)) fail(`unknown command "${command}"; usage: ${ALL_USAGES}`);
if (command === 'generate-keys') {
  const { productionKeyLines } = await import('./production-keys.ts');
  console.log(productionKeyLines().join('\n'));
  process.exit(0);
}
if (command === 'report') {
  const report = checkReportArgs(positionals.slice(1), values);
  await runCli(async () => runReportCommand(await cliConfig(), report));
  process.exit(0);
}
if (Object.hasOwn(KEY_USAGE, command)) {
  const purpose = command === 'import-platform-key' ? purposeOf(values.purpose) : undefined;
  const keypair = purpose ? await readKeypairFromStdin() : undefined;
  await runCli(async () => runKeyCommand(command as KeyCommand, { config: await cliConfig(), ...(purpose ? { purpose } : {}), ...(keypair ? { keypair } : {}) }));
  process.exit(0);
}
const usage = USAGE[command as keyof typeof USAGE];
const name = values.name?.trim();
if (command === 'create-merchant' && (!name || name.length < 2 || name.length > 255)) fail(`--name must have 2 to 255 characters; usage: ${usage}`);
if ((command === 'issue-credential' || command === 'set-destination-policy' || command === 'set-policies') && !UUID_PATTERN.test(values.merchant ?? '')) {
  fail(`--merchant must be a merchant id (a UUID, as create-merchant prints); usage: ${usage}`);
}
const policy = DESTINATION_POLICIES.find((p) => p === values.policy);
if (command === 'set-destination-policy' && !policy) fail(`--policy must be ${DESTINATION_POLICIES.join(' or ')}; usage: ${usage}`);
const operatorRole = OPERATOR_ROLES.find((r) => r === values.role);
if (command === 'invite-operator' && (!operatorRole || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email ?? ''))) fail(`--email must be an email and --role one of ${OPERATOR_ROLES.join(', ')}; usage: ${usage}`);
const payerPolicy = PAYER_POLICIES.find((p) => p === values['payer-policy']);
if (values['payer-policy'] !== undefined && !payerPolicy) fail(`--payer-policy must be ${PAYER_POLICIES.join(' or ')}; usage: ${usage}`);
const walletOwnershipPolicy = WALLET_OWNERSHIP_POLICIES.find((p) => p === values['wallet-ownership-policy']);
if (values['wallet-ownership-policy'] !== undefined && !walletOwnershipPolicy) fail(`--wallet-ownership-policy must be ${WALLET_OWNERSHIP_POLICIES.join(', ')}; usage: ${usage}`);

await runCli(async () => {
  const [{ openConfiguredDatabase }, { createServices }, { systemClock }, { createLogger }] = await Promise.all([
    import('../db/open-configured.ts'),
    import('../services.ts'),
    import('../lib/clock.ts'),
    import('../logger.ts'),
  ]);
  const config = await cliConfig();
  const database = await openConfiguredDatabase(config);
  try {
    // The development email port logs messages: to stderr here, so stdout stays the command's JSON.
    const { merchants, merchantPolicies, operators } = await createServices({ config, db: database.db, clock: systemClock, emailLog: createLogger('info', process.stderr) });
    const by = { actor: `cli:${os.userInfo().username}` };
    if (command === 'create-merchant') {
      const { merchant, credential } = await merchants.createMerchant({ name: name! }, by);
      console.log(JSON.stringify({ merchantId: merchant.id, apiKey: credential.apiKey, apiSecret: credential.apiSecret }));
    } else if (command === 'invite-operator') {
      // The same rule as POST /admin/operators: one person only during the bootstrap (403 after it).
      console.log(JSON.stringify(await operators.invite({ email: values.email!, role: operatorRole! }, by)));
    } else if (command === 'set-destination-policy') {
      const reason = values.reason?.trim();
      console.log(JSON.stringify(await merchantPolicies.set(values.merchant!, { destinationPolicy: policy!, ...(reason ? { reason } : {}) }, by)));
    } else if (command === 'set-policies') {
      const reason = values.reason?.trim();
      const cap = values['unproven-wallet-limit-brl'];
      const changes = {
        ...(payerPolicy ? { payerPolicy } : {}),
        ...(walletOwnershipPolicy ? { walletOwnershipPolicy } : {}),
        ...(cap !== undefined ? { unprovenWalletLimitBrl: cap } : {}),
        ...(reason ? { reason } : {}),
      };
      console.log(JSON.stringify(await merchantPolicies.set(values.merchant!, changes, by)));
    } else {
      const credential = await merchants.issueCredential(values.merchant!, by);
      console.log(
        JSON.stringify({ merchantId: values.merchant, credentialId: credential.id, apiKey: credential.apiKey, apiSecret: credential.apiSecret }),
      );
    }
  } finally {
    await database.close();
  }
});
