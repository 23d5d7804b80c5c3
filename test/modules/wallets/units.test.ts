import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiteSvmSandbox, type LiteSvmSandbox } from '../../../src/adapters/chain/litesvm-sandbox.ts';
import { ConfigError, DEFAULT_ALLOWED_PROGRAMS, loadConfig } from '../../../src/config.ts';
import { checkComputeBudget, feeOf, readComputeBudget } from '../../../src/modules/wallets/fee.ts';
import { checkDurableNonce, checkLookupTables, checkSize, checkSponsorUse, inspectForSponsoring } from '../../../src/modules/wallets/inspect.ts';
import { describeInstruction } from '../../../src/modules/wallets/instructions.ts';
import { createKeyVault, signerFromKeypair } from '../../../src/lib/key-vault.ts';
import { checkVersion, type InstructionView, type MessageView } from '../../../src/modules/wallets/message.ts';
import { type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';
import { buildTransaction, COMPUTE_BUDGET, MEMO_PROGRAM, newAddress, SYSTEM_PROGRAM, transferSol } from './helpers.ts';

const managed = newAddress() as string;
const sponsor = newAddress() as string;
const settings = {
  allowedPrograms: DEFAULT_ALLOWED_PROGRAMS,
  maxComputeUnitPrice: 1_000_000,
  maxComputeUnitLimit: 400_000,
  maxFeeLamports: 500_000,
  maxInstructions: 12,
};
const transferData = new Uint8Array([2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
const ix = (programAddress: string, accounts: string[], data: Uint8Array): InstructionView => ({ programAddress, accounts, accountIndices: [], data });
const u32 = (kind: number, value: number) => {
  const data = new Uint8Array(5);
  data[0] = kind;
  new DataView(data.buffer).setUint32(1, value, true);
  return data;
};
const u64 = (kind: number, value: bigint) => {
  const data = new Uint8Array(9);
  data[0] = kind;
  new DataView(data.buffer).setBigUint64(1, value, true);
  return data;
};
const view = (instructions: InstructionView[], overrides: Partial<MessageView> = {}): MessageView => ({
  version: 0,
  numSigners: 1,
  numReadonlySigners: 0,
  numReadonlyNonSigners: 1,
  staticAccounts: [managed, newAddress(), SYSTEM_PROGRAM],
  lookupTableCount: 0,
  instructions,
  ...overrides,
});

describe('inspection rules (pure)', () => {
  const honest = ix(SYSTEM_PROGRAM, [managed, newAddress()], transferData);

  it('accepts an honest transfer and reads its compute budget', () => {
    expect(inspectForSponsoring(view([honest]), { managed, sponsor, settings })).toEqual({ unitPrice: 0n, unitLimit: undefined });
  });

  it('refuses versions other than legacy and v0, and lookup tables', () => {
    expect(checkVersion({ version: 1 })?.reason).toBe('UNSUPPORTED_VERSION');
    expect(checkVersion({ version: 'legacy' })).toBeNull();
    expect(checkLookupTables(view([honest], { lookupTableCount: 1 }))?.reason).toBe('ADDRESS_LOOKUP_TABLES');
    const inspected = inspectForSponsoring(view([honest], { lookupTableCount: 2 }), { managed, sponsor, settings });
    expect(inspected).toMatchObject({ reason: 'ADDRESS_LOOKUP_TABLES' });
  });

  it('refuses the sponsor as a signer anywhere but account 0', () => {
    const v = view([honest], { numSigners: 2, staticAccounts: [managed, sponsor, newAddress(), SYSTEM_PROGRAM] });
    expect(inspectForSponsoring(v, { managed, sponsor, settings })).toMatchObject({ reason: 'SPONSOR_NOT_FEE_PAYER' });
  });

  it('names instructions by program and instruction, or by program alone when the data is not one it knows', () => {
    const named = (program: string, data: number[]) => describeInstruction(ix(program, [], new Uint8Array(data)));
    const [token, token2022, ata] = ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb', 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'];
    expect(named(SYSTEM_PROGRAM, [2, 0, 0, 0])).toBe('System Transfer');
    expect(named(SYSTEM_PROGRAM, [11, 0, 0, 0])).toBe('System TransferWithSeed');
    // Shorter than the System program's 4-byte instruction index.
    expect(named(SYSTEM_PROGRAM, [4, 0, 0])).toBe('System');
    expect(named(token, [12])).toBe('SPL Token TransferChecked');
    expect(named(token2022, [12])).toBe('Token-2022 TransferChecked');
    // Token-2022's instruction 26 is its own (an extension), not SPL Token's 26.
    expect(named(token2022, [26])).toBe('Token-2022');
    expect(named(ata, [])).toBe('Associated Token Account Create');
    expect(named(ata, [1])).toBe('Associated Token Account CreateIdempotent');
    expect(named(ata, [9])).toBe('Associated Token Account');
    expect(named(COMPUTE_BUDGET, [3, 1, 0, 0, 0, 0, 0, 0, 0])).toBe('Compute Budget');
    expect(named(MEMO_PROGRAM, [104, 105])).toBe('Memo');
    expect(named(sponsor, [2, 0, 0, 0])).toBe(`program ${sponsor}`);
  });

  it('tells a transfer or an account funded by the sponsor by its System instruction, and finds a nonce advance anywhere', () => {
    const system = (index: number, accounts: string[]) => ix(SYSTEM_PROGRAM, accounts, new Uint8Array([index, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]));
    const other = newAddress();
    expect(checkSponsorUse(view([system(11, [sponsor, managed, other])]), sponsor)?.reason).toBe('SPONSOR_TRANSFER');
    expect(checkSponsorUse(view([system(3, [sponsor, other, managed])]), sponsor)?.reason).toBe('SPONSOR_FUNDS_ACCOUNT');
    // The sponsor as the destination of a transfer is not a transfer out of it, but still refused.
    expect(checkSponsorUse(view([system(2, [managed, sponsor])]), sponsor)).toMatchObject({ reason: 'SPONSOR_IN_INSTRUCTION', details: { accountPosition: 1 } });
    expect(checkDurableNonce(view([honest, system(4, [other, managed])]))).toMatchObject({ reason: 'DURABLE_NONCE', details: { instructionIndex: 1 } });
    expect(checkDurableNonce(view([honest, ix(SYSTEM_PROGRAM, [], new Uint8Array([4, 0, 0]))]))).toBeNull();
  });

  it('refuses compute budgets that are malformed, repeated or over the caps', () => {
    const ctx = { managed, sponsor, settings };
    const cb = (data: Uint8Array) => ix(COMPUTE_BUDGET, [], data);
    expect(inspectForSponsoring(view([cb(new Uint8Array([3, 1])), honest]), ctx)).toMatchObject({ reason: 'INVALID_COMPUTE_BUDGET' });
    expect(inspectForSponsoring(view([cb(u64(3, 1n)), cb(u64(3, 2n)), honest]), ctx)).toMatchObject({ reason: 'INVALID_COMPUTE_BUDGET' });
    // Trailing bytes, the deprecated RequestUnits, an unknown instruction, accounts: all malformed.
    expect(inspectForSponsoring(view([cb(new Uint8Array([...u32(2, 1000), 0])), honest]), ctx)).toMatchObject({ reason: 'INVALID_COMPUTE_BUDGET' });
    expect(inspectForSponsoring(view([cb(u64(0, 1n)), honest]), ctx)).toMatchObject({ reason: 'INVALID_COMPUTE_BUDGET' });
    expect(inspectForSponsoring(view([cb(u32(5, 1)), honest]), ctx)).toMatchObject({ reason: 'INVALID_COMPUTE_BUDGET' });
    expect(inspectForSponsoring(view([ix(COMPUTE_BUDGET, [managed], u32(2, 1000)), honest]), ctx)).toMatchObject({ reason: 'INVALID_COMPUTE_BUDGET' });
    expect(readComputeBudget(view([cb(u32(1, 32 * 1024)), cb(u32(4, 65_536)), honest]))).toEqual({ unitPrice: 0n, unitLimit: undefined });
    expect(inspectForSponsoring(view([cb(u32(2, 1_000_000)), honest]), ctx)).toMatchObject({ reason: 'COMPUTE_UNIT_LIMIT_TOO_HIGH' });
    expect(inspectForSponsoring(view([cb(u64(3, 1_000_001n)), honest]), ctx)).toMatchObject({ reason: 'COMPUTE_UNIT_PRICE_TOO_HIGH' });
    expect(inspectForSponsoring(view(Array.from({ length: 13 }, () => honest)), ctx)).toMatchObject({ reason: 'TOO_MANY_INSTRUCTIONS' });
  });

  it('names what is wrong with a compute budget: the instruction, the value and its cap, each cap exactly', () => {
    const cb = (data: Uint8Array) => ix(COMPUTE_BUDGET, [], data);
    expect(readComputeBudget(view([honest, cb(new Uint8Array([3, 1]))]))).toEqual({
      reason: 'INVALID_COMPUTE_BUDGET',
      message: 'instruction 1 is not a valid Compute Budget instruction',
      details: { instructionIndex: 1 },
    });
    expect(readComputeBudget(view([cb(u64(3, 1n)), honest, cb(u64(3, 2n))]))).toEqual({
      reason: 'INVALID_COMPUTE_BUDGET',
      message: 'instruction 2 repeats a Compute Budget setting',
      details: { instructionIndex: 2 },
    });

    const check = (instructions: InstructionView[]) => checkComputeBudget(view(instructions), readComputeBudget(view(instructions)) as { unitPrice: bigint; unitLimit: number | undefined }, settings);
    expect(check([cb(u64(3, 1_000_000n)), cb(u32(2, 400_000)), honest])).toBeNull();
    expect(check([cb(u64(3, 1_000_001n)), honest])).toEqual({
      reason: 'COMPUTE_UNIT_PRICE_TOO_HIGH',
      message: 'compute-unit price 1000001 micro-lamports exceeds the cap of 1000000 (WALLET_MAX_CU_PRICE_MICROLAMPORTS)',
      details: { computeUnitPrice: '1000001', max: 1_000_000 },
    });
    expect(check([cb(u32(2, 400_001)), honest])).toEqual({
      reason: 'COMPUTE_UNIT_LIMIT_TOO_HIGH',
      message: 'compute-unit limit 400001 exceeds the cap of 400000 (WALLET_MAX_CU_LIMIT)',
      details: { computeUnitLimit: 400_001, max: 400_000 },
    });
    // No SetComputeUnitLimit: the runtime's default (200,000 per instruction) is capped once the
    // transaction is priced, and costs nothing, so is not capped, when it is not.
    const three = [honest, honest, honest];
    expect(check([cb(u64(3, 1n)), ...three])).toEqual({
      reason: 'COMPUTE_UNIT_LIMIT_TOO_HIGH',
      message: 'the default compute-unit limit 600000 (200,000 per instruction; set SetComputeUnitLimit) exceeds the cap of 400000 (WALLET_MAX_CU_LIMIT)',
      details: { computeUnitLimit: 600_000, max: 400_000 },
    });
    expect(check(three)).toBeNull();
    expect(check([cb(u64(3, 1n)), honest, honest])).toBeNull();
  });

  it('computes the fee: 5,000 per signature plus ceil(price × limit / 10^6)', () => {
    const cb = (data: Uint8Array) => ix(COMPUTE_BUDGET, [], data);
    const two = view([honest], { numSigners: 2 });
    expect(feeOf(two, { unitPrice: 0n, unitLimit: undefined })).toBe(10_000n);
    expect(feeOf(two, { unitPrice: 1_000_000n, unitLimit: 300_000 })).toBe(310_000n);
    // Default limit: 200,000 per instruction other than Compute Budget.
    expect(feeOf(view([cb(u64(3, 10n)), honest, honest], { numSigners: 2 }), { unitPrice: 10n, unitLimit: undefined })).toBe(10_004n);
    const budget = readComputeBudget(view([cb(u32(2, 50_000)), cb(u64(3, 7n)), honest]));
    expect(budget).toEqual({ unitPrice: 7n, unitLimit: 50_000 });
  });

  it('refuses a serialized size over 1232 bytes', () => {
    expect(checkSize(1232)).toBeNull();
    expect(checkSize(1233)).toMatchObject({ reason: 'TRANSACTION_TOO_LARGE', details: { bytes: 1233, max: 1232 } });
  });
});

describe('keys and key settings', () => {
  it('rotates: a key sealed under version 1 opens after the KEK moves to version 2', () => {
    const kek1 = Buffer.alloc(32, 1).toString('base64');
    const kek2 = Buffer.alloc(32, 2).toString('base64');
    const sealed = createKeyVault({ kek: kek1, version: 1 }).generate('owner-1');
    const rotated = createKeyVault({ kek: kek2, version: 2, previous: { 1: kek1 } });
    expect(rotated.open('owner-1', sealed).address).toBe(sealed.address);
    expect(rotated.generate('owner-2').keyVersion).toBe(2);
    expect(() => createKeyVault({ kek: kek2, version: 2 }).open('owner-1', sealed)).toThrow();
  });

  it('reads the sponsor keypair as base58 or a JSON array and refuses mismatched halves', () => {
    const bytes = Array.from({ length: 64 }, (_, i) => i);
    expect(() => signerFromKeypair(JSON.stringify(bytes))).toThrow(/does not match/);
  });

  it('validates wallet settings without echoing secrets', () => {
    let problems: string[] = [];
    try {
      loadConfig({ WALLET_KEK: 'short-kek-secret', SPONSOR_PRIVATE_KEY: 'not-a-keypair-secret', SOLANA_RPC_URL: 'ftp://key-secret@x', WALLET_ALLOWED_PROGRAMS: 'nope' });
    } catch (err) {
      problems = (err as ConfigError).problems;
    }
    expect(problems.map((p) => p.split(' ')[0])).toEqual(['WALLET_KEK', 'SPONSOR_PRIVATE_KEY', 'SOLANA_RPC_URL', 'WALLET_ALLOWED_PROGRAMS']);
    expect(problems.join('\n')).not.toMatch(/short-kek-secret|not-a-keypair-secret|key-secret/);
  });
});

// The node answers only after `chain` is set (the app's first call comes after beforeAll).
describe('the JSON-RPC chain adapter (SOLANA_RPC_URL), against a JSON-RPC node backed by LiteSVM', () => {
  let server: Server;
  let chain: LiteSvmSandbox;
  let ctx: TestContext;
  const methods: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        void (async () => {
          const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
          methods.push(method);
          const wire = () => new Uint8Array(Buffer.from(params[0] as string, 'base64'));
          const context = { slot: 1 };
          let result: unknown;
          if (method === 'getLatestBlockhash') {
            const latest = await chain.getLatestBlockhash();
            result = { context, value: { blockhash: latest.blockhash, lastValidBlockHeight: Number(latest.lastValidBlockHeight) } };
          } else if (method === 'simulateTransaction') {
            const simulated = await chain.simulateTransaction(wire());
            result = { context, value: simulated.ok ? { err: null, logs: simulated.logs, unitsConsumed: simulated.unitsConsumed } : { err: simulated.error, logs: simulated.logs } };
          } else if (method === 'sendTransaction') {
            result = (await chain.sendTransaction(wire())).signature;
          } else if (method === 'getSignatureStatuses') {
            const statuses = await chain.getSignatureStatuses(params[0] as string[]);
            result = { context, value: statuses.map((s) => (s ? { slot: 1, confirmations: null, err: s.error ?? null, confirmationStatus: 'finalized' } : null)) };
          }
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
        })();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    ctx = await createTestContext({ SOLANA_RPC_URL: `http://127.0.0.1:${port}` });
    const sponsorAddress = ctx.app.services.wallets.sponsorAddress;
    chain = createLiteSvmSandbox({ sponsorAddress, sponsorLamports: 1_000_000_000 });
  });
  afterAll(async () => {
    await ctx.close();
    server.close();
  });

  it('sends through getLatestBlockhash, simulateTransaction and sendTransaction; statuses through getSignatureStatuses', async () => {
    expect(ctx.app.services.wallets.chain.kind).toBe('solana-rpc');
    const merchant = await ctx.createMerchant();
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/receivers',
      headers: merchant.headers,
      payload: { type: 'PF', document: randomCpf(), name: 'Rpc Receiver', email: 'rpc@example.com', createManagedWallet: true },
    });
    const receiver = created.json();
    await ctx.app.services.receivers.decideKyc(receiver.id, { approved: true }, { actor: 'test' }, { allowFromPending: true });
    await chain.airdrop(receiver.walletAddress, 1_000_000_000n);
    const destination = newAddress();
    const send = (transaction: string) =>
      ctx.app.inject({ method: 'POST', url: `/api/v1/receivers/${receiver.id}/wallet/sign-and-send-transaction`, headers: merchant.headers, payload: { transaction } });

    const response = await send(buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, destination, 100_000_000n)]));
    expect(response.statusCode, response.body).toBe(200);
    expect(methods).toEqual(['getLatestBlockhash', 'simulateTransaction', 'sendTransaction']);
    expect(await chain.getBalance(destination)).toBe(100_000_000n);
    expect(await ctx.app.services.wallets.chain.getSignatureStatuses([response.json().hash, '1'.repeat(64)])).toEqual([{ status: 'FINALIZED' }, null]);

    const failing = await send(buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, destination, 10n ** 15n)]));
    expect(expectErrorBody(failing, 422, 'TRANSACTION_REJECTED').details).toMatchObject({ reason: 'SIMULATION_FAILED' });
    // The sandbox wallet routes are not mounted over a real node.
    expect((await ctx.app.inject({ method: 'GET', url: `/api/v1/sandbox/wallet/balances/${destination}`, headers: merchant.headers })).statusCode).toBe(404);
  });

  it('an unreachable node is 503 PROVIDER_UNAVAILABLE, recorded as FAILED', async () => {
    const app = await ctx.buildApp({ SOLANA_RPC_URL: 'http://127.0.0.1:1' });
    const merchant = await ctx.createMerchant('Unreachable');
    const wallet = (await app.inject({ url: '/api/v1/merchant/wallet', headers: merchant.headers })).json().address as string;
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/merchant/wallet/sign-and-send-transaction',
      headers: merchant.headers,
      payload: { transaction: buildTransaction(wallet, [transferSol(wallet, newAddress(), 1n)]) },
    });
    expectErrorBody(response, 503, 'PROVIDER_UNAVAILABLE');
    const audit = await ctx.database.db.selectFrom('wallet_sign_requests').selectAll().where('merchant_id', '=', merchant.merchantId).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ outcome: 'FAILED', reason: 'CHAIN_UNAVAILABLE' });
  });
});
