/**
 * What an operator does once, before and after a first production start, with the project's own
 * commands (README "Operators"), each run as its process against the run's database:
 * - `npm run migrate`;
 * - `npm run admin -- create-platform-keys`: the treasury and the sponsor, sealed under WALLET_KEK
 *   in the database (production refuses to start without them); then both funded on the chain
 *   simulator, the way a faucet funds them: SOL to each (the sponsor pays the PAYOUT deposit
 *   sweeps' fees: without SOL they stall), and USDC to the treasury;
 * - once the service answers, through the admin API with the admin token (`npm run admin --
 *   create-merchant` and `invite-operator` do the same, at the cost of a process that loads the
 *   whole service): the treasury's fundings told to the books (POST /admin/treasury/fundings), so
 *   GET /admin/treasury shows no drift; a merchant (production has no demo merchant); and the first
 *   operator invited (POST /admin/operators, during the bootstrap only), whose link is emailed: it
 *   lands in the mail sink.
 */
import { expectStatus, type HttpsClient } from './https-client.ts';
import { postJson } from './simulators.ts';
import type { Env } from './settings.ts';
import type { Supervisor } from './supervisor.ts';

export const TREASURY_FUNDING = { lamports: 2_000_000_000, sol: '2', usdcUnits: '1000000000', usdc: '1000' };
export const SPONSOR_FUNDING = { lamports: 1_000_000_000, sol: '1' };

export interface PlatformKeys {
  treasury: string;
  sponsor: string;
}

export interface Funded extends PlatformKeys {
  airdropSignature: string;
}

export interface Merchant {
  merchantId: string;
  apiKey: string;
  apiSecret: string;
}

export async function migrate(run: Supervisor, env: Env): Promise<string[]> {
  return (JSON.parse(await run.runNode('migrate', 'src/cli/migrate.ts', [], env)) as { ran: string[] }).ran;
}

export async function createPlatformKeys(run: Supervisor, env: Env): Promise<PlatformKeys> {
  const { keys } = JSON.parse(await run.runNode('create-platform-keys', 'src/cli/admin.ts', ['create-platform-keys'], env)) as { keys: Array<{ purpose: string; address: string }> };
  const addressOf = (purpose: string) => keys.find((key) => key.purpose === purpose)?.address ?? missing(purpose);
  return { treasury: addressOf('TREASURY'), sponsor: addressOf('SPONSOR') };
}

const missing = (purpose: string): never => {
  throw new Error(`create-platform-keys printed no ${purpose} key`);
};

/** The chain simulator's faucet: SOL to both keys, USDC to the treasury. */
export async function fundPlatformKeys(chainAdminUrl: string, usdcMint: string, keys: PlatformKeys): Promise<Funded> {
  const [{ signature }] = await Promise.all([
    postJson(`${chainAdminUrl}/airdrop`, { address: keys.treasury, lamports: TREASURY_FUNDING.lamports }),
    postJson(`${chainAdminUrl}/airdrop`, { address: keys.sponsor, lamports: SPONSOR_FUNDING.lamports }),
    postJson(`${chainAdminUrl}/mint-to`, { mint: usdcMint, owner: keys.treasury, amount: TREASURY_FUNDING.usdcUnits }),
  ]);
  return { ...keys, airdropSignature: signature as string };
}

export async function createMerchant(client: HttpsClient, apiUrl: string, adminToken: string, name: string): Promise<Merchant> {
  const answer = await client.call('POST', `${apiUrl}/admin/merchants`, { body: { name }, headers: { authorization: `Bearer ${adminToken}` } });
  const { merchant, credential } = expectStatus(answer, 201, 'POST /admin/merchants');
  return { merchantId: merchant.id as string, apiKey: credential.apiKey as string, apiSecret: credential.apiSecret as string };
}

export async function inviteOperator(client: HttpsClient, apiUrl: string, adminToken: string, email: string): Promise<void> {
  expectStatus(await client.call('POST', `${apiUrl}/admin/operators`, { body: { email, role: 'ADMIN' }, headers: { authorization: `Bearer ${adminToken}` } }), 202, 'POST /admin/operators');
}

/** The treasury's opening balances in the books (the sponsor's SOL is not the treasury's). */
export async function recordTreasuryFundings(client: HttpsClient, apiUrl: string, adminToken: string, funded: Funded, usdcMint: string): Promise<void> {
  const headers = { authorization: `Bearer ${adminToken}` };
  for (const body of [
    { currency: 'SOL', amount: TREASURY_FUNDING.sol, reference: funded.airdropSignature, note: 'chain simulator airdrop' },
    { currency: 'USDC', amount: TREASURY_FUNDING.usdc, reference: `mint-to-${usdcMint}`, note: 'chain simulator mint-to: opening balance' },
  ]) {
    expectStatus(await client.call('POST', `${apiUrl}/admin/treasury/fundings`, { body, headers }), 201, `POST /admin/treasury/fundings ${body.currency}`);
  }
}
