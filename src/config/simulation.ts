/**
 * Production never mixes real and simulated money. A simulated part next to a real one is how
 * money is lost: sandbox routes that fake a deposit against a real PSP that then pays out, a
 * fixed price against real PIX, a wallet "sent" on an in-process chain. So with NODE_ENV=production
 * every simulated part is refused, one line each, naming the fix; the single exception is a
 * deployment that declares everything simulated (SIMULATION_MODE=true: benchmarks, staging, demos
 * on production code paths), which in turn refuses every real provider, in any NODE_ENV.
 */
import type { EnvValues } from './schema.ts';

const DECLARE = 'or declare SIMULATION_MODE=true to run everything simulated';

/** Every refusal of the rule above; empty when the configuration is all real or all simulated. */
export function simulationRequirements(env: EnvValues): string[] {
  if (env.SIMULATION_MODE) return realProviders(env).map((provider) => `SIMULATION_MODE=true cannot be combined with ${provider}: unset one of them`);
  if (env.NODE_ENV === 'development' && env.PIX_PROVIDER === 'api-pix' && env.SANDBOX_ENABLED === true) {
    // A real PSP outside production is still real money: the sandbox's fake deposit and KYC
    // decision would make it pay out. Tests against the PSP simulator run as NODE_ENV=test.
    return [`SANDBOX_ENABLED=true is refused with PIX_PROVIDER=api-pix (a fake deposit or KYC decision would make the PSP pay real money): unset one of them`];
  }
  if (env.NODE_ENV !== 'production') return [];
  const refusals: string[] = [];
  const refuse = (when: boolean, line: string) => (when ? refusals.push(line) : undefined);
  refuse(env.SANDBOX_ENABLED === true, `SANDBOX_ENABLED=true is refused when NODE_ENV=production (its routes fake payments and deposits): unset it, ${DECLARE}`);
  refuse(env.PIX_PROVIDER === 'sandbox', `PIX_PROVIDER=sandbox (the default) is refused when NODE_ENV=production (a simulated PSP): set PIX_PROVIDER=api-pix with its PIX_* settings, ${DECLARE}`);
  refuse(env.CHAIN_PROVIDER === 'sandbox', `CHAIN_PROVIDER=sandbox (the default) is refused when NODE_ENV=production (simulated token transfers): set CHAIN_PROVIDER=solana-rpc with SOLANA_RPC_URL and CHAIN_TOKEN_MINTS, ${DECLARE}`);
  refuse(env.PRICE_SOURCE === 'sandbox', `PRICE_SOURCE=sandbox (the default) is refused when NODE_ENV=production (a fixed rate): set PRICE_SOURCE=http and PRICE_URL, ${DECLARE}`);
  refuse(env.SOLANA_RPC_URL === undefined, `SOLANA_RPC_URL is required when NODE_ENV=production (unset, managed wallets sign and send on an in-process LiteSVM chain): set it, ${DECLARE}`);
  refuse(env.SANDBOX_AUTO_COMPLETE_SECONDS > 0, `SANDBOX_AUTO_COMPLETE_SECONDS is refused when NODE_ENV=production (it pays and deposits for orders by itself): set it to 0, ${DECLARE}`);
  refuse(env.WEBHOOK_ALLOW_HTTP === true, `WEBHOOK_ALLOW_HTTP=true is refused when NODE_ENV=production (plain http:// and loopback webhook targets): unset it, ${DECLARE}`);
  refuse(env.WEBHOOK_ALLOW_PRIVATE_TARGETS, `WEBHOOK_ALLOW_PRIVATE_TARGETS=true is refused when NODE_ENV=production (webhooks into private networks): unset it, ${DECLARE}`);
  refuse(env.EMAIL_PROVIDER === 'log', `EMAIL_PROVIDER=log (the default) is refused when NODE_ENV=production (reset and invitation links would sit in the log, and nobody gets them): set EMAIL_PROVIDER=smtp and SMTP_URL, ${DECLARE}`);
  return refusals;
}

/** The real providers a configuration names. */
function realProviders(env: EnvValues): string[] {
  return [
    ...(env.PIX_PROVIDER === 'api-pix' ? ['PIX_PROVIDER=api-pix (a real PSP)'] : []),
    ...(env.CHAIN_PROVIDER === 'solana-rpc' ? ['CHAIN_PROVIDER=solana-rpc (real token transfers)'] : []),
    ...(env.SOLANA_RPC_URL !== undefined ? ['SOLANA_RPC_URL (a real chain for managed wallets)'] : []),
    ...(env.PRICE_SOURCE === 'http' ? ['PRICE_SOURCE=http (a real price)'] : []),
  ];
}
