/**
 * Wire transactions in and out: strict base64 and @solana/kit's decoders (legacy, v0 and newer
 * versions decode; only legacy and v0 are read further), checked for the structural faults kit's
 * decoders let through, so that nothing later indexes past the message. Malformed input is a 400
 * VALIDATION_ERROR on `body.transaction`.
 */
import {
  type CompiledTransactionMessage,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type SignatureBytes,
  type Transaction,
} from '@solana/kit';
import { AppError } from '../../errors.ts';
import { checkVersion, type MessageView, type ReadableMessage, viewOf } from './message.ts';
import { TransactionRejectedError } from './rejection.ts';

export interface DecodedTransaction {
  transaction: Transaction;
  compiled: ReadableMessage;
  view: MessageView;
}

const FIELD = 'body.transaction';
const malformed = (problem: string) => new AppError('VALIDATION_ERROR', `transaction ${problem}`, { [FIELD]: problem });

/** Standard base64 (padding optional), nothing else: Buffer.from would silently skip junk. */
export function decodeBase64(text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
    throw malformed('must be a base64-encoded wire transaction');
  }
  return new Uint8Array(Buffer.from(text, 'base64'));
}

export const encodeBase64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/**
 * Decodes wire bytes; any structural problem is a 400 (never a 500), a message version other
 * than legacy or v0 a 422 (rule 1).
 */
export function decodeTransaction(wire: Uint8Array): DecodedTransaction {
  let transaction: Transaction;
  let decoded: CompiledTransactionMessage;
  try {
    const [read, end] = getTransactionDecoder().read(wire, 0);
    if (end !== wire.length) throw malformed(`has ${wire.length - end} bytes after its end`);
    transaction = read;
    const [message, messageEnd] = getCompiledTransactionMessageDecoder().read(transaction.messageBytes, 0);
    if (messageEnd !== transaction.messageBytes.length) throw malformed('message has trailing bytes');
    decoded = message;
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw malformed('bytes are not a Solana transaction');
  }
  const unsupported = checkVersion(decoded);
  if (unsupported) throw new TransactionRejectedError(unsupported);
  const compiled = decoded as ReadableMessage;
  const header = compiled.header;
  const lookups = 'addressTableLookups' in compiled ? (compiled.addressTableLookups ?? []) : [];
  const accountCount =
    compiled.staticAccounts.length + lookups.reduce((sum, lookup) => sum + lookup.writableIndexes.length + lookup.readonlyIndexes.length, 0);
  if (header.numSignerAccounts < 1) throw malformed('message has no signer (the fee payer must sign)');
  if (header.numSignerAccounts + header.numReadonlyNonSignerAccounts > compiled.staticAccounts.length || header.numReadonlySignerAccounts >= header.numSignerAccounts) {
    throw malformed('message header does not match its account keys');
  }
  if (Object.keys(transaction.signatures).length !== header.numSignerAccounts) {
    throw malformed('signature count does not match the message header');
  }
  for (const instruction of compiled.instructions) {
    const indices = [instruction.programAddressIndex, ...(instruction.accountIndices ?? [])];
    if (indices.some((index) => index >= accountCount)) throw malformed('instruction refers to an account the message does not have');
  }
  return { transaction, compiled, view: viewOf(compiled) };
}

/** The transaction with `signature` set for `address` (which must already be one of its signers). */
export function withSignature(transaction: Transaction, address: string, signature: Uint8Array): Transaction {
  return {
    ...transaction,
    signatures: Object.fromEntries(
      Object.entries(transaction.signatures).map(([signer, existing]) => [signer, signer === address ? (signature as SignatureBytes) : existing]),
    ) as Transaction['signatures'],
  };
}

export const encodeTransaction = (transaction: Transaction): Uint8Array => new Uint8Array(getTransactionEncoder().encode(transaction));
