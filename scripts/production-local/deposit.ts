/**
 * A customer's deposit for a PAYOUT on the local chain: a fresh wallet gets the tokens from the
 * chain simulator's faucet (admin mint-to) and its SOL from the node's requestAirdrop, then sends a
 * real SPL transfer to the order's depositAddress, which the service's deposit watcher finds as it
 * would on a cluster (a faucet mint straight into the deposit address would be no transaction, and
 * nothing to find). The transfer is built by the service's own sandbox depositor
 * (src/adapters/chain/solana-sandbox-depositor.ts), which production never starts.
 *
 *   npm run -s production-local:deposit -- <depositAddress> <amount> [--state-dir data/production-local]
 *
 * reads the RPC URL and the mint from <state>/service.env, and prints {"signature","from"}.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSandboxDepositor } from '../../src/adapters/chain/solana-sandbox-depositor.ts';
import { signerFromSeed } from '../../src/lib/key-vault.ts';
import { decimal } from '../../src/lib/money.ts';
import { postJson } from './simulators.ts';

export interface DepositInput {
  rpcUrl: string;
  usdcMint: string;
  destination: string;
  /** Whole USDC, decimal text. */
  amount: string;
}

export async function depositUsdc(input: DepositInput): Promise<{ signature: string; from: string }> {
  const customer = signerFromSeed(randomBytes(32));
  const units = decimal(input.amount).times(1e6).toFixed(0);
  await postJson(`${input.rpcUrl.replace(/\/$/, '')}/admin/mint-to`, { mint: input.usdcMint, owner: customer.address, amount: units });
  const depositor = createSandboxDepositor({
    settings: { rpcUrl: input.rpcUrl, commitment: 'confirmed', tokenMints: { USDC: input.usdcMint }, computeUnitLimit: 60_000, priorityFeeMaxMicroLamports: 0 },
    signer: customer,
  });
  const { signature } = await depositor.deposit({ reference: 'production-local customer deposit', token: 'USDC', amount: input.amount, destination: input.destination });
  return { signature, from: customer.address };
}

/** NAME='value' lines of service.env. */
function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z_0-9]+)='(.*)'$/.exec(line);
    if (match) env[match[1]!] = match[2]!.replaceAll(`'\\''`, "'");
  }
  return env;
}

if (import.meta.main) {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { 'state-dir': { type: 'string', default: path.join('data', 'production-local') } } });
  const [destination, amount] = positionals;
  if (!destination || !amount || !/^\d{1,12}(\.\d{1,6})?$/.test(amount)) {
    console.error('usage: npm run -s production-local:deposit -- <depositAddress> <amount in USDC, e.g. 1.5> [--state-dir DIR]');
    process.exit(1);
  }
  let env: Record<string, string>;
  try {
    env = readEnvFile(path.join(values['state-dir'], 'service.env'));
  } catch {
    console.error(`production-local:deposit: no ${path.join(values['state-dir'], 'service.env')}: start npm run production-local first (or pass its --state-dir)`);
    process.exit(1);
  }
  const usdcMint = /USDC:([1-9A-HJ-NP-Za-km-z]+)/.exec(env.CHAIN_TOKEN_MINTS ?? '')?.[1];
  try {
    console.log(JSON.stringify(await depositUsdc({ rpcUrl: env.SOLANA_RPC_URL!, usdcMint: usdcMint!, destination, amount })));
  } catch (err) {
    console.error(`production-local:deposit: ${(err as Error).message}`);
    process.exit(1);
  }
}
