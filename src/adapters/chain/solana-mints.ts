/**
 * What the orders' Solana adapters (transfers, deposits) share: RPC calls bounded in time and
 * turned into ChainUnavailableError (naming the method, never the URL: it may carry an API key),
 * and the configured mints as read on chain (decimals and token program, never assumed).
 */
import { type Address, address, createSolanaRpc } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { ChainTransferRefusedError } from './port.ts';
import { ChainUnavailableError } from './transactions-port.ts';

export type SolanaRpc = ReturnType<typeof createSolanaRpc>;

export const TOKEN_2022_PROGRAM_ADDRESS = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
/** SPL mint layout: mint authority (COption<Pubkey>, 36 bytes), supply (u64), decimals (u8), is_initialized (bool). */
const MINT_DECIMALS_OFFSET = 44;
const MINT_SIZE = 82;

/**
 * A node that hangs must not hold a worker's lane past its lease (30 s): every call is abandoned
 * after this long, as unavailable, and the step retries later.
 */
export const RPC_TIMEOUT_MS = 10_000;

export async function call<T>(method: string, timeoutMs: number, run: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await run(AbortSignal.timeout(timeoutMs));
  } catch (err) {
    throw new ChainUnavailableError(`Solana RPC ${method} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

export interface MintInfo {
  mint: Address;
  decimals: number;
  tokenProgram: Address;
}

type RpcCall = <T>(method: string, run: (abortSignal: AbortSignal) => Promise<T>) => Promise<T>;

/** The mint of a token symbol (CHAIN_TOKEN_MINTS) as on chain, read once per mint: an initialized mint's decimals and program never change. */
export function createMintReader(deps: { rpc: SolanaRpc; rpcCall: RpcCall; tokenMints: Record<string, string>; commitment: 'confirmed' | 'finalized' }): (symbol: string) => Promise<MintInfo> {
  const { rpc, rpcCall, tokenMints, commitment } = deps;
  const mints = new Map<string, Promise<MintInfo>>();

  async function readMint(symbol: string): Promise<MintInfo> {
    const mintText = tokenMints[symbol];
    if (!mintText) throw new ChainTransferRefusedError(`no mint configured for ${symbol} (CHAIN_TOKEN_MINTS)`);
    const mint = address(mintText);
    const { value } = await rpcCall('getAccountInfo', (abortSignal) => rpc.getAccountInfo(mint, { encoding: 'base64', commitment }).send({ abortSignal }));
    if (!value) throw new ChainTransferRefusedError(`the ${symbol} mint ${mint} does not exist on this cluster`);
    const tokenProgram = value.owner;
    const data = Buffer.from(value.data[0], 'base64');
    if ((tokenProgram !== TOKEN_PROGRAM_ADDRESS && tokenProgram !== TOKEN_2022_PROGRAM_ADDRESS) || data.length < MINT_SIZE || data[MINT_DECIMALS_OFFSET + 1] !== 1) {
      throw new ChainTransferRefusedError(`${mint} is not an initialized SPL token mint`);
    }
    return { mint, decimals: data[MINT_DECIMALS_OFFSET]!, tokenProgram };
  }

  return (symbol) => {
    let info = mints.get(symbol);
    if (!info) {
      info = readMint(symbol);
      // A failed read (node down) is not cached.
      info.catch(() => mints.delete(symbol));
      mints.set(symbol, info);
    }
    return info;
  };
}
