/**
 * Issue 24, finding 6: TRUST_PROXY takes a hop count or the proxies' addresses, never `true`, so a
 * client-sent X-Forwarded-For is never believed: the /auth/token per-IP limiter, the audit trail
 * and PIX_WEBHOOK_ALLOWED_IPS all see the address the trusted proxy appended.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { ADMIN_TOKEN, type TestContext, createTestContext } from '../helpers/app.ts';
import { unreachablePspEnv } from '../helpers/unreachable-psp.ts';

const PROXY = '10.0.0.2';
const CLIENT = '203.0.113.7';
/** What a client may write in X-Forwarded-For: anything, new on every request. */
const spoofed = () => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
/** The request as the proxy forwards it: the client's own header, then the address the proxy saw. */
const viaProxy = (client: string, sent = spoofed()) => ({ remoteAddress: PROXY, headers: { 'x-forwarded-for': `${sent}, ${client}` } });

describe('TRUST_PROXY', () => {
  const problemsOf = (value: string) => {
    try {
      loadConfig({ TRUST_PROXY: value });
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('is false, a hop count, or addresses and CIDRs; true is refused with a line saying what to use', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1,fd00::/8, loopback' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.1', 'fd00::/8', 'loopback']);
    const refusal = 'TRUST_PROXY must be false, the number of proxies in front of the service (e.g. 1), or their addresses/CIDRs comma-separated (e.g. 10.0.0.0/8); true would believe any X-Forwarded-For a client sends';
    for (const bad of ['true', 'TRUE', 'yes', '10.0.0.0/33', '10.0.0.1,', '*', 'proxy.internal']) expect(problemsOf(bad), bad).toEqual([refusal]);
  });
});

describe.each([
  ['a hop count', '1'],
  ["the proxies' addresses", '10.0.0.0/8'],
])('behind a proxy named by %s, a spoofed X-Forwarded-For is ignored', (_what, trustProxy) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ TRUST_PROXY: trustProxy, TOKEN_RATE_LIMIT_PER_MINUTE: '3', AUTH_FAILURE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(() => ctx.close());

  it('rotating it does not bypass the /auth/token per-IP limiter', async () => {
    const token = (client: string) => ctx.app.inject({ method: 'POST', url: '/api/v1/auth/token', payload: { apiKey: 'mk_x', apiSecret: 'sk_x' }, ...viaProxy(client) });
    for (let i = 0; i < 3; i++) expect((await token(CLIENT)).statusCode).toBe(401);
    const limited = await token(CLIENT);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Another client behind the same proxy has its own window.
    expect((await token('203.0.113.8')).statusCode).toBe(401);
  });

  it('the audit trail names the client the proxy saw', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/merchants',
      payload: { name: 'Audited Via Proxy' },
      remoteAddress: PROXY,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-forwarded-for': `6.6.6.6, ${CLIENT}` },
    });
    expect(response.statusCode, response.body).toBe(201);
    const audit = await ctx.database.db.selectFrom('admin_audit_log').select('actor').where('target_id', '=', response.json().merchant.id).execute();
    expect(audit.map((row) => row.actor)).toEqual([`admin-api@${CLIENT}`]);
  });
});

describe('PIX_WEBHOOK_ALLOWED_IPS behind a proxy (TRUST_PROXY=1)', () => {
  const PSP = '203.0.113.50';
  const TOKEN = 't'.repeat(32);
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      TRUST_PROXY: '1',
      ...(await unreachablePspEnv({ publicUrl: 'https://exchange.example.com', token: TOKEN })),
      PIX_WEBHOOK_ALLOWED_IPS: PSP,
    });
  }, 30_000);
  afterAll(() => ctx.close());

  const notify = (forwarded: ReturnType<typeof viaProxy>) => ctx.app.inject({ method: 'POST', url: `/api/v1/pix-provider/webhook/${TOKEN}/pix`, payload: { pix: [] }, ...forwarded });

  it("reads the PSP's address from what the proxy appended, not from what a caller wrote", async () => {
    expect((await notify(viaProxy('198.51.100.1', PSP))).statusCode).toBe(404);
    expect((await notify(viaProxy(PSP))).statusCode).not.toBe(404);
  });
});
