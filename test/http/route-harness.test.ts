/**
 * Every registered route, probed for authentication, tenant isolation and malformed bodies
 * (test/helpers/route-harness.ts says what each probe expects). Nobody lists the routes: they are
 * collected as the app registers them, with every optional part mounted (sandbox, LiteSVM wallet
 * routes, admin, docs, the PSP callback of PIX_PROVIDER=api-pix, /metrics behind METRICS_TOKEN).
 * What the harness cannot guess is declared here, once: the routes public by design
 * (publicRoutes), and what each path parameter and `...Id` field names (pathParams, idFields). A
 * new route with neither auth nor an entry fails, and so does a new parameter or id field without
 * a rule; the last test shows each kind of broken route reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { AppError } from '../../src/errors.ts';
import { requireMerchant } from '../../src/http/auth.ts';
import { createAuthFailureLimiter } from '../../src/http/auth-failures.ts';
import { API_PREFIX } from '../../src/http/openapi.ts';
import type { App } from '../../src/http/types.ts';
import { createTestContext, TestClock, type TestContext, type TestMerchant } from '../helpers/app.ts';
import { callAs, createActiveReceiver, createMerchantPair, createWebhookEndpoint, SOLANA_WALLET } from '../helpers/factories.ts';
import { fakeDashboardBuild } from '../helpers/dashboard-build.ts';
import { peopleOf } from '../helpers/people.ts';
import { collectRoutes, type HarnessActors, type HarnessPolicy, probeRoutes, type RegisteredRoute, routeKey } from '../helpers/route-harness.ts';
import { unreachablePspEnv } from '../helpers/unreachable-psp.ts';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789';

/** Merchant-owned resources a path parameter can name; merchant A owns one of each. */
type Resource = 'merchant' | 'credential' | 'receiver' | 'quote' | 'order' | 'webhookEndpoint' | 'webhookDelivery' | 'user' | 'invitation';

