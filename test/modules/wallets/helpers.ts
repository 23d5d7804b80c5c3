/**
 * Transactions built with @solana/kit for the wallet tests: unsigned (or partly signed) wire
 * transactions, base64, as a client would send them.
 */
import { generateKeyPairSync, verify } from 'node:crypto';
import {
  type Address,
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';

export const MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
export const COMPUTE_BUDGET = address('ComputeBudget111111111111111111111111111111');
export const SYSTEM_PROGRAM = address('11111111111111111111111111111111');
export const noop = (who: string) => createNoopSigner(address(who));

export function newAddress(): Address {
  const { publicKey } = generateKeyPairSync('ed25519');
  return getBase58Decoder().decode(Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url')) as Address;
}

/** Any 32 bytes: sign-and-send replaces the blockhash anyway. */
export const SOME_BLOCKHASH = newAddress() as string as Blockhash;

/** A wire transaction, base64, with `feePayer` as fee payer and no signatures. */
export function buildTransaction(feePayer: string, instructions: Instruction[], version: 'legacy' | 0 = 0): string {
  const message = pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayer(address(feePayer), m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: SOME_BLOCKHASH, lastValidBlockHeight: 1000n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(compileTransaction(message));
}

export const transferSol = (from: string, to: string, lamports: bigint) =>
  getTransferSolInstruction({ source: noop(from), destination: address(to), amount: lamports });

export const memo = (signer: string, text: string): Instruction => ({
  programAddress: MEMO_PROGRAM,
  accounts: [{ address: address(signer), role: AccountRole.READONLY_SIGNER }],
  data: new TextEncoder().encode(text),
});

export function computeUnitPrice(microLamports: bigint): Instruction {
  const data = new Uint8Array(9);
  data[0] = 3;
  new DataView(data.buffer).setBigUint64(1, microLamports, true);
  return { programAddress: COMPUTE_BUDGET, data };
}

export function decodeWire(base64: string) {
  return getTransactionDecoder().decode(Buffer.from(base64, 'base64'));
}

/** node:crypto's Ed25519 verification of `signature` over `message` by the key at `address`. */
export function verifiesFor(addr: string, message: Uint8Array, signature: Uint8Array): boolean {
  const x = Buffer.from(getBase58Encoder().encode(addr)).toString('base64url');
  const key = { key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' as const };
  return verify(null, message, key, signature);
}
