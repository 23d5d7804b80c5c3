/**
 * `npm run psp-simulator`: a PSP speaking API Pix (and Efí's PIX out) over mTLS, for development
 * and the end-to-end tests. Prints one JSON line when ready: its URLs, OAuth2 client and the
 * paths of the certificates to point the service at (README, "Running the PSP simulator").
 *
 * Settings (environment): PSP_SIM_DIR (state and certificates, default ./data/psp-simulator),
 * PSP_SIM_PORT (default 8443), PSP_SIM_CONTROL_PORT (default 8444), PSP_SIM_CLIENT_ID,
 * PSP_SIM_CLIENT_SECRET, PSP_SIM_TOKEN_TTL_SECONDS, PSP_SIM_SETTLE_DELAY_MS, PSP_SIM_WEBHOOK_HEADERS
 * (a JSON object of headers every notification carries, e.g. {"x-webhook-secret": "..."}).
 */
import path from 'node:path';
import { startSimulator } from './server.ts';

const env = process.env;
const number = (value: string | undefined, fallback: number) => (value === undefined || value === '' ? fallback : Number(value));

const simulator = await startSimulator({
  dir: path.resolve(env.PSP_SIM_DIR ?? './data/psp-simulator'),
  port: number(env.PSP_SIM_PORT, 8443),
  controlPort: number(env.PSP_SIM_CONTROL_PORT, 8444),
  clientId: env.PSP_SIM_CLIENT_ID || undefined,
  clientSecret: env.PSP_SIM_CLIENT_SECRET || undefined,
  tokenTtlSeconds: number(env.PSP_SIM_TOKEN_TTL_SECONDS, 3600),
  settleDelayMs: number(env.PSP_SIM_SETTLE_DELAY_MS, 100),
  log: (message) => process.stderr.write(`psp-simulator: ${message}\n`),
  ...(env.PSP_SIM_WEBHOOK_HEADERS ? { webhookHeaders: JSON.parse(env.PSP_SIM_WEBHOOK_HEADERS) as Record<string, string> } : {}),
});
process.stdout.write(`${JSON.stringify({ ready: true, apiUrl: simulator.apiUrl, pixApiBaseUrl: `${simulator.apiUrl}/v2`, tokenUrl: `${simulator.apiUrl}/oauth/token`, controlUrl: simulator.controlUrl, clientId: simulator.clientId, clientSecret: simulator.clientSecret, certificates: simulator.certificates })}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void simulator.close().then(() => process.exit(0)));
}