const POLICY: HarnessPolicy<Resource> = {
  /** Routes that answer without credentials by design: what an anonymous caller gets, and why. */
  publicRoutes: {
    'GET /healthz': { anonymous: 200, why: "liveness: the orchestrator's probe carries no credentials" },
    'GET /readyz': { anonymous: 200, why: "readiness: the load balancer's probe carries no credentials" },
    'GET /api/v1/openapi.json': { anonymous: 200, why: 'the contract is public: integrators generate clients from it' },
    'GET /openapi.json': { anonymous: 200, why: 'the operations document (health, readiness, metrics): public like the contract' },
    'GET /docs': { anonymous: 200, why: 'the API reference (DOCS_ENABLED): serves the public contract' },
    'GET /docs/json': { anonymous: 200, why: "the API reference's copy of the public contract" },
    'GET /docs/yaml': { anonymous: 200, why: "the API reference's copy of the public contract" },
    'GET /docs/static/index.html': { anonymous: 302, why: "the API reference's page" },
    'GET /docs/static/swagger-initializer.js': { anonymous: 200, why: "the API reference's script" },
    'GET /docs/static/*': { anonymous: 200, why: "the API reference's static assets" },
    'GET /app': { anonymous: 200, why: "the dashboard's page (src/http/dashboard.ts): the sign-in page is its first screen; its data comes from the API's own guarded routes" },
    'GET /app/*': { anonymous: 200, why: "the dashboard's client-side routes: the same page, which signs in through the API" },
    'GET /app/assets/*': { anonymous: 200, why: "the dashboard's scripts and styles: public like any web page's" },
    'POST /api/v1/auth/token': { anonymous: 400, why: 'exchanges an API key and secret (in the body) for a bearer token' },
    'POST /api/v1/auth/sessions': { anonymous: 400, why: 'sign-in: exchanges an email and password (in the body) for a session cookie' },
    'POST /api/v1/admin/auth/sessions': { anonymous: 400, why: "an operator's sign-in: exchanges an email and password (in the body) for the back office's session cookie" },
    'POST /api/v1/auth/password-resets': { anonymous: 400, why: 'a forgotten password: anyone may ask; 202 whatever the email, the link goes only to the address' },
    'POST /api/v1/auth/password-resets/:token': { anonymous: 400, why: "the reset link's page: its single-use token (in the path) is the credential" },
    'POST /api/v1/auth/invitations/:token': { anonymous: 400, why: "the invitation link's page: its single-use token (in the path) is the credential" },
    'POST /api/v1/admin/auth/invitations/:token': { anonymous: 400, why: "an operator invitation link's page: its single-use token (in the path), emailed to the invitee only, is the credential" },
    'GET /api/v1/.well-known/jwks.json': { anonymous: 200, why: 'the public keys that verify bearer tokens' },
    'GET /api/v1/wallet/fee-payer': { anonymous: 200, why: "the platform fee payer's address, public on chain, named in every transaction a client builds" },
    'POST /api/v1/pix-provider/webhook/:token/pix': {
      anonymous: 404,
      why: "the PSP's callback: mTLS at the edge, then its own secret path token (and header secret, allowed IPs); a wrong token is 404",
    },
  },
  pathParams: {
    'merchants/:id': { owned: 'merchant' },
    'credentials/:credentialId': { owned: 'credential' },
    'receivers/:id': { owned: 'receiver' },
    'receivers/:receiverId': { owned: 'receiver' },
    'orders/:id': { owned: 'order' },
    'endpoints/:id': { owned: 'webhookEndpoint' },
    'deliveries/:id': { owned: 'webhookDelivery' },
    'users/:id': { owned: 'user' },
    'invitations/:id': { owned: 'invitation' },
    'sessions/:id': { value: '00000000-0000-7000-8000-000000000001', why: "a person's own session: only a session reaches the route (an API key is 403), and it revokes only its user's" },
    'fee-tiers/:orderType': { value: 'PAYIN', why: "an order type: the route replaces the caller's own tiers of that type" },
    'markups/:orderType': { value: 'PAYIN', why: "an order type: the route sets the caller's own markup of that type" },
    'platform-fee-tiers/:orderType': { value: 'PAYIN', why: 'an order type (operator only)' },
    'operators/:id': { value: '00000000-0000-7000-8000-000000000002', why: 'an operator (back office only: operators belong to no merchant)' },
    'standing-charges/:chargeId': { value: '00000000-0000-7000-8000-000000000006', why: "a standing PIX charge, looked up under its receiver (already the caller's own or 404): test/modules/standing-charges" },
    'standing-addresses/:addressId': { value: '00000000-0000-7000-8000-000000000007', why: "a standing deposit address, looked up under its receiver (already the caller's own or 404): test/modules/standing-addresses" },
    'payout-batches/:id': { value: '00000000-0000-7000-8000-000000000008', why: "a payout batch: found by merchant and id (payout-batches/repo.ts), so another merchant's is 404" },
    'disputes/:id': { value: '00000000-0000-7000-8000-000000000004', why: "a MED claim: only its merchant's are found (another's is 404: test/modules/disputes)" },
    'service-accounts/:id': { value: '00000000-0000-7000-8000-000000000005', why: 'a service account (back office only: accounts belong to no merchant)' },
    'approvals/:id': { value: '00000000-0000-7000-8000-000000000003', why: 'a four-eyes proposal (back office only: proposals belong to no merchant)' },
    'balances/:address': { value: SOLANA_WALLET, why: 'a Solana address on the sandbox chain: balances on a chain are public' },
    'transactions/:signature': { value: '1'.repeat(64), why: 'a transaction signature on the sandbox chain: transactions on a chain are public' },
    'password-resets/:token': { value: 'A'.repeat(43), why: "an emailed link's single-use token: an unknown one is 410" },
    'invitations/:token': { value: 'A'.repeat(43), why: "an emailed link's single-use token: an unknown one is 410" },
    'webhook/:token': { value: 'not-the-token', why: "the PSP callback's secret path token: a wrong one must be refused" },
    'static/:*': { value: 'index.css', why: "a file of the API reference's static assets" },
    'app/:*': { value: 'orders', why: "a client-side route of the dashboard: no resource of the API's" },
    'assets/:*': { value: 'index-abc123.js', why: "a file of the dashboard's build (test/helpers/dashboard-build.ts)" },
  },
  idFields: {
    receiverId: { owned: 'receiver' },
    quoteId: { owned: 'quote' },
    orderId: { owned: 'order' },
    endpointId: { owned: 'webhookEndpoint' },
    externalId: { why: "the merchant's own free-text reference, not an id of ours" },
    challengeId: { why: "a wallet ownership challenge, looked up only under the path's receiver (owned, checked above): another receiver's or merchant's is 404 like an unknown one" },
  },
  isAdminRoute: (url) => url.startsWith(`${API_PREFIX}/admin/`),
};

