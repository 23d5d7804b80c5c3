/**
 * Issue 6, "Must show", through HTTP on a fresh embedded start (src/main.ts in its own process):
 * a managed wallet's transfer signed, then sponsored and executed on the LiteSVM sandbox chain,
 * and a smuggled transfer out of the sponsor refused.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomCpf } from '../helpers/documents.ts';
import { type RunningService, startService } from '../helpers/processes.ts';
import { buildTransaction, decodeWire, newAddress, transferSol, verifiesFor } from '../modules/wallets/helpers.ts';

describe('managed wallets on a fresh embedded start', () => {
  let service: RunningService;
  let base: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    service = await startService(await mkdtemp(path.join(os.tmpdir(), 'exchange-wallets-')));
    base = service.base;
    const demo = await service.demoCredentials();
    headers = { 'x-api-key': demo.apiKey, 'x-api-secret': demo.apiSecret, 'content-type': 'application/json' };
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    if (service) await rm(service.dataDir, { recursive: true, force: true });
  });

  const api = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${base}/api/v1${url}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { details?: Record<string, unknown> } };
  };

  it('creates, signs, sponsors and executes; refuses a smuggled transfer out of the sponsor', async () => {
    const created = await api('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Ana Souza', email: 'ana@example.com', createManagedWallet: true });
    expect(created.status).toBe(201);
    const wallet = created.body.walletAddress as string;
    expect(() => address(wallet)).not.toThrow();
    expect(created.body.hasManagedWallet).toBe(true);
    // A receiver's wallet signs once its KYC is approved (the sandbox decides from PENDING).
    expect((await api('POST', `/sandbox/receivers/${created.body.id}/kyc`, { decision: 'APPROVE' })).body).toMatchObject({ status: 'ACTIVE' });

    const sponsor = ((await (await fetch(`${base}/api/v1/wallet/fee-payer`)).json()) as { address: string }).address;
    expect((await api('POST', '/sandbox/wallet/airdrop', { address: wallet, lamports: 1_000_000_000 })).status).toBe(200);

    const destination = newAddress();
    const transfer = buildTransaction(wallet, [transferSol(wallet, destination, 250_000_000n)]);

    const signed = await api('POST', `/receivers/${created.body.id}/wallet/sign-transaction`, { transaction: transfer });
    expect(signed.status).toBe(200);
    const decoded = decodeWire(signed.body.signedTransaction as string);
    expect(verifiesFor(wallet, new Uint8Array(decoded.messageBytes), decoded.signatures[address(wallet)]!)).toBe(true);

    const lamports = async (who: string) => BigInt((await api('GET', `/sandbox/wallet/balances/${who}`)).body.lamports as number);
    const sponsorBefore = await lamports(sponsor);
    const sent = await api('POST', `/receivers/${created.body.id}/wallet/sign-and-send-transaction`, { transaction: transfer });
    expect(sent.status).toBe(200);
    const hash = sent.body.hash as string;
    expect(hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect((await api('GET', `/sandbox/wallet/transactions/${hash}`)).body).toMatchObject({ status: 'FINALIZED' });
    expect(sponsorBefore - (await lamports(sponsor))).toBe(10_000n);
    expect(await lamports(destination)).toBe(250_000_000n);

    const smuggled = buildTransaction(wallet, [transferSol(wallet, destination, 1n), transferSol(sponsor, newAddress(), 500_000_000n)]);
    const refused = await api('POST', `/receivers/${created.body.id}/wallet/sign-and-send-transaction`, { transaction: smuggled });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: 'TRANSACTION_REJECTED', details: { reason: 'SPONSOR_TRANSFER' } });
    expect(sponsorBefore - (await lamports(sponsor))).toBe(10_000n);

    // Development keys: generated under DATA_DIR, announced as such, never printed. The sponsor is
    // no file's secret: created at first start, sealed in the database, announced by address only.
    const secrets = JSON.parse(await readFile(path.join(service.dataDir, 'dev-secrets.json'), 'utf8')) as Record<string, string>;
    expect(secrets.walletKek).toBeTruthy();
    expect(secrets.sponsorPrivateKey).toBeUndefined();
    expect(service.output()).toContain('for development only');
    expect(service.output()).toMatch(new RegExp(`"purpose":"SPONSOR","address":"${sponsor}"[^\\n]*platform key created and sealed in the database`));
    expect(service.output()).not.toContain(secrets.walletKek);
  });
});
