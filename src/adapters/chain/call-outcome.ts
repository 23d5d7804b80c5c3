/**
 * What a failed call to the orders' chain node says of the node, for its health
 * (docs/architecture/dependency-health.md): `refused` when the transfer or sweep itself was refused
 * before signing (the node answered, or was not needed), `error` for everything else
 * (ChainUnavailableError: the node unreachable or answering an error).
 */
import { ChainTransferRefusedError } from './port.ts';

export const chainFailureOutcome = (error: unknown): 'refused' | 'error' => (error instanceof ChainTransferRefusedError ? 'refused' : 'error');