/** One route per method and path: the first app's, then the routes only a later app registers. */
function union(...lists: RegisteredRoute[][]): RegisteredRoute[] {
  const byKey = new Map<string, RegisteredRoute>();
  for (const route of lists.flat()) if (!byKey.has(routeKey(route))) byKey.set(routeKey(route), route);
  return [...byKey.values()];
}

describe('route harness: every registered route', () => {
  let ctx: TestContext;
  let routes: RegisteredRoute[];
  let merchantA: TestMerchant;
  let actors: HarnessActors<Resource>;
  // The /app routes answer from a build of known content, whether or not web/dist exists here.
  const dashboard = fakeDashboardBuild();

  beforeAll(async () => {
    const main = await collectRoutes(() => createTestContext({ METRICS_TOKEN, DASHBOARD_DIR: dashboard.dir }));
    ctx = main.result;
    // The PSP callback is mounted only with PIX_PROVIDER=api-pix (whose PSP no fixture here calls).
    const pspEnv = await unreachablePspEnv({ publicUrl: 'http://127.0.0.1:1', token: 't'.repeat(32) });
    const psp = await collectRoutes(() => ctx.buildApp(pspEnv));
    routes = union(main.routes, psp.routes);

    const [a, b] = await createMerchantPair(ctx);
    merchantA = a;
    // B as the dashboard calls the API: an OWNER (every permission) signed in with TOTP.
    const bOwner = await peopleOf(ctx.app, b.merchantId, new TestClock(new Date()), 'harness-b-owner').manager('OWNER');
    const receiver = await createActiveReceiver(ctx, a, { createManagedWallet: true, limits: { nightTransactionsEnabled: true } });
    const quote = await callAs(ctx, a, 'POST', '/quotes', { type: 'PAYIN', token: 'USDC', amountBrl: 100, receiverId: receiver.id });
    if (quote.statusCode !== 201) throw new Error(`quote: ${quote.body}`);
    const order = await callAs(ctx, a, 'POST', '/payin', { receiverId: receiver.id, amountBrl: 100 });
    if (order.statusCode !== 201) throw new Error(`payin: ${order.body}`);
    const endpoint = await createWebhookEndpoint(ctx, a, { url: 'http://127.0.0.1:9/hooks' });
    const delivery = await callAs(ctx, a, 'POST', `/webhook/endpoints/${endpoint.id}/test`);
    if (delivery.statusCode !== 202) throw new Error(`webhook test: ${delivery.body}`);
    const invitationOf = async (merchantId: string) => {
      const { user: owner } = await ctx.app.services.users.create(merchantId, { email: `owner-${merchantId}@example.com`, role: 'OWNER' });
      return (await ctx.app.services.users.invite({ merchantId, userId: owner.id, role: 'OWNER' }, { email: `invited-${merchantId}@example.com`, role: 'VIEWER' })).id;
    };
    actors = {
      merchantA: a.headers,
      merchantB: b.headers,
      merchantBSession: { cookie: bOwner.cookie, 'x-csrf-token': bOwner.csrf },
      merchantBearer: await ctx.bearerFor(a),
      resources: {
        merchant: a.merchantId,
        credential: a.credentialId,
        receiver: receiver.id,
        quote: quote.json().id,
        order: order.json().id,
        webhookEndpoint: endpoint.id,
        webhookDelivery: delivery.json().id,
        user: (await ctx.app.services.users.create(a.merchantId, { email: `viewer-${a.merchantId}@example.com`, role: 'VIEWER' })).user.id,
        invitation: await invitationOf(a.merchantId),
      },
    };
  });
  afterAll(async () => {
    await ctx?.close();
    dashboard.remove();
  });

  it('collects the routes of every module', () => {
    const prefixes = ['/healthz', '/metrics', '/docs', '/api/v1/auth/', '/api/v1/merchant', '/api/v1/receivers', '/api/v1/payin', '/api/v1/orders', '/api/v1/ledger/', '/api/v1/webhook/', '/api/v1/fee-tiers', '/api/v1/sandbox/', '/api/v1/sandbox/wallet/', '/api/v1/merchant/wallet', '/api/v1/admin/', '/api/v1/pix-provider/', '/api/v1/users', '/api/v1/credentials', '/app'];
    for (const prefix of prefixes) expect(routes.some((route) => route.url.startsWith(prefix)), prefix).toBe(true);
  });

  it("merchant A's resources are real: A reads each of them", async () => {
    const reads = { receiver: '/receivers', order: '/orders', webhookEndpoint: '/webhook/endpoints', webhookDelivery: '/webhook/deliveries' } as const;
    for (const [resource, path] of Object.entries(reads)) {
      const response = await callAs(ctx, merchantA, 'GET', `${path}/${actors.resources[resource as Resource]}`);
      expect(response.statusCode, `${resource}: ${response.body}`).toBe(200);
    }
  });

  it("every route: 401 without credentials, 404 for another merchant (its API key and its people's sessions), 400 for a malformed body", { timeout: 90_000 }, async () => {
    expect(await probeRoutes(routes, POLICY, actors)).toEqual([]);
  });

  it("a person's sessions are theirs: merchant B's session cannot end merchant A's person's session (404, as an unknown id)", async () => {
    // sessions/:id names no merchant resource for the probes (an API key is 403 there), so this one is checked by hand.
    const aPerson = await peopleOf(ctx.app, merchantA.merchantId, new TestClock(new Date()), 'harness-a-person').signedIn('VIEWER');
    const headersOfA = { cookie: aPerson.cookie, 'x-csrf-token': aPerson.csrf };
    const [aSession] = (await ctx.app.inject({ method: 'GET', url: `${API_PREFIX}/users/me/sessions`, headers: headersOfA })).json() as [{ id: string }];
    for (const id of [aSession.id, '00000000-0000-7000-8000-000000000000']) {
      const ended = await ctx.app.inject({ method: 'DELETE', url: `${API_PREFIX}/users/me/sessions/${id}`, headers: actors.merchantBSession! });
      expect({ status: ended.statusCode, error: ended.json().error }).toEqual({ status: 404, error: 'NOT_FOUND' });
    }
    expect((await ctx.app.inject({ method: 'GET', url: `${API_PREFIX}/auth/sessions/current`, headers: headersOfA })).statusCode).toBe(200);
  });

  describe('the harness reports a route that breaks a rule', () => {
    /** Routes the app under test must never have, each breaking one rule. */
    function registerBrokenRoutes(app: App) {
      app.get(`${API_PREFIX}/probe/unguarded`, async () => ({ ok: true }));
      app.get(`${API_PREFIX}/probe/things/:thingId`, async () => ({ ok: true }));
      app.post(`${API_PREFIX}/probe/widgets`, { schema: { body: Type.Object({ widgetId: Type.String() }) } }, async () => ({ ok: true }));
      // A body schema that lets any JSON through, and a handler that breaks on an array.
      app.post(`${API_PREFIX}/probe/brittle`, { schema: { security: [], body: Type.Unknown() } }, async (request) => {
        if (Array.isArray(request.body)) throw new TypeError('expected an object');
        return { ok: true };
      });
      void app.register(async (scope: App) => {
        scope.addHook('onRequest', requireMerchant(app.services.auth, createAuthFailureLimiter({ maxPerMinute: 0 })));
        // Authenticated, but reads the receiver as the operator would: any merchant's.
        scope.get(`${API_PREFIX}/probe/receivers/:id`, async (request) => app.services.receivers.getForOperator((request.params as { id: string }).id));
        // Guarded, but the contract tells integrators it needs no credentials.
        scope.get(`${API_PREFIX}/probe/misdocumented`, { schema: { security: [] } }, async () => ({ ok: true }));
        // Refuses another merchant's receiver, but not as it refuses one that does not exist.
        scope.post(`${API_PREFIX}/probe/transfers`, { schema: { body: Type.Object({ receiverId: Type.String() }) } }, async (request) => {
          await app.services.receivers.getForOperator((request.body as { receiverId: string }).receiverId);
          throw new AppError('RECEIVER_NOT_ACTIVE', 'Receiver is not yours');
        });
      });
    }

    it('one finding per broken rule, naming the route', async () => {
      const probe = await collectRoutes(() => ctx.buildApp({ METRICS_TOKEN }, undefined, registerBrokenRoutes));
      const probeRoutesOnly = probe.routes.filter((route) => route.url.startsWith(`${API_PREFIX}/probe/`));
      const publicRoutes = {
        'POST /api/v1/probe/brittle': { anonymous: 200, why: 'public, to show the body probe alone' },
        'GET /api/v1/probe/removed': { anonymous: 200, why: 'a route that is gone' },
      };
      const findings = await probeRoutes(probeRoutesOnly, { ...POLICY, publicRoutes }, actors);
      expect(findings).toEqual([
        'GET /api/v1/probe/removed: in the public allow-list but not registered (remove the entry)',
        expect.stringMatching(/^GET \/api\/v1\/probe\/unguarded: without credentials: expected 401, got 200/),
        expect.stringMatching(/^GET \/api\/v1\/probe\/unguarded: with the admin token: expected 401, got 200/),
        'GET /api/v1/probe/things/:thingId: path parameter things/:thingId has no rule in pathParams: say whose resource it names',
        'POST /api/v1/probe/widgets: field widgetId has no rule in idFields: say whose resource it names',
        expect.stringMatching(/^POST \/api\/v1\/probe\/brittle: with the body \[\{"unexpected":true\}\]: expected 400, got 500/),
        expect.stringMatching(/^GET \/api\/v1\/probe\/receivers\/:id: as merchant B with merchant A's receivers\/:id: expected 404, got 200/),
        expect.stringMatching(/^GET \/api\/v1\/probe\/receivers\/:id: as merchant B's session with merchant A's receivers\/:id: expected 404, got 200/),
        'GET /api/v1/probe/misdocumented: its OpenAPI security is [] (public), but it is not in the allow-list',
        expect.stringMatching(/^POST \/api\/v1\/probe\/transfers: as merchant B, A's receiverId answers 422 .* but an unknown id 404 .*: another merchant's ids must look like ids that do not exist$/),
        expect.stringMatching(/^POST \/api\/v1\/probe\/transfers: as merchant B's session, A's receiverId answers 422 .* but an unknown id 404 .*: another merchant's ids must look like ids that do not exist$/),
      ]);
    });
  });
});
