/**
 * The admin API under /admin on the RPC's own port (never faulted): GET /admin/state,
 * POST /admin/faults, POST /admin/faults/reset, POST /admin/mints, POST /admin/mint-to,
 * POST /admin/airdrop, POST /admin/slots (advance the clock by hand). Bodies and answers are
 * JSON; a bad body is a 400 with `{error}`.
 */
import type { Simulator } from './simulator.ts';

export interface AdminReply {
  status: number;
  body: unknown;
}

const bigintOf = (value: unknown, what: string): bigint => {
  if ((typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && /^\d+$/.test(value))) return BigInt(value);
  throw new Error(`${what} must be a whole number (a string for large values)`);
};

export async function adminRoute(simulator: Simulator, method: string, path: string, body: Record<string, unknown>): Promise<AdminReply | undefined> {
  try {
    if (method === 'GET' && path === '/admin/state') return { status: 200, body: simulator.state() };
    if (method !== 'POST') return undefined;
    switch (path) {
      case '/admin/faults':
        simulator.setFaults(body);
        return { status: 200, body: simulator.state() };
      case '/admin/faults/reset':
      case '/admin/reset':
        simulator.resetFaults();
        return { status: 200, body: simulator.state() };
      case '/admin/mints':
        return { status: 200, body: simulator.createMint(body) };
      case '/admin/mint-to': {
        if (typeof body.mint !== 'string' || typeof body.owner !== 'string') throw new Error('mint and owner are required');
        return { status: 200, body: await simulator.mintTo(body.mint, body.owner, bigintOf(body.amount, 'amount')) };
      }
      case '/admin/airdrop': {
        if (typeof body.address !== 'string') throw new Error('address is required');
        return { status: 200, body: { signature: simulator.airdrop(body.address, bigintOf(body.lamports, 'lamports')) } };
      }
      case '/admin/slots': {
        const count = Number(bigintOf(body.count ?? 1, 'count'));
        for (let i = 0; i < count; i++) simulator.chain.tick();
        return { status: 200, body: simulator.state() };
      }
      default:
        return undefined;
    }
  } catch (error) {
    return { status: 400, body: { error: (error as Error).message } };
  }
}
