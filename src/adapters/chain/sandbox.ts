/**
 * The sandbox chain: the ChainAdapter port with its state in the database (sandbox_chain_*),
 * producing Solana-shaped values: deposit addresses are real Ed25519 public keys (base58, 32
 * bytes) and transaction hashes are base58 of 64 random bytes, the shape of a signature.
 * Nothing is broadcast: a prepared transfer's wire is its intent encoded (no signature), its
 * sending writes the row, CONFIRMED at once unless a test armed its failure; a transfer never
 * expires and costs nothing. One transfer per reference (the order id): sending a second,
 * different one for it is refused.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { getAddressDecoder, getBase58Decoder } from '@solana/kit';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SandboxChainTransfersTable } from './sandbox-tables.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal } from '../../lib/money.ts';
import { isSolanaAddress } from '../../lib/solana.ts';
import type { ChainAdapter, ChainDeposit, PreparedTransfer, TokenAmount, TransferStatus } from './port.ts';
import { chainSandboxRepo as repo } from './sandbox-repo.ts';

export interface SandboxChain extends ChainAdapter {
  readonly chain: 'solana';
  /** Somebody sends `amount` of the address's token to a deposit address this sandbox issued. */
  simulateDeposit(input: { depositAddress: string; amount: TokenAmount }): Promise<ChainDeposit>;
  /** The next transfer sent to `destination` (another reference) lands FAILED with `error`. */
  failNextTransferTo(destination: string, error?: string): Promise<void>;
  /**
   * The transfer sent for reference `idempotencyKey` (orders use their id) lands FAILED with
   * `error`: armed ahead for one order, where failNextTransferTo would hit whichever order of the
   * receiver's wallet transfers first.
   */
  failTransferWithKey(idempotencyKey: string, error?: string): Promise<void>;
  /** A transfer already sent turns FAILED (e.g. dropped before finalisation). */
  markTransferFailed(txHash: string, error: string): Promise<void>;
}

export class ChainSandboxNotFoundError extends AppError {
  constructor(what: string, id: string) {
    super('NOT_FOUND', `sandbox chain: ${what} ${id} not found`);
    this.name = 'ChainSandboxNotFoundError';
  }
}

/** Bad input, or an idempotency key reused with another body. */
export class ChainSandboxRefusedError extends AppError {
  constructor(message: string) {
    super('CONFLICT', `sandbox chain: ${message}`);
    this.name = 'ChainSandboxRefusedError';
  }
}

/** DOMAIN.md (Solana): USDC has 6 decimals. A token SUPPORTED_TOKENS does not name: 9, the common SPL mint setting. */
const DEFAULT_TOKEN_DECIMALS: Record<string, number> = { USDC: 6 };

const base58 = getBase58Decoder();
const addressFromBytes = getAddressDecoder();

/** A fresh Ed25519 public key as a Solana address. The private key is discarded: nothing spends from it. */
function newAddress(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  if (!x) throw new Error('Ed25519 public key without x');
  return addressFromBytes.decode(Buffer.from(x, 'base64url'));
}

/** Signature-shaped: base58 of 64 random bytes (the "hash" Solana returns is the first signature). */
const newTxHash = (): string => base58.decode(randomBytes(64));

/** What a sandbox transfer's wire encodes (base64 of its JSON): the intent and its signature-shaped hash. */
interface SandboxWire {
  reference: string;
  token: string;
  amount: string;
  destination: string;
  txHash: string;
}

/** Sandbox transfers never expire: the largest block height (u64). */
const NEVER_EXPIRES = '18446744073709551615';

