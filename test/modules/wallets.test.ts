import { address } from '@solana/kit';
import { getAdvanceNonceAccountInstruction, getCreateAccountInstruction } from '@solana-program/system';
import {
  AccountState,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getCreateAssociatedTokenInstruction,
  getMintEncoder,
  getTokenDecoder,
  getTokenEncoder,
  getTransferCheckedInstruction,
  getTransferInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import type { LiteSvmSandbox } from '../../src/adapters/chain/litesvm-sandbox.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyVault } from '../../src/modules/wallets/keys.ts';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../helpers/app.ts';
import { randomCpf } from '../helpers/documents.ts';
import {
  buildTransaction,
  computeUnitPrice,
  decodeWire,
  memo,
  MEMO_PROGRAM,
  newAddress,
  noop,
  transferSol,
  verifiesFor,
} from './wallets-helpers.ts';

const UNKNOWN_ID = '00000000-0000-7000-8000-000000000000';
const SOL = 1_000_000_000n;

describe('managed wallets', () => {
  let ctx: TestContext;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let receiver: { id: string; walletAddress: string };
  let sponsor: string;

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown, who: TestMerchant = merchant) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  const createReceiver = async (body: Record<string, unknown>, who: TestMerchant = merchant) => {
    const response = await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Maria Silva', email: 'maria@example.com', ...body }, who);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const balance = async (addr: string) => {
    const response = await call('GET', `/sandbox/wallet/balances/${addr}`);
    expect(response.statusCode, response.body).toBe(200);
    return BigInt(response.json().lamports);
  };
  const airdrop = async (addr: string, lamports: bigint) => {
    const response = await call('POST', '/sandbox/wallet/airdrop', { address: addr, lamports: Number(lamports) });
    expect(response.statusCode, response.body).toBe(200);
  };
  const sign = (transaction: string, receiverId = receiver.id, who = merchant) =>
    call('POST', `/receivers/${receiverId}/wallet/sign-transaction`, { transaction }, who);
  const send = (transaction: string, receiverId = receiver.id, who = merchant) =>
    call('POST', `/receivers/${receiverId}/wallet/sign-and-send-transaction`, { transaction }, who);

  beforeAll(async () => {
    ctx = await createTestContext();
    merchant = await ctx.createMerchant('Wallet Merchant');
    other = await ctx.createMerchant('Other Merchant');
    receiver = await createReceiver({ createManagedWallet: true });
    sponsor = (await ctx.app.inject({ url: '/api/v1/wallet/fee-payer' })).json().address;
    await airdrop(receiver.walletAddress, 2n * SOL);
  });
  afterAll(() => ctx.close());

  describe('keys', () => {
    it('a receiver created with createManagedWallet has a valid Solana walletAddress and hasManagedWallet', async () => {
      const created = await createReceiver({ createManagedWallet: true });
      expect(created.hasManagedWallet).toBe(true);
      expect(() => address(created.walletAddress)).not.toThrow();
      const row = await ctx.database.db.selectFrom('managed_wallets').selectAll().where('receiver_id', '=', created.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ address: created.walletAddress, merchant_id: merchant.merchantId, key_version: 1 });
      const fetched = (await call('GET', `/receivers/${created.id}`)).json();
      expect(fetched).toMatchObject({ walletAddress: created.walletAddress, hasManagedWallet: true });
    });

    it('a receiver without createManagedWallet gets no key', async () => {
      const created = await createReceiver({});
      expect(created).toMatchObject({ walletAddress: null, hasManagedWallet: false });
      expect(await ctx.database.db.selectFrom('managed_wallets').select('id').where('receiver_id', '=', created.id).executeTakeFirst()).toBeUndefined();
    });

    it('keys at rest are not readable without the KEK (nor under another owner id)', async () => {
      const row = await ctx.database.db.selectFrom('managed_wallets').selectAll().where('receiver_id', '=', receiver.id).executeTakeFirstOrThrow();
      expect(row.encrypted_private_key).toMatch(/^v1:/);
      const right = createKeyVault({ kek: ctx.config.walletKek, version: 1 });
      const sealed = { encryptedPrivateKey: row.encrypted_private_key, keyVersion: row.key_version };
      expect(right.open(receiver.id, sealed).address).toBe(receiver.walletAddress);
      const wrongKek = createKeyVault({ kek: Buffer.alloc(32, 7).toString('base64'), version: 1 });
      expect(() => wrongKek.open(receiver.id, sealed)).toThrow();
      expect(() => right.open(merchant.merchantId, sealed)).toThrow();
      expect(() => right.open(receiver.id, { ...sealed, keyVersion: 2 })).toThrow();
    });

    it('publishes the fee payer without credentials', async () => {
      const response = await ctx.app.inject({ url: '/api/v1/wallet/fee-payer' });
      expect(response.statusCode).toBe(200);
      expect(() => address(response.json().address)).not.toThrow();
      expect(Object.keys(response.json())).toEqual(['address']);
    });
  });

  describe('sign-transaction', () => {
    it('adds a signature that node:crypto verifies against the managed address, keeping the others', async () => {
      const payer = newAddress();
      const tx = buildTransaction(payer, [transferSol(receiver.walletAddress, newAddress(), 1000n)]);
      // The client's own signature slot for its fee payer (a fake value that must survive untouched).
      const decoded = decodeWire(tx);
      const wire = Buffer.from(tx, 'base64');
      wire.fill(9, 1, 65);
      const response = await sign(wire.toString('base64'));
      expect(response.statusCode, response.body).toBe(200);
      const signed = decodeWire(response.json().signedTransaction);
      expect(Buffer.from(signed.messageBytes)).toEqual(Buffer.from(decoded.messageBytes));
      const signature = signed.signatures[address(receiver.walletAddress)];
      expect(signature).toBeTruthy();
      expect(verifiesFor(receiver.walletAddress, new Uint8Array(signed.messageBytes), signature!)).toBe(true);
      expect(Buffer.from(signed.signatures[payer]!)).toEqual(Buffer.alloc(64, 9));
    });

    it('refuses a transaction the managed key does not sign', async () => {
      const tx = buildTransaction(newAddress(), [memo(newAddress(), 'hello')]);
      const body = expectErrorBody(await sign(tx), 422, 'TRANSACTION_REJECTED');
      expect(body.details).toMatchObject({ reason: 'MANAGED_KEY_NOT_SIGNER' });
    });

    it('malformed base64 or bytes are 400 VALIDATION_ERROR with details', async () => {
      for (const transaction of ['not base64!', 'AAAA', Buffer.from('hello world, not a transaction').toString('base64'), '']) {
        const body = expectErrorBody(await sign(transaction), 400, 'VALIDATION_ERROR');
        expect(Object.keys(body.details ?? {})).toEqual(['body.transaction']);
      }
      expectErrorBody(await call('POST', `/receivers/${receiver.id}/wallet/sign-transaction`, {}), 400, 'VALIDATION_ERROR');
      expectErrorBody(await call('POST', `/receivers/${receiver.id}/wallet/sign-transaction`, { transaction: 'AA==', extra: 1 }), 400, 'VALIDATION_ERROR');
      // Valid transaction followed by junk.
      const tx = Buffer.concat([Buffer.from(buildTransaction(receiver.walletAddress, [memo(receiver.walletAddress, 'x')]), 'base64'), Buffer.from([1, 2])]);
      expectErrorBody(await sign(tx.toString('base64')), 400, 'VALIDATION_ERROR');
    });

    it('a receiver without a managed wallet is 422 NO_MANAGED_WALLET; unknown and foreign receivers are 404', async () => {
      const plain = await createReceiver({});
      const tx = buildTransaction(receiver.walletAddress, [memo(receiver.walletAddress, 'x')]);
      expectErrorBody(await sign(tx, plain.id), 422, 'NO_MANAGED_WALLET');
      expectErrorBody(await send(tx, plain.id), 422, 'NO_MANAGED_WALLET');
      expectErrorBody(await sign(tx, UNKNOWN_ID), 404, 'NOT_FOUND');
      expectErrorBody(await sign(tx, receiver.id, other), 404, 'NOT_FOUND');
      expectErrorBody(await send(tx, receiver.id, other), 404, 'NOT_FOUND');
      expectErrorBody(await call('POST', '/receivers/not-a-uuid/wallet/sign-transaction', { transaction: tx }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('sign-and-send-transaction', () => {
    it('an honest SOL transfer executes on the sandbox chain: the sponsor pays exactly the fee, the receiver exactly the transfer', async () => {
      const destination = newAddress();
      const amount = 123_456_789n;
      const [sponsorBefore, walletBefore] = [await balance(sponsor), await balance(receiver.walletAddress)];
      const response = await send(buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, destination, amount)]));
      expect(response.statusCode, response.body).toBe(200);
      const { hash } = response.json();
      expect(hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
      // Two signatures (sponsor and managed key) at 5,000 lamports each, no priority fee.
      expect(sponsorBefore - (await balance(sponsor))).toBe(10_000n);
      expect(walletBefore - (await balance(receiver.walletAddress))).toBe(amount);
      expect(await balance(destination)).toBe(amount);
      const status = await call('GET', `/sandbox/wallet/transactions/${hash}`);
      expect(status.json()).toMatchObject({ signature: hash, status: 'FINALIZED' });
      const audit = await ctx.database.db.selectFrom('wallet_sign_requests').selectAll().where('signature', '=', hash).executeTakeFirstOrThrow();
      expect(audit).toMatchObject({ receiver_id: receiver.id, operation: 'SIGN_AND_SEND', outcome: 'SENT', reason: null, fee_lamports: 10_000 });
    });

    it('an honest USDC transfer (destination token account created and paid by the wallet) executes; the sponsor pays only the fee', async () => {
      const svm = (ctx.app.services.wallets.chain as LiteSvmSandbox).vm();
      const usdc = newAddress();
      const owner = address(receiver.walletAddress);
      const destination = newAddress();
      const [source] = await findAssociatedTokenPda({ owner, mint: usdc, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      const [target] = await findAssociatedTokenPda({ owner: destination, mint: usdc, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      const account = (addr: typeof usdc, data: Uint8Array) => ({ address: addr, data, executable: false, lamports: 10_000_000n as never, programAddress: TOKEN_PROGRAM_ADDRESS, space: BigInt(data.length) });
      svm.setAccount(account(usdc, new Uint8Array(getMintEncoder().encode({ mintAuthority: null, supply: 100_000_000n, decimals: 6, isInitialized: true, freezeAuthority: null }))));
      svm.setAccount(
        account(source, new Uint8Array(getTokenEncoder().encode({ mint: usdc, owner, amount: 100_000_000n, delegate: null, state: AccountState.Initialized, isNative: null, delegatedAmount: 0n, closeAuthority: null }))),
      );
      const tokens = (addr: typeof usdc) => {
        const found = svm.getAccount(addr);
        return found.exists ? getTokenDecoder().decode(found.data).amount : 0n;
      };
      const sponsorBefore = await balance(sponsor);
      const response = await send(
        buildTransaction(receiver.walletAddress, [
          getCreateAssociatedTokenIdempotentInstruction({ payer: noop(receiver.walletAddress), ata: target, owner: destination, mint: usdc }),
          getTransferCheckedInstruction({ source, mint: usdc, destination: target, authority: noop(receiver.walletAddress), amount: 12_345_678n, decimals: 6 }),
        ]),
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(sponsorBefore - (await balance(sponsor))).toBe(10_000n);
      expect(tokens(source)).toBe(100_000_000n - 12_345_678n);
      expect(tokens(target)).toBe(12_345_678n);
    });

    it('accepts the sponsor already set as fee payer, and a legacy message', async () => {
      const before = await balance(sponsor);
      const response = await send(buildTransaction(sponsor, [transferSol(receiver.walletAddress, newAddress(), 1_000_000n)], 'legacy'));
      expect(response.statusCode, response.body).toBe(200);
      expect(before - (await balance(sponsor))).toBe(10_000n);
    });

    it('the same transaction twice is sent twice (a fresh blockhash each time)', async () => {
      const tx = buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, newAddress(), 1_000_000n)]);
      const first = await send(tx);
      const second = await send(tx);
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect(first.json().hash).not.toBe(second.json().hash);
    });

    describe('drain attempts, each refused with its reason before anything is sent', () => {
      const attacker = newAddress();
      const cases: Array<[string, () => Promise<string>, string]> = [
        ['a System transfer from the sponsor', async () => buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, attacker, 1n), transferSol(sponsor, attacker, SOL)]), 'SPONSOR_TRANSFER'],
        [
          'CreateAccount funded by the sponsor',
          async () =>
            buildTransaction(receiver.walletAddress, [
              getCreateAccountInstruction({ payer: noop(sponsor), newAccount: noop(receiver.walletAddress), lamports: 10_000_000n, space: 0, programAddress: address(attacker) }),
            ]),
          'SPONSOR_FUNDS_ACCOUNT',
        ],
        [
          'an associated-token-account creation paid by the sponsor',
          async () => {
            const mint = newAddress();
            const [ata] = await findAssociatedTokenPda({ owner: address(receiver.walletAddress), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
            return buildTransaction(receiver.walletAddress, [getCreateAssociatedTokenInstruction({ payer: noop(sponsor), ata, owner: address(receiver.walletAddress), mint })]);
          },
          'SPONSOR_PAYS_RENT',
        ],
        [
          'the sponsor as a writable account of an SPL instruction',
          async () =>
            buildTransaction(receiver.walletAddress, [getTransferInstruction({ source: newAddress(), destination: address(sponsor), authority: noop(receiver.walletAddress), amount: 1n })]),
          'SPONSOR_IN_INSTRUCTION',
        ],
        [
          'the sponsor as program id',
          async () => buildTransaction(receiver.walletAddress, [{ programAddress: address(sponsor), accounts: [], data: new Uint8Array([2, 0, 0, 0]) }, memo(receiver.walletAddress, 'x')]),
          'SPONSOR_AS_PROGRAM',
        ],
        [
          'a durable-nonce advance',
          async () =>
            buildTransaction(receiver.walletAddress, [getAdvanceNonceAccountInstruction({ nonceAccount: newAddress(), nonceAuthority: noop(receiver.walletAddress) }), transferSol(receiver.walletAddress, attacker, 1n)]),
          'DURABLE_NONCE',
        ],
        ['a compute-unit price over the cap', async () => buildTransaction(receiver.walletAddress, [computeUnitPrice(10_000_000_000n), memo(receiver.walletAddress, 'x')]), 'COMPUTE_UNIT_PRICE_TOO_HIGH'],
        ['a foreign required signer', async () => buildTransaction(receiver.walletAddress, [transferSol(newAddress(), attacker, SOL), memo(receiver.walletAddress, 'x')]), 'FOREIGN_SIGNER'],
        ['a foreign fee payer', async () => buildTransaction(attacker, [memo(receiver.walletAddress, 'x')]), 'FOREIGN_SIGNER'],
        ['an oversize message', async () => buildTransaction(receiver.walletAddress, [memo(receiver.walletAddress, 'x'.repeat(1050))]), 'TRANSACTION_TOO_LARGE'],
        ['a program outside the allow-list', async () => buildTransaction(receiver.walletAddress, [{ programAddress: address(attacker), accounts: [], data: new Uint8Array() }]), 'PROGRAM_NOT_ALLOWED'],
        ['nothing but Compute Budget', async () => buildTransaction(receiver.walletAddress, [computeUnitPrice(1n)]), 'NO_INSTRUCTIONS'],
        // The managed key only as the caller's fee payer: once the sponsor replaces it, nobody but the sponsor signs.
        ['no use of the managed key but as fee payer', async () => buildTransaction(receiver.walletAddress, [{ programAddress: MEMO_PROGRAM, accounts: [], data: new Uint8Array([1]) }]), 'MANAGED_KEY_NOT_SIGNER'],
        ['a transfer the managed wallet cannot pay (fails in simulation)', async () => buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, attacker, 1_000_000n * SOL)]), 'SIMULATION_FAILED'],
      ];

      it.each(cases)('%s', async (_name, build, reason) => {
        const before = await balance(sponsor);
        const body = expectErrorBody(await send(await build()), 422, 'TRANSACTION_REJECTED');
        expect(body.details?.reason, body.message).toBe(reason);
        expect(body.message.length).toBeGreaterThan(20);
        expect(await balance(sponsor)).toBe(before);
        expect(await balance(attacker)).toBe(0n);
        const audit = await ctx.database.db
          .selectFrom('wallet_sign_requests')
          .selectAll()
          .where('receiver_id', '=', receiver.id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        expect(audit).toMatchObject({ outcome: 'REJECTED', reason, operation: 'SIGN_AND_SEND', signature: null });
      });

      it('a simulation failure carries the simulation error', async () => {
        const body = expectErrorBody(await send(buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, attacker, 1_000_000n * SOL)])), 422, 'TRANSACTION_REJECTED');
        expect(body.details).toMatchObject({ reason: 'SIMULATION_FAILED', simulationError: expect.stringMatching(/\w/) });
      });
    });
  });

  describe('merchant wallet', () => {
    it('is created on first use, once, even under concurrent first calls', async () => {
      const fresh = await ctx.createMerchant('Lazy Wallet');
      const answers = await Promise.all(Array.from({ length: 5 }, () => call('GET', '/merchant/wallet', undefined, fresh)));
      const addresses = new Set(answers.map((r) => r.json().address));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(addresses.size).toBe(1);
      const rows = await ctx.database.db.selectFrom('managed_wallets').select('address').where('merchant_id', '=', fresh.merchantId).execute();
      expect(rows).toHaveLength(1);
    });

    it('signs and sends like a receiver wallet', async () => {
      const { address: own } = (await call('GET', '/merchant/wallet')).json();
      await airdrop(own, SOL);
      const before = await balance(sponsor);
      const tx = buildTransaction(own, [transferSol(own, newAddress(), 5_000_000n)]);
      const signed = await call('POST', '/merchant/wallet/sign-transaction', { transaction: tx });
      expect(signed.statusCode, signed.body).toBe(200);
      const decoded = decodeWire(signed.json().signedTransaction);
      expect(verifiesFor(own, new Uint8Array(decoded.messageBytes), decoded.signatures[address(own)]!)).toBe(true);
      const sent = await call('POST', '/merchant/wallet/sign-and-send-transaction', { transaction: tx });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(before - (await balance(sponsor))).toBe(10_000n);
      const drain = await call('POST', '/merchant/wallet/sign-and-send-transaction', { transaction: buildTransaction(own, [transferSol(sponsor, own, SOL)]) });
      expect(expectErrorBody(drain, 422, 'TRANSACTION_REJECTED').details?.reason).toBe('SPONSOR_TRANSFER');
    });
  });

  it('mutated transactions are never a 500 (400, 422 or, when still valid, 200)', async () => {
    const valid = Buffer.from(buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, newAddress(), 1_000_000n), memo(receiver.walletAddress, 'fuzz')]), 'base64');
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const app = await ctx.buildApp({ WALLET_SIGN_RATE_LIMIT_PER_MINUTE: '0' });
    const post = (operation: string, body: Buffer) =>
      app.inject({ method: 'POST', url: `/api/v1/receivers/${receiver.id}/wallet/${operation}`, headers: merchant.headers, payload: { transaction: body.toString('base64') } });
    const statuses = new Set<number>();
    for (let i = 0; i < 150; i++) {
      const mutated = Buffer.from(valid);
      for (let flips = 1 + random(3); flips > 0; flips--) mutated[random(mutated.length)] = random(256);
      const cut = random(10) === 0 ? mutated.subarray(0, random(mutated.length)) : mutated;
      for (const response of [await post('sign-transaction', cut), await post('sign-and-send-transaction', cut)]) {
        statuses.add(response.statusCode);
        expect([200, 400, 422], response.body).toContain(response.statusCode);
      }
    }
    expect(statuses.has(400) || statuses.has(422)).toBe(true);
  });

  it('a sandbox airdrop the chain refuses is 422 TRANSACTION_REJECTED, not a 500', async () => {
    const response = await call('POST', '/sandbox/wallet/airdrop', { address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', lamports: 1 });
    expectErrorBody(response, 422, 'TRANSACTION_REJECTED');
  });

  it('rate-limits sign requests per receiver', async () => {
    const app = await ctx.buildApp({ WALLET_SIGN_RATE_LIMIT_PER_MINUTE: '2' });
    const second = await createReceiver({ createManagedWallet: true });
    const tx = (owner: string) => buildTransaction(owner, [memo(owner, 'rate')]);
    const signAt = (id: string, owner: string) =>
      app.inject({ method: 'POST', url: `/api/v1/receivers/${id}/wallet/sign-transaction`, headers: merchant.headers, payload: { transaction: tx(owner) } });
    expect((await signAt(receiver.id, receiver.walletAddress)).statusCode).toBe(200);
    expect((await signAt(receiver.id, receiver.walletAddress)).statusCode).toBe(200);
    const limited = await signAt(receiver.id, receiver.walletAddress);
    expectErrorBody(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signAt(second.id, second.walletAddress)).statusCode).toBe(200);
  });
});
