/**
 * PIX_PROVIDER=api-pix settings for a PSP that cannot be reached: port 9 (discard) is closed on
 * test machines, so the first OAuth2 call is refused at once. For tests of what the service does
 * around the PSP (its callback, its failures) without starting the PSP simulator.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadOrCreatePki } from '../../tools/psp-simulator/certificates.ts';

export async function unreachablePspEnv(callback: { publicUrl: string; token: string }): Promise<Record<string, string>> {
  const pki = await loadOrCreatePki(mkdtempSync(path.join(tmpdir(), 'unreachable-psp-pki-')));
  return {
    PIX_PROVIDER: 'api-pix',
    PIX_API_BASE_URL: 'https://127.0.0.1:9/v2',
    PIX_OAUTH_TOKEN_URL: 'https://127.0.0.1:9/oauth/token',
    PIX_CLIENT_ID: 'client',
    PIX_CLIENT_SECRET: 's'.repeat(24),
    PIX_CLIENT_CERT: pki.clientCertPem,
    PIX_CLIENT_KEY: pki.clientKeyPem,
    PIX_CA_CERT: pki.caPem,
    PIX_WEBHOOK_PUBLIC_URL: callback.publicUrl,
    PIX_WEBHOOK_TOKEN: callback.token,
  };
}
