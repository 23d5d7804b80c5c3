/**
 * Composition of the dependencies' health (docs/architecture/dependency-health.md): the tracker
 * (platform/dependency-health.ts), each real adapter wrapped once so its calls feed it, and each
 * dependency declared with what stands behind it and its probe. The sandboxes and mail to the log
 * live in this process: declared in process, never wrapped (their failures are the database's).
 *
 * Probes, chosen to cost nothing the dependency would notice:
 * - database: `select 1` (GET /readyz runs it on every call, as it always did);
 * - PSP: GET /cob/{txid} of a txid no charge has (a 404 is an answer);
 * - chain: the node's getHealth;
 * - price source: a price asked as an order asks it, served from the source's cache while fresh;
 * - mail: none. An SMTP session every few seconds is what servers count as abuse, mail is rare,
 *   and no order needs it: its state comes from the messages sent.
 */
import { sql } from 'kysely';
import type { Adapters } from './adapters/index.ts';
import { chainFailureOutcome } from './adapters/chain/call-outcome.ts';
import { createSolanaHealthCheck } from './adapters/chain/solana-health.ts';
import type { EmailSender } from './adapters/email/port.ts';
import { pspFailureOutcome } from './adapters/pix/call-outcome.ts';
import type { Db } from './db/database.ts';
import type { Clock } from './lib/clock.ts';
import { createDependencyHealth, type DependencyLog } from './platform/dependency-health.ts';

/** A txid (26 to 35 letters or digits) that no charge carries: the PSP's probe asks for it and gets a 404. */
const PROBE_TXID = 'readinessprobe000000000000000000';

export function createDependencyTracking(deps: { db: Db; clock: Clock; log?: DependencyLog | undefined }) {
  const health = createDependencyHealth({ now: deps.clock.now, log: deps.log });
  const database = health.instrument('database', { select: () => sql`select 1`.execute(deps.db) });
  // PostgreSQL, a server's or embedded (PGlite): the same SQL, the same probe.
  health.register('database', { provider: 'postgresql', probe: () => database.select() });
  const chain = <P extends object>(port: P): P => health.instrument('chain', port, chainFailureOutcome);

  return {
    health,

    /** The PSP, the price source and the orders' transfers of createAdapters, wrapped when real. */
    adapters(adapters: Adapters, settings: { httpPrices: boolean; priceToken: string }): Adapters {
      let { pix, apiPix, prices } = adapters;
      if (apiPix) {
        apiPix = health.instrument('psp', apiPix, pspFailureOutcome, ['close']);
        pix = apiPix;
        const psp = apiPix;
        health.register('psp', { provider: 'api-pix', probe: () => psp.getChargePayment(PROBE_TXID) });
      } else health.register('psp', { provider: 'sandbox', inProcess: true });
      if (settings.httpPrices) {
        const source = health.instrument('prices', prices);
        prices = source;
        health.register('prices', { provider: 'http', probe: () => source.getRate(settings.priceToken, 'PAYIN') });
      } else health.register('prices', { provider: 'sandbox', inProcess: true });
      const onChain = adapters.chain !== adapters.sandbox.chain;
      return { ...adapters, pix, apiPix, prices, chain: onChain ? chain(adapters.chain) : adapters.chain };
    },

    /** A port of the orders' chain node: deposits, sweeps, the treasury's balances. */
    chain,

    /**
     * Declares the orders' chain once its ports exist: a node (CHAIN_PROVIDER=solana-rpc, probed
     * by getHealth), a treasury read on a node with no URL of ours (tests), or the sandbox chain.
     */
    registerChain(options: { rpcUrl: string | undefined; treasuryOnChain: boolean; treasuryKind: string }): void {
      if (options.rpcUrl) {
        const node = chain(createSolanaHealthCheck({ url: options.rpcUrl }));
        health.register('chain', { provider: 'solana-rpc', probe: () => node.getHealth() });
      } else if (options.treasuryOnChain) health.register('chain', { provider: options.treasuryKind });
      else health.register('chain', { provider: 'sandbox', inProcess: true });
    },

    /** The mail sender: observed with SMTP; the log is in process. */
    mail(sender: EmailSender, provider: 'smtp' | 'log'): EmailSender {
      if (provider !== 'smtp') {
        health.register('mail', { provider: 'log', inProcess: true });
        return sender;
      }
      health.register('mail', { provider: 'smtp' });
      return health.instrument('mail', sender, () => 'error', ['close']);
    },
  };
}

export type DependencyTracking = ReturnType<typeof createDependencyTracking>;
