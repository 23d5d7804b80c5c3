/**
 * The pure parts of webhooks: the address policy, secrets at rest, signatures against the
 * reference `standardwebhooks` package, and the configuration settings.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { deliveryBody } from '../../../src/modules/webhooks/delivery.ts';
import { createSecretBox, generateSecret } from '../../../src/modules/webhooks/secrets.ts';
import { webhookHeaders } from '../../../src/modules/webhooks/signing.ts';
import { type UrlPolicy, checkWebhookUrl, classifyAddress } from '../../../src/modules/webhooks/url-policy.ts';
import { PRODUCTION_KEYS } from '../../helpers/config.ts';

describe('address classes', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.215.14', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.10.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.128.0.1', 'public'],
    ['169.254.1.1', 'private'],
    ['169.254.169.254', 'forbidden'],
    ['0.0.0.0', 'forbidden'],
    ['0.1.2.3', 'forbidden'],
    ['224.0.0.251', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['192.0.2.1', 'forbidden'],
    ['::1', 'loopback'],
    ['::', 'forbidden'],
    ['fe80::1', 'private'],
    ['fe80::1%eth0', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['ff02::1', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['::ffff:8.8.8.8', 'public'],
    ['::10.0.0.1', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:a00:1::1', 'private'],
    ['2002:808:808::1', 'public'],
    ['not-an-ip', 'forbidden'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('URL policy', () => {
  const dev: UrlPolicy = { allowHttp: true, allowPrivateTargets: false };
  const production: UrlPolicy = { allowHttp: false, allowPrivateTargets: false };
  const noDns = async () => {
    throw new Error('no DNS expected');
  };
  const zone = (addresses: string[]) => async () => addresses.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));

  it('accepts https to public addresses and http only to local ones', async () => {
    expect((await checkWebhookUrl('https://example.test/x', production, zone(['93.184.215.14']))).ok).toBe(true);
    expect(await checkWebhookUrl('http://example.test/x', production, zone(['93.184.215.14']))).toEqual({ ok: false, reason: 'must use https' });
    expect(await checkWebhookUrl('http://example.test/x', dev, zone(['93.184.215.14']))).toMatchObject({ ok: false, reason: expect.stringMatching(/https/) });
    expect((await checkWebhookUrl('http://127.0.0.1:8080/x', dev, noDns)).ok).toBe(true);
    expect((await checkWebhookUrl('http://[::1]:8080/x', dev, noDns)).ok).toBe(true);
    expect((await checkWebhookUrl('http://127.0.0.1:8080/x', production, noDns)).ok).toBe(false);
    // Private targets when allowed: https anywhere, http too when http is allowed (never public).
    const privateNet = { allowHttp: true, allowPrivateTargets: true };
    expect((await checkWebhookUrl('http://10.0.0.7/x', privateNet, noDns)).ok).toBe(true);
    expect((await checkWebhookUrl('https://10.0.0.7/x', { ...privateNet, allowHttp: false }, noDns)).ok).toBe(true);
    expect((await checkWebhookUrl('http://10.0.0.7/x', { ...privateNet, allowHttp: false }, noDns)).ok).toBe(false);
    expect((await checkWebhookUrl('https://169.254.169.254/x', privateNet, noDns)).ok).toBe(false);
  });

  it('judges every address a name resolves to', async () => {
    expect(await checkWebhookUrl('https://x.test/', production, zone(['93.184.215.14', '10.0.0.1']))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('10.0.0.1'),
    });
    expect(await checkWebhookUrl('https://x.test/', production, zone([]))).toEqual({ ok: false, reason: 'host does not resolve' });
    expect(await checkWebhookUrl('https://x.test/', production, noDns)).toEqual({ ok: false, reason: 'host does not resolve' });
  });

  it('refuses malformed URLs, other schemes, credentials and fragments', async () => {
    for (const url of ['', 'example.com', 'ftp://example.com', 'file:///etc/passwd', 'https://u:p@example.com/', 'https://example.com/#frag']) {
      expect((await checkWebhookUrl(url, dev, noDns)).ok, url).toBe(false);
    }
  });
});

describe('secrets and signatures', () => {
  it('seals secrets with AES-GCM bound to the endpoint', () => {
    const box = createSecretBox('k'.repeat(32));
    const secret = generateSecret();
    const sealed = box.seal(secret, 'endpoint-a');
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.open(sealed, 'endpoint-a')).toBe(secret);
    expect(() => box.open(sealed, 'endpoint-b')).toThrow();
    expect(() => createSecretBox('z'.repeat(32)).open(sealed, 'endpoint-a')).toThrow();
  });

  it('produces headers the standardwebhooks package verifies, one signature per live secret', () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const body = deliveryBody({ amountBrl: 10.5, event: 'order.refunded', orderId: 'o-1' }, 'd-1');
    expect(body).toBe('{"event":"order.refunded","amountBrl":10.5,"orderId":"o-1","deliveryId":"d-1"}');
    const headers = webhookHeaders([current!, previous!], 'd-1', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [current!, previous!]) expect(new Webhook(secret).verify(body, headers)).toMatchObject({ deliveryId: 'd-1' });
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current!).verify(body.replace('10.5', '11.5'), headers)).toThrow();
    // The reference implementation's own signature equals ours.
    expect(headers['webhook-signature']!.split(' ')[0]).toBe(new Webhook(current!).sign('d-1', new Date(Number(headers['webhook-timestamp']) * 1000), body));
  });
});

describe('webhook settings', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('defaults: the spec schedule, 10 s timeout, http to loopback outside production only', () => {
    const config = loadConfig({});
    expect(config.webhooks).toMatchObject({
      retryScheduleSeconds: [5, 300, 1800, 7200, 18000, 36000, 36000],
      timeoutMs: 10_000,
      allowHttp: true,
      allowPrivateTargets: false,
    });
    expect(config.pixProvider).toBe('sandbox');
    const production = loadConfig({
      NODE_ENV: 'production',
      SIMULATION_MODE: 'true',
      ...PRODUCTION_KEYS,
    });
    expect(production.webhooks.allowHttp).toBe(false);
  });

  it('reads and validates every setting', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0, 0,1' }).webhooks.retryScheduleSeconds).toEqual([0, 0, 1]);
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '' }).webhooks.retryScheduleSeconds).toHaveLength(7);
    const problems = problemsOf({
      WEBHOOK_RETRY_SCHEDULE: '5,-1',
      WEBHOOK_TIMEOUT_MS: '5',
      WEBHOOK_ALLOW_HTTP: 'maybe',
      WEBHOOK_CONCURRENCY: '0',
      WEBHOOK_SECRET_KEY: 'short',
      PIX_PROVIDER: 'Bad Name',
    });
    expect(problems.map((problem) => problem.split(' ')[0])).toEqual([
      'WEBHOOK_RETRY_SCHEDULE',
      'WEBHOOK_TIMEOUT_MS',
      'WEBHOOK_ALLOW_HTTP',
      'WEBHOOK_CONCURRENCY',
      'WEBHOOK_SECRET_KEY',
      'PIX_PROVIDER',
    ]);
    expect(problems.join('\n')).not.toContain('short');
    expect(problemsOf({ WEBHOOK_TIMEOUT_MS: '30000', WEBHOOK_CLAIM_LEASE_MS: '30000' })[0]).toMatch(/^WEBHOOK_CLAIM_LEASE_MS/);
  });
});
