/**
 * The node's own answer to "are you healthy?" (Solana JSON-RPC `getHealth`: "ok", or an error
 * while the node is behind the cluster): the probe of the orders' chain node when nothing else
 * called it lately (docs/architecture/dependency-health.md). One small request, no account read.
 */
import { ChainUnavailableError } from './transactions-port.ts';
import { createRpcClient } from './solana-rpc-client.ts';

export interface ChainHealthCheck {
  getHealth(): Promise<void>;
}

export function createSolanaHealthCheck(settings: { url: string; timeoutMs?: number }): ChainHealthCheck {
  const rpc = createRpcClient(settings.url);
  const timeoutMs = settings.timeoutMs ?? 3000;
  return {
    async getHealth() {
      try {
        await rpc.getHealth().send({ abortSignal: AbortSignal.timeout(timeoutMs) });
      } catch (err) {
        // The URL may carry an API key: the message names the method only.
        throw new ChainUnavailableError(`Solana RPC getHealth failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
    },
  };
}
