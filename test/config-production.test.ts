/**
 * Issue 24, finding 2: production never mixes real and simulated money. Every simulated part is
 * refused with NODE_ENV=production, one line each naming the fix, unless SIMULATION_MODE=true
 * declares everything simulated; that declaration refuses every real provider.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { PRODUCTION_KEYS, problemsOf } from './helpers/config.ts';
import { unreachablePspEnv } from './helpers/unreachable-psp.ts';

/** Every real provider, fully configured: what a production deployment would set. */
const REAL = {
  PIX_PROVIDER: 'api-pix',
  PIX_API_BASE_URL: 'https://pix.example.com/v2',
  PIX_OAUTH_TOKEN_URL: 'https://pix.example.com/oauth/token',
  PIX_CLIENT_ID: 'client',
  PIX_CLIENT_SECRET: 's'.repeat(24),
  PIX_WEBHOOK_PUBLIC_URL: 'https://exchange.example.com',
  PIX_WEBHOOK_TOKEN: 't'.repeat(32),
  SOLANA_RPC_URL: 'https://api.mainnet-beta.solana.com',
  CHAIN_PROVIDER: 'solana-rpc',
  CHAIN_TOKEN_MINTS: 'USDC:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  PRICE_SOURCE: 'http',
  PRICE_URL: 'https://prices.example.com/v1',
  EMAIL_PROVIDER: 'smtp',
  SMTP_URL: 'smtps://mailer:secret@smtp.example.com:465',
};

/** The problems other than the api-pix certificates (REAL names none: no PEM is needed for these rules). */
const refusals = (env: Record<string, string>) => problemsOf({ NODE_ENV: 'production', ...PRODUCTION_KEYS, ...env }).filter((line) => !/^PIX_CLIENT_(CERT|KEY) is required/.test(line));

describe('production refuses every simulated part, one line each naming the fix', () => {
  it('the defaults: the sandbox PSP, the sandbox chain, the sandbox price, LiteSVM wallets', () => {
    expect(refusals({})).toEqual([
      'PIX_PROVIDER=sandbox (the default) is refused when NODE_ENV=production (a simulated PSP): set PIX_PROVIDER=api-pix with its PIX_* settings, or declare SIMULATION_MODE=true to run everything simulated',
      'CHAIN_PROVIDER=sandbox (the default) is refused when NODE_ENV=production (simulated token transfers): set CHAIN_PROVIDER=solana-rpc with SOLANA_RPC_URL and CHAIN_TOKEN_MINTS, or declare SIMULATION_MODE=true to run everything simulated',
      'PRICE_SOURCE=sandbox (the default) is refused when NODE_ENV=production (a fixed rate): set PRICE_SOURCE=http and PRICE_URL, or declare SIMULATION_MODE=true to run everything simulated',
      'SOLANA_RPC_URL is required when NODE_ENV=production (unset, managed wallets sign and send on an in-process LiteSVM chain): set it, or declare SIMULATION_MODE=true to run everything simulated',
      'EMAIL_PROVIDER=log (the default) is refused when NODE_ENV=production (reset and invitation links would sit in the log, and nobody gets them): set EMAIL_PROVIDER=smtp and SMTP_URL, or declare SIMULATION_MODE=true to run everything simulated',
    ]);
  });

  it('with every real provider, production starts without SIMULATION_MODE: PAYOUT deposits are watched and swept into the treasury on the chain', async () => {
    expect(refusals(REAL)).toEqual([]);
    const psp = await unreachablePspEnv({ publicUrl: 'https://exchange.example.com', token: 't'.repeat(32) });
    expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION_KEYS, ...REAL, ...psp })).toMatchObject({ nodeEnv: 'production', simulationMode: false, pixProvider: 'api-pix' });
  });

  it.each([
    ['SANDBOX_ENABLED', 'true', 'SANDBOX_ENABLED=true is refused when NODE_ENV=production (its routes fake payments and deposits): unset it, or declare SIMULATION_MODE=true to run everything simulated'],
    ['SANDBOX_AUTO_COMPLETE_SECONDS', '30', 'SANDBOX_AUTO_COMPLETE_SECONDS is refused when NODE_ENV=production (it pays and deposits for orders by itself): set it to 0, or declare SIMULATION_MODE=true to run everything simulated'],
    ['WEBHOOK_ALLOW_HTTP', 'true', 'WEBHOOK_ALLOW_HTTP=true is refused when NODE_ENV=production (plain http:// and loopback webhook targets): unset it, or declare SIMULATION_MODE=true to run everything simulated'],
    ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'true', 'WEBHOOK_ALLOW_PRIVATE_TARGETS=true is refused when NODE_ENV=production (webhooks into private networks): unset it, or declare SIMULATION_MODE=true to run everything simulated'],
  ])('%s=%s', (name, value, line) => {
    expect(refusals({ ...REAL, [name]: value })).toEqual([line]);
    // Off, it is no refusal.
    expect(refusals({ ...REAL, [name]: name === 'SANDBOX_AUTO_COMPLETE_SECONDS' ? '0' : 'false' })).toEqual([]);
  });

  it('EMAIL_PROVIDER=smtp needs SMTP_URL, never quoted back', () => {
    const { SMTP_URL: _url, ...withoutSmtp } = REAL;
    expect(refusals(withoutSmtp)).toEqual(['SMTP_URL is required when EMAIL_PROVIDER=smtp']);
    const bad = refusals({ ...REAL, SMTP_URL: 'http://mailer:secret@smtp.example.com' });
    expect(bad.join('\n')).toContain('SMTP_URL must be an smtp:// or smtps:// URL');
    expect(bad.join('\n')).not.toContain('secret');
  });

  it('outside production nothing of this is refused', () => {
    expect(problemsOf({ NODE_ENV: 'development', SANDBOX_ENABLED: 'true', SANDBOX_AUTO_COMPLETE_SECONDS: '30', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).toEqual([]);
  });
});

