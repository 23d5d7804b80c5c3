import { address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTransaction, decodeWire, newAddress, transferSol, verifiesFor } from './helpers.ts';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';

describe('managed wallets: sign-transaction', () => {
  let ctx: WalletsFixture['ctx'];
  let receiver: WalletsFixture['receiver'];
  let sign: WalletsFixture['sign'];

  beforeAll(async () => {
    ({ ctx, receiver, sign } = await createWalletsFixture());
  });
  afterAll(() => ctx.close());

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
  });
});
