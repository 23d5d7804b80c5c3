/**
 * The reading of web/src/routes.tsx the every-route crawl visits (test/helpers/dashboard-routes.ts):
 * every page of the real file with its app and parameters, a page added later found, a layout
 * nested in another, a parameter the crawl's table does not map named, and a `createRoute(` of a
 * form the reading does not know refused rather than skipped.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dashboardRoutes, fillRoute, paramKind, parseDashboardRoutes, ROUTES_FILE } from '../helpers/dashboard-routes.ts';

const source = readFileSync(ROUTES_FILE, 'utf8');
const page = (parent: string, path: string) => `    createRoute({ getParentRoute: () => ${parent}, path: '${path}', component: lazyRouteComponent(() => import('./pages/x.tsx'), 'X') }),\n`;
/** routes.tsx with `lines` added as the shell's first children. */
const withPages = (lines: string) => source.replace('  shell.addChildren([\n', `  shell.addChildren([\n${lines}`);

describe('the dashboard routes the crawl visits', () => {
  it('reads every page of routes.tsx with its app, its address and its parameters', () => {
    const routes = dashboardRoutes();
    expect(routes.length).toBe(source.split('createRoute(').length - 1 - 2); // shell and ops are layouts (root is createRootRoute)
    const find = (path: string) => routes.find((route) => route.path === path);
    expect(find('/sign-in')).toEqual({ app: 'root', path: '/sign-in', params: [] });
    expect(find('/ops/sign-in/totp')).toEqual({ app: 'root', path: '/ops/sign-in/totp', params: [] });
    expect(find('/ops/kyc/$id')).toEqual({ app: 'ops', path: '/ops/kyc/$id', params: ['id'] });
    expect(find('/ops')).toEqual({ app: 'ops', path: '/ops', params: [], redirectsTo: '/ops/kyc' });
    expect(find('/')).toEqual({ app: 'shell', path: '/', params: [] });
    expect(find('/developers/webhooks/deliveries/$id')).toEqual({ app: 'shell', path: '/developers/webhooks/deliveries/$id', params: ['id'] });
    expect(fillRoute(find('/orders/$id')!, { id: 'a b' })).toBe('/app/orders/a%20b');
    expect(fillRoute(find('/')!, {})).toBe('/app/');
    expect(() => fillRoute(find('/orders/$id')!, {})).toThrow('no value for $id');
  });

  it('finds a page added later, and names a parameter the table does not map', () => {
    const routes = parseDashboardRoutes(withPages(page('shell', 'disputes/$id') + page('shell', 'wallets/$walletId')));
    const disputes = routes.find((route) => route.path === '/disputes/$id')!;
    expect(disputes).toEqual({ app: 'shell', path: '/disputes/$id', params: ['id'] });
    expect(paramKind(disputes, { '/disputes/$id': 'disputes' })).toEqual({ kind: 'disputes' });
    expect(paramKind(disputes, {})).toEqual({ problem: expect.stringContaining("/disputes/$id has $id, which the crawl's PARAMS") });
    const wallets = routes.find((route) => route.path === '/wallets/$walletId')!;
    expect(paramKind(wallets, { '/wallets/$walletId': 'wallets' })).toEqual({ problem: expect.stringContaining('teach the crawl its $walletId') });
    expect(paramKind(routes.find((route) => route.path === '/fees')!, {})).toEqual({});
  });

  it('follows a layout nested in another', () => {
    const nested = withPages(page('settings', 'keys/$id')).replace(
      'const routeTree',
      "const settings = createRoute({ getParentRoute: () => shell, path: 'settings', component: Outlet });\nconst routeTree",
    );
    const routes = parseDashboardRoutes(nested);
    expect(routes.find((route) => route.path === '/settings/keys/$id')).toEqual({ app: 'shell', path: '/settings/keys/$id', params: ['id'] });
    expect(routes.some((route) => route.path === '/settings')).toBe(false);
  });

  it('refuses a createRoute( it cannot read instead of leaving the page out', () => {
    const odd = withPages("    createRoute({ path: 'odd', getParentRoute: () => shell }),\n");
    expect(() => parseDashboardRoutes(odd)).toThrow(/createRoute\( calls and .* of them read as/);
    expect(() => parseDashboardRoutes(withPages(page('nowhere', 'x')))).toThrow('`nowhere` is not a layout');
  });
});