/** `tokenDecimals`: SUPPORTED_TOKENS, so a token's amounts have its configured decimals (no code per token). */
export function createSandboxChain(deps: { db: Db; clock: Clock; tokenDecimals?: Record<string, number> }): SandboxChain {
  const { db, clock } = deps;
  const tokenDecimals = { ...DEFAULT_TOKEN_DECIMALS, ...deps.tokenDecimals };
  const decimalsOf = (token: string): number => tokenDecimals[token] ?? 9;

  const tokenAmount = (token: string, amount: TokenAmount): string => {
    const places = decimalsOf(token);
    if (typeof amount !== 'string' || !/^\d{1,20}(\.\d+)?$/.test(amount)) {
      throw new ChainSandboxRefusedError(`amount must be decimal text, e.g. "18.518518" (got ${JSON.stringify(amount)})`);
    }
    const value = decimal(amount);
    if (value.lte(0)) throw new ChainSandboxRefusedError('amount must be positive');
    if (value.decimalPlaces() > places) throw new ChainSandboxRefusedError(`${token} amounts have at most ${places} decimals`);
    return value.toFixed(places);
  };

  /** A reference has one transfer: its re-sending is a no-op, another transfer is refused. */
  const sameTransferOrRefuse = (row: Selectable<SandboxChainTransfersTable>, intent: SandboxWire) => {
    if (row.tx_hash !== intent.txHash || row.token !== intent.token || row.destination !== intent.destination || !decimal(row.amount).eq(intent.amount)) {
      throw new ChainSandboxRefusedError(`reference ${row.idempotency_key} already has another transfer`);
    }
  };

  const decodeWire = (prepared: PreparedTransfer): SandboxWire => {
    let intent: Partial<SandboxWire>;
    try {
      intent = JSON.parse(Buffer.from(prepared.wire, 'base64').toString('utf8')) as Partial<SandboxWire>;
    } catch {
      throw new ChainSandboxRefusedError('wire is not a transfer this sandbox prepared');
    }
    const { reference, token, amount, destination, txHash } = intent;
    if (!reference || !token || !amount || !destination || txHash !== prepared.txHash) throw new ChainSandboxRefusedError('wire is not a transfer this sandbox prepared');
    return { reference, token, amount: tokenAmount(token, amount), destination, txHash };
  };

  return {
    chain: 'solana',

    async createDepositAddress({ orderId, token }) {
      if (!orderId) throw new ChainSandboxRefusedError('orderId must not be empty');
      const existing =
        (await repo.findDepositAddressByOrder(db, orderId)) ??
        (await repo.insertDepositAddress(db, { address: newAddress(), order_id: orderId, token, created_at: clock.now() })) ??
        (await repo.findDepositAddressByOrder(db, orderId));
      if (!existing) throw new Error(`deposit address of ${orderId} neither inserted nor found`);
      if (existing.token !== token) throw new ChainSandboxRefusedError(`order ${orderId} has a ${existing.token} deposit address`);
      return { address: existing.address };
    },

    async prepareTransfer({ reference, token, amount, destination }) {
      if (!reference) throw new ChainSandboxRefusedError('reference must not be empty');
      if (!isSolanaAddress(destination)) throw new ChainSandboxRefusedError('destination must be a Solana address');
      const intent: SandboxWire = { reference, token, amount: tokenAmount(token, amount), destination, txHash: newTxHash() };
      return { txHash: intent.txHash, wire: Buffer.from(JSON.stringify(intent)).toString('base64'), lastValidBlockHeight: NEVER_EXPIRES };
    },

    async sendTransfer(prepared) {
      const intent = decodeWire(prepared);
      const { reference, txHash, ...transfer } = intent;
      const inserted = await db.transaction().execute(async (trx) => {
        const now = clock.now();
        const row = await repo.insertTransfer(trx, { tx_hash: txHash, idempotency_key: reference, ...transfer, status: 'CONFIRMED', created_at: now, updated_at: now });
        // Only a transfer that was really inserted consumes an armed failure.
        if (!row) return undefined;
        const failure = (await repo.takeTransferFailureByKey(trx, reference)) ?? (await repo.takeTransferFailure(trx, transfer.destination));
        if (failure) await repo.markTransferFailed(trx, txHash, failure.error, now);
        return row;
      });
      if (inserted) return;
      const existing = await repo.findTransferByIdempotencyKey(db, reference);
      if (!existing) throw new Error(`transfer ${reference} neither inserted nor found`);
      sameTransferOrRefuse(existing, intent);
    },

    async getTransferStatus({ txHash }) {
      const row = await repo.findTransfer(db, txHash);
      // Not sent yet: it may still be (a sandbox transfer never expires).
      if (!row) return { status: 'PENDING' };
      const status: TransferStatus = row.status;
      const costs = { feeLamports: '0', rentLamports: '0' };
      return row.error === null ? { status, costs } : { status, error: row.error, costs };
    },

    async simulateDeposit({ depositAddress, amount }) {
      const address = await repo.findDepositAddress(db, depositAddress);
      if (!address) throw new ChainSandboxNotFoundError('deposit address', depositAddress);
      const row = await repo.insertDeposit(db, {
        tx_hash: newTxHash(),
        deposit_address: depositAddress,
        token: address.token,
        amount: tokenAmount(address.token, amount),
        created_at: clock.now(),
      });
      return { depositAddress, token: row.token, amount: tokenAmount(row.token, row.amount), txHash: row.tx_hash, blockTime: row.created_at };
    },

    async failNextTransferTo(destination, error = 'sandbox: transfer failed') {
      await repo.armTransferFailure(db, destination, error, clock.now());
    },

    async failTransferWithKey(idempotencyKey, error = 'sandbox: transfer failed') {
      if (!idempotencyKey) throw new ChainSandboxRefusedError('idempotencyKey must not be empty');
      await repo.armTransferFailureByKey(db, idempotencyKey, error, clock.now());
    },

    async markTransferFailed(txHash, error) {
      const row = await repo.markTransferFailed(db, txHash, error, clock.now());
      if (!row) throw new ChainSandboxNotFoundError('transfer', txHash);
    },
  };
}
