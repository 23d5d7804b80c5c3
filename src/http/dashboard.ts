/**
 * The merchant dashboard (web/, docs/architecture/dashboard.md) served at /app from its build:
 * hashed files under /app/assets with a year's cache (a new build has new names), and index.html
 * for /app and every other /app/* path (the app's own routes, client-side) with no-store, so a
 * new build is picked up at the next load. The pages call only the documented API under /api/v1.
 *
 * These routes are no part of the API: hidden from the OpenAPI document. They carry the API's
 * headers (nosniff, HSTS over https) plus a Content-Security-Policy for the app: scripts only from
 * this origin; styles from this origin and inline, because Mantine writes its theme's CSS
 * variables and responsive style props as <style> elements at run time; no framing.
 *
 * When the build is missing (web/dist is written by `npm run web:build`, which `npm ci` and
 * `npm install` run), /app answers 503 SERVICE_UNAVAILABLE saying so; the directory is read at
 * start-up, so a build made later is served after a restart.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../errors.ts';

export const DASHBOARD_PREFIX = '/app';

export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Hashed file names: a file under /app/assets never changes, so browsers keep it a year. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

const hidden = { schema: { hide: true } } as const;

export async function registerDashboard(app: FastifyInstance, options: { dir: string }): Promise<void> {
  const index = path.join(options.dir, 'index.html');
  const built = existsSync(index);

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (_request, reply) => {
      reply.header('content-security-policy', DASHBOARD_CSP);
      reply.header('x-frame-options', 'DENY');
      reply.header('referrer-policy', 'same-origin');
    });

    if (!built) {
      const missing = async () => {
        throw new AppError('SERVICE_UNAVAILABLE', `The dashboard is not built: ${index} is missing. Run \`npm run web:build\` (npm ci and npm install run it), then restart the service.`);
      };
      scope.get(DASHBOARD_PREFIX, hidden, missing);
      scope.get(`${DASHBOARD_PREFIX}/*`, hidden, missing);
      return;
    }

    await scope.register(fastifyStatic, {
      root: path.join(options.dir, 'assets'),
      prefix: `${DASHBOARD_PREFIX}/assets/`,
      decorateReply: false,
      index: false,
      cacheControl: false,
      schemaHide: true,
      setHeaders: (reply) => {
        (reply as unknown as FastifyReply).header('cache-control', ASSET_CACHE);
      },
    });
    const sendIndex = async (_request: unknown, reply: FastifyReply) =>
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(await readFile(index));
    scope.get(DASHBOARD_PREFIX, hidden, sendIndex);
    scope.get(`${DASHBOARD_PREFIX}/*`, hidden, sendIndex);
  });
}
