/**
 * What the orders' Solana adapters (transfers, deposits) share: RPC calls bounded in time and
 * turned into ChainUnavailableError (naming the method, never the URL: it may carry an API key),
 * and the configured mints as read on chain (decimals and token program, never assumed). A
 * Token-2022 mint's extensions are checked (token-extensions.ts): one with a transfer fee, a hook
 * program or no transfers at all is refused, at start (checkConfiguredMints) and at every use.
 */
import { type Address, address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { ChainTransferRefusedError } from './port.ts';
import { MintExtensionError, readMintExtensions, refusalOf } from './token-extensions.ts';
import { ChainUnavailableError } from './transactions-port.ts';
import { createRpcClient } from './solana-rpc-client.ts';

export type SolanaRpc = ReturnType<typeof createRpcClient>;

export const TOKEN_2022_PROGRAM_ADDRESS = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
/** SPL mint layout: mint authority (COption<Pubkey>, 36 bytes), supply (u64), decimals (u8), is_initialized (bool). */
const MINT_DECIMALS_OFFSET = 44;
const MINT_SIZE = 82;
/**
 * A Token-2022 mint's fee and hook authorities may change them: its extensions are read again
 * after this long. A new fee takes effect two epochs (days) after it is set, so a re-read well
 * within that sees it as the scheduled fee and refuses before it applies.
 */
export const TOKEN_2022_RECHECK_MS = 10 * 60_000;

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

/**
 * The mint of a token symbol (CHAIN_TOKEN_MINTS) as on chain. An SPL Token mint is read once (an
 * initialized mint's decimals and program never change); a Token-2022 mint again after
 * TOKEN_2022_RECHECK_MS, for its extensions. A refused mint throws ChainTransferRefusedError.
 */
export function createMintReader(deps: {
  rpc: SolanaRpc;
  rpcCall: RpcCall;
  tokenMints: Record<string, string>;
  commitment: 'confirmed' | 'finalized';
  now?: () => number;
}): (symbol: string) => Promise<MintInfo> {
  const { rpc, rpcCall, tokenMints, commitment } = deps;
  const now = deps.now ?? Date.now;
  const mints = new Map<string, { info: Promise<MintInfo>; until: number }>();

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
    if (tokenProgram === TOKEN_2022_PROGRAM_ADDRESS || data.length > MINT_SIZE) {
      let refusal: string | undefined;
      try {
        refusal = refusalOf(readMintExtensions(data));
      } catch (err) {
        if (!(err instanceof MintExtensionError)) throw err;
        refusal = err.message;
      }
      if (refusal) throw new ChainTransferRefusedError(`the ${symbol} mint ${mint} is refused: ${refusal} (docs/decisions/0043-token-2022-extensions.md)`);
    }
    return { mint, decimals: data[MINT_DECIMALS_OFFSET]!, tokenProgram };
  }

  return (symbol) => {
    const cached = mints.get(symbol);
    if (cached && cached.until > now()) return cached.info;
    const info = readMint(symbol);
    const entry = { info, until: Number.POSITIVE_INFINITY };
    // A failed read (node down, or a refused mint) is not cached: the next use reads again.
    info.then(
      (read) => {
        if (read.tokenProgram === TOKEN_2022_PROGRAM_ADDRESS) entry.until = now() + TOKEN_2022_RECHECK_MS;
      },
      () => {
        if (mints.get(symbol) === entry) mints.delete(symbol);
      },
    );
    mints.set(symbol, entry);
    return info;
  };
}

/**
 * At start: every configured mint is read, and one refused (missing, not a mint, refused
 * extensions, other decimals than SUPPORTED_TOKENS says) stops the start with its reason. A node
 * that does not answer does not: each use reads and checks the mint again.
 */
export async function checkConfiguredMints(mintOf: (symbol: string) => Promise<MintInfo>, decimals: Record<string, number>): Promise<{ unreachable: string[] }> {
  const unreachable: string[] = [];
  for (const [symbol, expected] of Object.entries(decimals)) {
    try {
      const info = await mintOf(symbol);
      if (info.decimals !== expected) throw new MintRefusedError(`the ${symbol} mint ${info.mint} has ${info.decimals} decimals, SUPPORTED_TOKENS says ${expected}`);
    } catch (err) {
      if (err instanceof ChainTransferRefusedError) throw new MintRefusedError(err.message);
      if (err instanceof ChainUnavailableError) unreachable.push(symbol);
      else throw err;
    }
  }
  return { unreachable };
}

/** checkConfiguredMints on the node of the settings (main.ts, before anything is served). */
export function checkMintsOnNode(settings: { rpcUrl: string; commitment: 'confirmed' | 'finalized'; tokenMints: Record<string, string> }, decimals: Record<string, number>) {
  const rpc = createRpcClient(settings.rpcUrl);
  const mintOf = createMintReader({ rpc, rpcCall: (method, run) => call(method, RPC_TIMEOUT_MS, run), tokenMints: settings.tokenMints, commitment: settings.commitment });
  return checkConfiguredMints(mintOf, decimals);
}

/** A configured mint the platform will not move; `code` makes start-up print its message alone (startup-failure.ts). */
export class MintRefusedError extends Error {
  readonly code = 'TOKEN_MINT_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'MintRefusedError';
  }
}
