/**
 * Deposit sweeps on a Solana node (CHAIN_PROVIDER=solana-rpc), with @solana/kit. One transaction
 * per credited deposit address, the SPONSOR its fee payer, the deposit address's key the owner's
 * signature:
 *
 *   CreateAssociatedTokenIdempotent (the treasury's token account; the sponsor pays its rent if
 *                        it was missing, ledgered in account_rent)
 *   TransferChecked     (deposit token account → treasury's, exactly the credited amount)
 *   CloseAccount        (only when that empties it: its rent lamports to the sponsor)
 *
 * No compute-budget instructions: a sweep is not urgent, and one that expires unlanded is rebuilt.
 * Sending and status are the PAYIN transfers' (solana-prepared.ts); failures to talk to the node are
 * ChainUnavailableError naming the method.
 */
import {
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  type Instruction,
  pipe,
  type SignatureBytes,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import { findAssociatedTokenPda, getCloseAccountInstruction, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import { decimal } from '../../lib/money.ts';
import { ChainTransferRefusedError } from './port.ts';
import { call, createMintReader, RPC_TIMEOUT_MS } from './solana-mints.ts';
import { createPreparedTransactions } from './solana-prepared.ts';
import type { MessageSigner, PreparedSweep, SweepChain, SweepIntent } from './sweeps-port.ts';
import { createRpcClient } from './solana-rpc-client.ts';

export interface SolanaSweepSettings {
  rpcUrl: string;
  commitment: 'confirmed' | 'finalized';
  tokenMints: Record<string, string>;
  rpcTimeoutMs?: number;
}

const base58 = getBase58Decoder();

/** `treasury`: only its address (the destination's owner); `sponsor` signs and pays. */
export function createSolanaSweeps(deps: { settings: SolanaSweepSettings; sponsor: MessageSigner; treasuryAddress: string }): SweepChain {
  const { settings, sponsor } = deps;
  const rpc = createRpcClient(settings.rpcUrl);
  const sponsorAddress = address(sponsor.address);
  const treasury = address(deps.treasuryAddress);
  const rpcCall = <T>(method: string, run: (abortSignal: AbortSignal) => Promise<T>) => call(method, settings.rpcTimeoutMs ?? RPC_TIMEOUT_MS, run);
  const mintOf = createMintReader({ rpc, rpcCall, tokenMints: settings.tokenMints, commitment: settings.commitment });
  const transactions = createPreparedTransactions({ rpc, rpcCall, commitment: settings.commitment, feePayer: sponsorAddress });

  /** The account's balance in base units; undefined when it does not exist (closed, or never created). */
  async function balanceOf(account: ReturnType<typeof address>): Promise<bigint | undefined> {
    const { value } = await rpcCall('getAccountInfo', (abortSignal) => rpc.getAccountInfo(account, { commitment: settings.commitment, encoding: 'base64' }).send({ abortSignal }));
    if (!value) return undefined;
    const data = Buffer.from(value.data[0], 'base64');
    // SPL token account layout: mint (32), owner (32), amount (u64 LE).
    return data.readBigUInt64LE(64);
  }

  async function prepareSweep(intent: SweepIntent): Promise<PreparedSweep> {
    const info = await mintOf(intent.token);
    const owner = address(intent.owner.address);
    const [[source], [destination]] = await Promise.all([
      findAssociatedTokenPda({ owner, mint: info.mint, tokenProgram: info.tokenProgram }),
      findAssociatedTokenPda({ owner: treasury, mint: info.mint, tokenProgram: info.tokenProgram }),
    ]);
    const units = decimal(intent.amount).times(decimal(10).pow(info.decimals));
    if (!units.isInteger() || units.lte(0)) throw new ChainTransferRefusedError(`amount ${intent.amount} is not a positive amount of a token with ${info.decimals} decimals`);
    const amount = BigInt(units.toFixed(0));
    const [balance, { value: lifetime }] = await Promise.all([
      balanceOf(source),
      rpcCall('getLatestBlockhash', (abortSignal) => rpc.getLatestBlockhash({ commitment: 'confirmed' }).send({ abortSignal })),
    ]);
    if (balance === undefined || balance < amount) throw new ChainTransferRefusedError(`the deposit token account holds ${balance ?? 'nothing'}, less than the ${amount} credited`);
    const closes = !intent.keepOpen && balance === amount;
    const sponsorSigner = createNoopSigner(sponsorAddress);
    const ownerSigner = createNoopSigner(owner);
    const instructions: Instruction[] = [
      getCreateAssociatedTokenIdempotentInstruction({ payer: sponsorSigner, ata: destination, owner: treasury, mint: info.mint, tokenProgram: info.tokenProgram }),
      getTransferCheckedInstruction({ source, mint: info.mint, destination, authority: ownerSigner, amount, decimals: info.decimals }, { programAddress: info.tokenProgram }),
      ...(closes ? [getCloseAccountInstruction({ account: source, destination: sponsorAddress, owner: ownerSigner }, { programAddress: info.tokenProgram })] : []),
    ];
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(sponsorAddress, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const compiled = compileTransaction(message);
    const bytes = new Uint8Array(compiled.messageBytes);
    const feePayerSignature = sponsor.sign(bytes) as SignatureBytes;
    const signed = { ...compiled, signatures: { ...compiled.signatures, [sponsorAddress]: feePayerSignature, [owner]: intent.owner.sign(bytes) as SignatureBytes } };
    return { txHash: base58.decode(feePayerSignature), wire: getBase64EncodedWireTransaction(signed), lastValidBlockHeight: lifetime.lastValidBlockHeight.toString(), closes };
  }

  return { prepareSweep, sendSweep: transactions.send, getSweepStatus: transactions.status };
}
