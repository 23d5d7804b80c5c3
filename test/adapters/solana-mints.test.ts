/**
 * The mint reader (adapters/chain/solana-mints.ts) on mint bytes built here as the token programs
 * lay them out: an SPL mint and Token-2022 mints with PYUSD's extensions pass; a transfer fee (in
 * force or scheduled), a hook program, a non-transferable mint or broken TLV are refused, at start
 * and at use; a Token-2022 mint is read again after TOKEN_2022_RECHECK_MS, an SPL mint never.
 */
import { randomBytes } from 'node:crypto';
import { address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { describe, expect, it } from 'vitest';
import { ChainTransferRefusedError } from '../../src/adapters/chain/port.ts';
import { call, checkConfiguredMints, createMintReader, MintRefusedError, type SolanaRpc, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_2022_RECHECK_MS } from '../../src/adapters/chain/solana-mints.ts';
import { ChainUnavailableError } from '../../src/adapters/chain/transactions-port.ts';
import { encodeBase58 } from '../../src/lib/base58.ts';

const MINT = encodeBase58(randomBytes(32));

function baseMint(decimals: number): Buffer {
  const data = Buffer.alloc(82);
  data.writeUInt32LE(1, 0);
  randomBytes(32).copy(data, 4);
  data[44] = decimals;
  data[45] = 1;
  return data;
}

const entry = (type: number, value: Buffer) => Buffer.concat([Buffer.from([type & 0xff, type >> 8, value.length & 0xff, value.length >> 8]), value]);

interface Fee {
  epoch?: bigint;
  maximumFee: bigint;
  basisPoints: number;
}
function feeConfig(older: Fee, newer: Fee = older): Buffer {
  const value = Buffer.alloc(108);
  randomBytes(64).copy(value, 0);
  for (const [at, fee] of [[72, older], [90, newer]] as const) {
    value.writeBigUInt64LE(fee.epoch ?? 0n, at);
    value.writeBigUInt64LE(fee.maximumFee, at + 8);
    value.writeUInt16LE(fee.basisPoints, at + 16);
  }
  return entry(1, value);
}
function hook(program?: Buffer): Buffer {
  const value = Buffer.alloc(64);
  randomBytes(32).copy(value, 0);
  program?.copy(value, 32);
  return entry(14, value);
}
function token2022Mint(decimals: number, ...entries: Buffer[]): Buffer {
  const data = Buffer.alloc(166);
  baseMint(decimals).copy(data, 0);
  data[165] = 1;
  return Buffer.concat([data, ...entries]);
}
/** PYUSD's other extensions on mainnet: a close authority, a permanent delegate, a metadata pointer. */
const PYUSD_OTHERS = [entry(3, randomBytes(32)), entry(12, randomBytes(32)), entry(18, randomBytes(64))];
const ZERO_FEE = { maximumFee: 0n, basisPoints: 0 };

function fakeRpc(account: () => { owner: string; data: Buffer } | null, calls: { count: number }) {
  return {
    getAccountInfo: () => ({
      send: async () => {
        calls.count++;
        const found = account();
        return { value: found ? { owner: found.owner, data: [found.data.toString('base64'), 'base64'] } : null };
      },
    }),
  } as unknown as SolanaRpc;
}

function reader(account: () => { owner: string; data: Buffer } | null, now = () => 0) {
  const calls = { count: 0 };
  const mintOf = createMintReader({ rpc: fakeRpc(account, calls), rpcCall: (method, run) => call(method, 1000, run), tokenMints: { PYUSD: MINT }, commitment: 'finalized', now });
  return { mintOf, calls };
}

const token2022 = (data: Buffer) => () => ({ owner: TOKEN_2022_PROGRAM_ADDRESS, data });

describe('mint reader: Token-2022 extensions', () => {
  it('reads an SPL Token mint (no extensions) once', async () => {
    let now = 0;
    const { mintOf, calls } = reader(() => ({ owner: TOKEN_PROGRAM_ADDRESS, data: baseMint(6) }), () => now);
    expect(await mintOf('PYUSD')).toEqual({ mint: address(MINT), decimals: 6, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    now += 10 * TOKEN_2022_RECHECK_MS;
    await mintOf('PYUSD');
    expect(calls.count).toBe(1);
  });

  it("accepts PYUSD's shape: a zero fee in force and scheduled, a hook naming no program, other extensions", async () => {
    const { mintOf } = reader(token2022(token2022Mint(6, feeConfig(ZERO_FEE, { ...ZERO_FEE, epoch: 605n }), ...PYUSD_OTHERS, hook())));
    expect(await mintOf('PYUSD')).toEqual({ mint: address(MINT), decimals: 6, tokenProgram: TOKEN_2022_PROGRAM_ADDRESS });
  });

  it('accepts basis points with a maximum fee of zero (nothing is ever withheld)', async () => {
    const { mintOf } = reader(token2022(token2022Mint(6, feeConfig({ maximumFee: 0n, basisPoints: 50 }), hook())));
    await expect(mintOf('PYUSD')).resolves.toMatchObject({ decimals: 6 });
  });

  it.each([
    ['a fee in force', token2022Mint(6, feeConfig({ maximumFee: 5_000_000n, basisPoints: 10 }, ZERO_FEE), hook()), /transfer fee is 10 basis points \(maximum 5000000/],
    ['a fee scheduled for a later epoch', token2022Mint(6, feeConfig(ZERO_FEE, { epoch: 700n, maximumFee: 1n, basisPoints: 1 })), /becomes 1 basis points from epoch 700/],
    ['a hook that names a program', token2022Mint(6, feeConfig(ZERO_FEE), hook(randomBytes(32))), /transfer hook names a program/],
    ['a non-transferable mint', token2022Mint(6, entry(9, Buffer.alloc(0))), /non-transferable/],
    ['an extension running past the end', token2022Mint(6, feeConfig(ZERO_FEE)).subarray(0, 250), /runs past the end/],
    ['a fee config of the wrong size', token2022Mint(6, entry(1, Buffer.alloc(100))), /TransferFeeConfig is 100 bytes/],
  ])('refuses %s, at every use', async (_what, data, reason) => {
    const { mintOf, calls } = reader(token2022(data));
    for (let use = 0; use < 2; use++) {
      const refused = mintOf('PYUSD');
      await expect(refused).rejects.toThrow(ChainTransferRefusedError);
      await expect(refused).rejects.toThrow(reason);
    }
    expect(calls.count).toBe(2);
  });

  it('reads a Token-2022 mint again after the recheck interval, and refuses a fee set since', async () => {
    let now = 1_000;
    let data = token2022Mint(6, feeConfig(ZERO_FEE), hook());
    const { mintOf, calls } = reader(() => ({ owner: TOKEN_2022_PROGRAM_ADDRESS, data }), () => now);
    await mintOf('PYUSD');
    data = token2022Mint(6, feeConfig(ZERO_FEE, { epoch: 900n, maximumFee: 100n, basisPoints: 25 }), hook());
    now += TOKEN_2022_RECHECK_MS - 1;
    await expect(mintOf('PYUSD')).resolves.toMatchObject({ decimals: 6 });
    expect(calls.count).toBe(1);
    now += 2;
    await expect(mintOf('PYUSD')).rejects.toThrow(/becomes 25 basis points/);
    expect(calls.count).toBe(2);
  });
});

describe('mint check at start', () => {
  const pyusd = token2022Mint(6, feeConfig(ZERO_FEE), hook());

  it('passes configured mints with the decimals SUPPORTED_TOKENS says', async () => {
    expect(await checkConfiguredMints(reader(token2022(pyusd)).mintOf, { PYUSD: 6 })).toEqual({ unreachable: [] });
  });

  it('stops the start for a refused mint, other decimals or a missing mint', async () => {
    await expect(checkConfiguredMints(reader(token2022(token2022Mint(6, hook(randomBytes(32))))).mintOf, { PYUSD: 6 })).rejects.toThrow(MintRefusedError);
    await expect(checkConfiguredMints(reader(token2022(pyusd)).mintOf, { PYUSD: 2 })).rejects.toThrow(/has 6 decimals, SUPPORTED_TOKENS says 2/);
    await expect(checkConfiguredMints(reader(() => null).mintOf, { PYUSD: 6 })).rejects.toMatchObject({ code: 'TOKEN_MINT_REFUSED', message: expect.stringMatching(/does not exist/) });
  });

  it('lets a node that does not answer through, naming the token', async () => {
    const down = (async () => {
      throw new ChainUnavailableError('Solana RPC getAccountInfo failed');
    }) as Parameters<typeof checkConfiguredMints>[0];
    expect(await checkConfiguredMints(down, { USDT: 6, PYUSD: 6 })).toEqual({ unreachable: ['USDT', 'PYUSD'] });
  });
});
