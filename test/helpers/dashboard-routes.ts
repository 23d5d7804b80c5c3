/**
 * The dashboard's pages as web/src/routes.tsx declares them, read from its source (issue 42: the
 * crawl of test/browser/every-route.test.ts visits whatever that file lists, so a page added later
 * is visited without editing the test). Each `createRoute({ getParentRoute: () => parent, path|id:
 * '…'` is one route; a route kept in a `const` is a layout (its children are the pages). A
 * `createRoute(` this reading does not understand throws, rather than leaving a page out silently.
 */
import { readFileSync } from 'node:fs';

export const ROUTES_FILE = new URL('../../web/src/routes.tsx', import.meta.url);

export interface DashboardRoute {
  /** The layout the page sits in under the root: `ops` (the back office), `shell` (the merchant's signed-in app), or `root` (the public pages). */
  app: string;
  /** The address below /app, with its parameters as written: `/orders/$id`, `/ops/kyc`, `/` . */
  path: string;
  /** Its parameters' names, without `$`, in order. */
  params: string[];
  /** Where a `beforeLoad: () => { throw redirect({ to }) }` sends it, below /app; else undefined. */
  redirectsTo?: string;
}

const CALL = /createRoute\(\{\s*getParentRoute:\s*\(\)\s*=>\s*(\w+),\s*(path|id):\s*'([^']*)'([^\n]*)/g;
const LAYOUT = /const\s+(\w+)\s*=\s*createRoute\(\{\s*getParentRoute:\s*\(\)\s*=>\s*(\w+),\s*(path|id):\s*'([^']*)'/g;
const join = (...parts: string[]) => `/${parts.flatMap((part) => part.split('/')).filter(Boolean).join('/')}`;

/** Every page (layouts left out) of a routes.tsx source, in the file's order. */
export function parseDashboardRoutes(source: string): DashboardRoute[] {
  const calls = source.split('createRoute(').length - 1;
  const matches = [...source.matchAll(CALL)];
  if (matches.length !== calls) {
    throw new Error(`routes.tsx has ${calls} createRoute( calls and ${matches.length} of them read as { getParentRoute: () => parent, path|id: '…' }: teach test/helpers/dashboard-routes.ts the new form`);
  }
  const layouts = new Map<string, { parent: string; segment: string }>();
  for (const [, name, parent, kind, value] of source.matchAll(LAYOUT)) layouts.set(name!, { parent: parent!, segment: kind === 'path' ? value! : '' });
  const base = (layout: string): { app: string; path: string } => {
    if (layout === 'root') return { app: 'root', path: '/' };
    const found = layouts.get(layout);
    if (!found) throw new Error(`routes.tsx: a route's parent \`${layout}\` is not a layout this reading knows`);
    if (found.parent === 'root') return { app: layout, path: join(found.segment) };
    const above = base(found.parent);
    return { app: above.app, path: join(above.path, found.segment) };
  };
  // A layout is a route kept in a const (`const ops = createRoute(…)`): its children are the pages.
  const isLayout = (match: RegExpExecArray) => /const\s+\w+\s*=\s*$/.test(source.slice(Math.max(0, match.index - 40), match.index));
  return matches
    .filter((match) => !isLayout(match))
    .map(([, parent, kind, value, rest]) => {
      const { app, path: above } = base(parent!);
      const path = join(above, kind === 'path' ? value! : '');
      const params = path.split('/').filter((segment) => segment.startsWith('$')).map((segment) => segment.slice(1));
      const redirect = rest!.match(/redirect\(\{\s*to:\s*'([^']*)'/)?.[1];
      return { app, path, params, ...(redirect ? { redirectsTo: join(redirect) } : {}) };
    });
}

/** The pages of web/src/routes.tsx as it is now. */
export function dashboardRoutes(): DashboardRoute[] {
  return parseDashboardRoutes(readFileSync(ROUTES_FILE, 'utf8'));
}

/**
 * Which kind of seeded record a page's parameters take, from `table` (keyed by the page's path);
 * a sentence saying what is missing when the table does not map them (the crawl fails with it).
 */
export function paramKind<Kind extends string>(route: DashboardRoute, table: Record<string, Kind>): { kind?: Kind } | { problem: string } {
  if (route.params.length === 0) return {};
  const kind = table[route.path];
  const names = route.params.map((param) => `$${param}`).join(', ');
  if (!kind) return { problem: `${route.path} has ${names}, which the crawl's PARAMS (test/browser/every-route.test.ts) does not map to seeded data: add its line there` };
  if (route.params.join() !== 'id') return { problem: `${route.path}: PARAMS maps a page's $id only; teach the crawl its ${names}` };
  return { kind };
}

/** The route's address under /app with its parameters filled in; throws naming a parameter `values` lacks. */
export function fillRoute(route: DashboardRoute, values: Record<string, string>): string {
  const filled = route.path.replace(/\$(\w+)/g, (_all, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${route.path}: no value for $${name}`);
    return encodeURIComponent(value);
  });
  return `/app${filled === '/' ? '/' : filled}`;
}
