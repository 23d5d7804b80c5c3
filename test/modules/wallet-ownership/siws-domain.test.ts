/**
 * The SIWS challenge names where the service is reached (issue 41): PUBLIC_APP_URL's host as the
 * domain and the URL as the URI, or, unset, the service's own listener (HOST and PORT), never a
 * fixed localhost:3000.
 */
import { describe, expect, it } from 'vitest';
import { type Json, ordersTest } from '../orders/helpers.ts';

// Any valid Solana address: nothing here signs.
const WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

function challengeIn(t: ReturnType<typeof ordersTest>) {
  return async () => {
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant, { walletAddress: WALLET });
    const response = await t.call('POST', `/receivers/${receiver.id}/wallet-ownership/challenges`, merchant, { walletAddress: WALLET });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as Json).message as string;
  };
}

describe('the SIWS domain of a service on another port, PUBLIC_APP_URL unset', () => {
  const t = ordersTest(() => ({ HOST: '0.0.0.0', PORT: '4321' }));

  it('is localhost and that port, and the URI its listener', async () => {
    const message = await challengeIn(t)();
    expect(message).toMatch(new RegExp(`^localhost:4321 wants you to sign in with your Solana account:\\n${WALLET}\\n`));
    expect(message).toContain('\nURI: http://localhost:4321\n');
  });
});

describe('the SIWS domain of a service behind a public URL', () => {
  const t = ordersTest(() => ({ PORT: '4321', PUBLIC_APP_URL: 'https://pay.example.com:8443/exchange/' }));

  it("is the URL's host with its port, and the URI the URL", async () => {
    const message = await challengeIn(t)();
    expect(message).toMatch(/^pay\.example\.com:8443 wants you to sign in with your Solana account:\n/);
    expect(message).toContain('\nURI: https://pay.example.com:8443/exchange\n');
  });
});
