/**
 * The dashboard's build served at /app (src/http/dashboard.ts): index.html for /app and for the
 * app's client-side routes, hashed assets with a year's cache, the app's Content-Security-Policy,
 * nothing of it in the OpenAPI documents, and a 503 Error object when the build is missing.
 * Each test points DASHBOARD_DIR at a build of its own (a temporary folder), not at web/dist.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP } from '../../src/http/dashboard.ts';
import { type TestContext, createTestContext } from '../helpers/app.ts';
import { FAKE_ASSET, FAKE_INDEX as INDEX, fakeDashboardBuild } from '../helpers/dashboard-build.ts';

describe('the dashboard at /app', () => {
  let ctx: TestContext;
  const build = fakeDashboardBuild();
  const dist = build.dir;

  beforeAll(async () => {
    ctx = await createTestContext({ DASHBOARD_DIR: dist });
  });
  afterAll(async () => {
    await ctx?.close();
    build.remove();
  });

  it.each(['/app', '/app/', '/app/orders', '/app/receivers/0190a7c2-0000-7000-8000-000000000001'])('%s answers index.html, not cached, with the CSP', async (url) => {
    const response = await ctx.app.inject({ url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toBe(INDEX);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the CSP allows scripts and connections to this origin only, and no framing', () => {
    expect(DASHBOARD_CSP).toContain("script-src 'self';");
    expect(DASHBOARD_CSP).toContain("connect-src 'self'");
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(DASHBOARD_CSP).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('hashed assets are cached for a year', async () => {
    const response = await ctx.app.inject({ url: `/app/assets/${FAKE_ASSET.name}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(response.body).toBe(FAKE_ASSET.body);
  });

  it('a missing asset is the 404 Error object, not index.html', async () => {
    const response = await ctx.app.inject({ url: '/app/assets/gone-000000.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('the API keeps its own headers: no CSP of the app on /api/v1', async () => {
    const response = await ctx.app.inject({ url: '/api/v1/merchant' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-security-policy']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('/app is in neither OpenAPI document', async () => {
    for (const url of ['/api/v1/openapi.json', '/openapi.json']) {
      const paths = Object.keys((await ctx.app.inject({ url })).json().paths);
      expect(paths.length, url).toBeGreaterThan(0);
      expect(paths.filter((p) => p.startsWith('/app')), url).toEqual([]);
    }
  });

  it('without a build, /app and its routes answer 503 saying to build it', async () => {
    const app = await ctx.buildApp({ DASHBOARD_DIR: path.join(dist, 'missing') });
    for (const url of ['/app', '/app/orders']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(503);
      const body = response.json();
      expect(body.error).toBe('SERVICE_UNAVAILABLE');
      expect(body.message).toContain('npm run web:build');
      expect(body.requestId).toBe(response.headers['x-request-id']);
    }
  });
});
