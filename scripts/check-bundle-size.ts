/**
 * The dashboard's first-load budget (docs/architecture/dashboard.md#bundle-budget): the gzip size
 * of the JavaScript web/dist/index.html loads before the app can start, its entry script and
 * every modulepreload link, at most BUDGET_KB. Pages are split into lazy chunks (web/src/routes.tsx)
 * and are not counted: they load when visited. Run by CI after `npm ci` built web/dist
 * (`npm run lint:bundle`); prints the figure either way.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 300;
const DIST = path.resolve('web/dist');
/** The prefix of Vite's `base` (web/vite.config.ts): /app/assets/x.js is web/dist/assets/x.js. */
const BASE = '/app/';

const indexFile = path.join(DIST, 'index.html');
if (!existsSync(indexFile)) {
  console.error(`lint:bundle: ${indexFile} is missing; run \`npm run web:build\` first`);
  process.exit(1);
}
const html = readFileSync(indexFile, 'utf8');

const tags = [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"[^>]*>|<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"[^>]*>/g)];
const urls = [...new Set(tags.map((match) => match[1] ?? match[2]).filter((url): url is string => url !== undefined))];
if (urls.length === 0) {
  console.error('lint:bundle: index.html loads no module script: is this a Vite build?');
  process.exit(1);
}

let total = 0;
for (const url of urls) {
  if (!url.startsWith(BASE)) throw new Error(`lint:bundle: ${url} is outside ${BASE}`);
  const bytes = gzipSync(readFileSync(path.join(DIST, url.slice(BASE.length))), { level: 9 }).length;
  total += bytes;
  console.log(`  ${(bytes / 1024).toFixed(1).padStart(7)} KB  ${url}`);
}

const kb = total / 1024;
console.log(`lint:bundle: first load ${kb.toFixed(1)} KB of JavaScript gzipped (${urls.length} files; budget ${BUDGET_KB} KB)`);
if (kb > BUDGET_KB) {
  console.error(`lint:bundle: over the budget by ${(kb - BUDGET_KB).toFixed(1)} KB: split a page out of the entry (lazy route) or drop a dependency`);
  process.exit(1);
}
