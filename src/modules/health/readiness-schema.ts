/**
 * GET /readyz's answer and its description (docs/architecture/dependency-health.md;
 * docs/decisions/0036-readiness-and-orders-refused-by-dependency.md).
 */
import { Type } from 'typebox';

const When = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

const DependencyStatus = (description: string) =>
  Type.Object(
    {
      provider: Type.String({
        description:
          'What stands behind it: postgresql (database, a server or embedded); api-pix or sandbox (psp); solana-rpc or sandbox (chain); http or sandbox (prices); smtp or log (mail). sandbox and log run in this process: nothing to reach, always ok, times null',
      }),
      state: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')], {
        description: 'down: its last 3 calls failed, or its last call failed and none succeeded in the last 60 s; degraded: not down, but a call failed in the last 60 s; ok: no failure in the last 60 s',
      }),
      lastSuccessAt: When('When a call to it last succeeded (was answered, even by a refusal of that request), as this process saw it; null: never since the process started'),
      lastFailureAt: When('When a call to it last failed (not answered: unreachable, timed out, 5xx, credentials refused); null: never since the process started'),
    },
    { title: 'DependencyStatus', description },
  );

export const Readiness = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('degraded')], {
      description: 'ready: every dependency ok; degraded: one or more degraded or down (named in dependencies). Both are 200: only the database down makes this process unready (503)',
    }),
    simulation: Type.Boolean({ description: 'SIMULATION_MODE=true: every PSP, chain and price is simulated' }),
    dependencies: Type.Object({
      database: DependencyStatus('The database (checked by this very request)'),
      psp: DependencyStatus('The PIX provider'),
      chain: DependencyStatus("The orders' chain: its RPC node (transfers, deposits, sweeps, the treasury's balances, managed wallets' transactions)"),
      prices: DependencyStatus('The price source (a price served, from its cache or fetched)'),
      mail: DependencyStatus('The mail server (password resets, invitations)'),
    }),
    ordersRefused: Type.Array(Type.Union([Type.Literal('PAYIN'), Type.Literal('PAYOUT')]), {
      description: 'Order types POST /payin and /payout refuse now with 503 PROVIDER_UNAVAILABLE, a dependency they need being down (both need psp and chain)',
    }),
  },
  { title: 'Readiness' },
);

export const READINESS_DESCRIPTION = [
  'For load balancers and operators. 503 SERVICE_UNAVAILABLE only when the database does not answer: no request can be served then.',
  'Any other dependency down leaves the process ready (200) with status `degraded` and the dependency named: a PSP or chain node outage is the same for every API node, so a load balancer that took them all out of service would refuse every request, reads included, instead of only the orders that need it.',
  'Each dependency is judged from the calls this process made to it (the `state` of each); one not called for 10 s is probed first (the PSP: a charge lookup; the chain: getHealth; the price source: a price; the mail server is never probed), waiting at most 1 s: a slower probe shows in the next answer.',
  'Orders needing a dependency down are refused (ordersRefused).',
  '`simulation` is true when the deployment declares everything simulated (SIMULATION_MODE=true): no real PIX, chain transfer or price.',
].join(' ');
