/**
 * A stand-in for the dashboard's build (web/dist) in a temporary folder, for DASHBOARD_DIR: tests
 * of the /app routes then answer the same whether or not `npm run web:build` has run here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const FAKE_INDEX = '<!doctype html><html lang="pt-BR"><head><script type="module" src="/app/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
export const FAKE_ASSET = { name: 'index-abc123.js', body: 'console.log("app")' };

export function fakeDashboardBuild(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), FAKE_INDEX);
  writeFileSync(path.join(dir, 'assets', FAKE_ASSET.name), FAKE_ASSET.body);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