describe('SIMULATION_MODE=true: everything simulated, declared', () => {
  it('lets production start on the sandbox parts, and says so in the configuration', () => {
    const env = { NODE_ENV: 'production', SIMULATION_MODE: 'true', ...PRODUCTION_KEYS, SANDBOX_ENABLED: 'true', SANDBOX_AUTO_COMPLETE_SECONDS: '5', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    expect(problemsOf(env)).toEqual([]);
    expect(loadConfig(env)).toMatchObject({ nodeEnv: 'production', simulationMode: true, sandboxEnabled: true, pixProvider: 'sandbox' });
    expect(loadConfig({}).simulationMode).toBe(false);
  });

  it('/docs is off in production unless DOCS_ENABLED=true', () => {
    const production = { NODE_ENV: 'production', SIMULATION_MODE: 'true', ...PRODUCTION_KEYS };
    expect(loadConfig(production).docsEnabled).toBe(false);
    expect(loadConfig({ ...production, DOCS_ENABLED: 'true' }).docsEnabled).toBe(true);
    expect(loadConfig({ DOCS_ENABLED: 'false' }).docsEnabled).toBe(false);
  });

  it('is refused together with any real provider, in any NODE_ENV, one line each', () => {
    for (const nodeEnv of ['production', 'development']) {
      expect(refusals({ NODE_ENV: nodeEnv, SIMULATION_MODE: 'true', ...REAL })).toEqual([
        'SIMULATION_MODE=true cannot be combined with PIX_PROVIDER=api-pix (a real PSP): unset one of them',
        'SIMULATION_MODE=true cannot be combined with CHAIN_PROVIDER=solana-rpc (real token transfers): unset one of them',
        'SIMULATION_MODE=true cannot be combined with SOLANA_RPC_URL (a real chain for managed wallets): unset one of them',
        'SIMULATION_MODE=true cannot be combined with PRICE_SOURCE=http (a real price): unset one of them',
      ]);
    }
    expect(refusals({ SIMULATION_MODE: 'true', SOLANA_RPC_URL: REAL.SOLANA_RPC_URL })).toEqual(['SIMULATION_MODE=true cannot be combined with SOLANA_RPC_URL (a real chain for managed wallets): unset one of them']);
  });
});

describe('CHAIN_PROVIDER=solana-rpc', () => {
  it('requires SOLANA_RPC_URL and the mint of every supported token', () => {
    expect(problemsOf({ CHAIN_PROVIDER: 'solana-rpc', SUPPORTED_TOKENS: 'USDC:6,EURC:6', SANDBOX_TOKEN_BRL_RATES: 'EURC:5.9', CHAIN_TOKEN_MINTS: REAL.CHAIN_TOKEN_MINTS })).toEqual([
      'SOLANA_RPC_URL is required when CHAIN_PROVIDER=solana-rpc',
      'CHAIN_TOKEN_MINTS must name the mint of every supported token when CHAIN_PROVIDER=solana-rpc (missing: EURC)',
    ]);
    expect(problemsOf({ CHAIN_TOKEN_MINTS: 'USDC:nope' })[0]).toMatch(/^CHAIN_TOKEN_MINTS /);
    const config = loadConfig({ CHAIN_PROVIDER: 'solana-rpc', SOLANA_RPC_URL: REAL.SOLANA_RPC_URL, CHAIN_TOKEN_MINTS: REAL.CHAIN_TOKEN_MINTS });
    expect(config.chain).toEqual({
      provider: 'solana-rpc',
      rpcUrl: REAL.SOLANA_RPC_URL,
      // Derived from the RPC URL as Solana's clients do (decision 0054).
      wsUrl: 'wss://api.mainnet-beta.solana.com/',
      commitment: 'finalized',
      computeUnitLimit: 60_000,
      priorityFeeMaxMicroLamports: 100_000,
      transferMaxAttempts: 5,
      transferBatchMax: 20,
      lookupTables: true,
      treasuryWallets: 1,
      depositWatchIntervalMs: 2000,
      depositWatchBatch: 100,
      depositFullReadIntervalMs: 30_000,
      depositLateWatchHours: 72,
      tokenMints: { USDC: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
    });
  });
});

describe('a real PSP outside production', () => {
  const apiPix = () => unreachablePspEnv({ publicUrl: 'https://exchange.example.com', token: 't'.repeat(32) });
  const sandboxRefusal = (env: Record<string, string>) => problemsOf(env).filter((line) => line.startsWith('SANDBOX_ENABLED'));

  it('turns the sandbox routes off by default in development (a fake deposit or KYC decision would make the PSP pay) and refuses them when asked for', async () => {
    expect(loadConfig({ NODE_ENV: 'development', ...(await apiPix()) }).sandboxEnabled).toBe(false);
    expect(sandboxRefusal({ NODE_ENV: 'development', ...(await apiPix()), SANDBOX_ENABLED: 'true' })).toEqual([
      'SANDBOX_ENABLED=true is refused with PIX_PROVIDER=api-pix (a fake deposit or KYC decision would make the PSP pay real money): unset one of them',
    ]);
  });

  it('keeps them for tests against the PSP simulator (NODE_ENV=test), and with the sandbox PSP', async () => {
    expect(loadConfig({ NODE_ENV: 'test', ...(await apiPix()) }).sandboxEnabled).toBe(true);
    expect(sandboxRefusal({ NODE_ENV: 'test', ...(await apiPix()), SANDBOX_ENABLED: 'true' })).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'development' }).sandboxEnabled).toBe(true);
  });
});
