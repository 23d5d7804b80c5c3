/**
 * Every page of the dashboard, one line each: path, guard and the page's component, loaded
 * lazily so the first load carries only the shell (the bundle budget, scripts/check-bundle-size.ts).
 * To add a page: write web/src/pages/<area>/<name>-page.tsx exporting a component, and add
 * one line below (docs/architecture/dashboard.md#adding-a-page).
 */
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, redirect } from '@tanstack/react-router';
import { requireEnrolment, requireSession } from './api/guards.ts';
import { requireOperatorEnrolment, requireOperatorSession } from './api/operator-guards.ts';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { deliverySearch } from './pages/developers/delivery-search.ts';
import { ordersSearch } from './pages/orders/filters.ts';
import { opsOrdersSearch, stuckSearch } from './pages/ops/orders/admin-orders.ts';
import { approvalsSearch } from './pages/ops/approvals/approvals-search.ts';
import { disputesSearch } from './pages/ops/disputes/disputes-search.ts';

const pageSearch = (search: Record<string, unknown>): { page?: number } => {
  const page = Number(search.page);
  return Number.isInteger(page) && page > 1 ? { page } : {};
};
const overviewSearch = (search: Record<string, unknown>): { days?: 7 | 90 } => (search.days === 7 || search.days === 90 ? { days: search.days } : {});
const signInSearch = (search: Record<string, unknown>): { signedOut?: boolean } => (search.signedOut === true ? { signedOut: true } : {});

const root = createRootRoute({ component: Outlet, notFoundComponent: NotFoundPage });
const shell = createRoute({ getParentRoute: () => root, id: 'shell', beforeLoad: requireSession, component: lazyRouteComponent(() => import('./components/shell.tsx'), 'MerchantShell') });

// The back office (/app/ops): its own session (the operator's `osid`), guard and frame.
const ops = createRoute({ getParentRoute: () => root, path: 'ops', beforeLoad: requireOperatorSession, component: lazyRouteComponent(() => import('./components/shell.tsx'), 'OpsShell') });

const routeTree = root.addChildren([
  createRoute({ getParentRoute: () => root, path: 'sign-in', validateSearch: signInSearch, component: lazyRouteComponent(() => import('./pages/sign-in/sign-in-page.tsx'), 'SignInPage') }),
  createRoute({ getParentRoute: () => root, path: 'sign-in/totp', beforeLoad: requireEnrolment, component: lazyRouteComponent(() => import('./pages/sign-in/totp-enrolment-page.tsx'), 'TotpEnrolmentPage') }),
  // The emailed links: outside the shell (no session), the token after `#` (pages/links/link-token.ts).
  createRoute({ getParentRoute: () => root, path: 'reset-password', component: lazyRouteComponent(() => import('./pages/links/reset-password-page.tsx'), 'ResetPasswordPage') }),
  createRoute({ getParentRoute: () => root, path: 'accept-invitation', component: lazyRouteComponent(() => import('./pages/links/accept-invitation-page.tsx'), 'AcceptInvitationPage') }),
  createRoute({ getParentRoute: () => root, path: 'ops/accept-invitation', component: lazyRouteComponent(() => import('./pages/ops/ops-accept-invitation-page.tsx'), 'OpsAcceptInvitationPage') }),
  createRoute({ getParentRoute: () => root, path: 'ops/sign-in', validateSearch: signInSearch, component: lazyRouteComponent(() => import('./pages/ops/ops-sign-in-page.tsx'), 'OpsSignInPage') }),
  createRoute({ getParentRoute: () => root, path: 'ops/sign-in/totp', beforeLoad: requireOperatorEnrolment, component: lazyRouteComponent(() => import('./pages/ops/ops-totp-enrolment-page.tsx'), 'OpsTotpEnrolmentPage') }),
  ops.addChildren([
    createRoute({ getParentRoute: () => ops, path: '/', beforeLoad: () => { throw redirect({ to: '/ops/kyc' }); } }),
    createRoute({ getParentRoute: () => ops, path: 'kyc', component: lazyRouteComponent(() => import('./pages/ops/kyc-queue-page.tsx'), 'KycQueuePage') }),
    createRoute({ getParentRoute: () => ops, path: 'kyc/$id', component: lazyRouteComponent(() => import('./pages/ops/receiver-kyc-page.tsx'), 'ReceiverKycPage') }),
    createRoute({ getParentRoute: () => ops, path: 'orders', validateSearch: opsOrdersSearch, component: lazyRouteComponent(() => import('./pages/ops/orders/ops-orders-page.tsx'), 'OpsOrdersPage') }),
    createRoute({ getParentRoute: () => ops, path: 'orders/stuck', validateSearch: stuckSearch, component: lazyRouteComponent(() => import('./pages/ops/orders/stuck-orders-page.tsx'), 'StuckOrdersPage') }),
    createRoute({ getParentRoute: () => ops, path: 'orders/$id', component: lazyRouteComponent(() => import('./pages/ops/orders/ops-order-page.tsx'), 'OpsOrderPage') }),
    createRoute({ getParentRoute: () => ops, path: 'approvals', validateSearch: approvalsSearch, component: lazyRouteComponent(() => import('./pages/ops/approvals/approvals-page.tsx'), 'ApprovalsPage') }),
    createRoute({ getParentRoute: () => ops, path: 'approvals/$id', component: lazyRouteComponent(() => import('./pages/ops/approvals/approval-page.tsx'), 'ApprovalPage') }),
    createRoute({ getParentRoute: () => ops, path: 'disputes', validateSearch: disputesSearch, component: lazyRouteComponent(() => import('./pages/ops/disputes/disputes-page.tsx'), 'DisputesPage') }),
    createRoute({ getParentRoute: () => ops, path: 'disputes/$id', component: lazyRouteComponent(() => import('./pages/ops/disputes/dispute-page.tsx'), 'DisputePage') }),
    createRoute({ getParentRoute: () => ops, path: 'merchants', component: lazyRouteComponent(() => import('./pages/ops/merchants-page.tsx'), 'MerchantsPage') }),
    createRoute({ getParentRoute: () => ops, path: 'merchants/$id', component: lazyRouteComponent(() => import('./pages/ops/merchant-page.tsx'), 'MerchantPage') }),
    createRoute({ getParentRoute: () => ops, path: 'treasury', component: lazyRouteComponent(() => import('./pages/ops/treasury-page.tsx'), 'TreasuryPage') }),
    createRoute({ getParentRoute: () => ops, path: 'webhooks', component: lazyRouteComponent(() => import('./pages/ops/webhooks-health-page.tsx'), 'WebhooksHealthPage') }),
    createRoute({ getParentRoute: () => ops, path: 'audit-log', component: lazyRouteComponent(() => import('./pages/ops/audit-log-page.tsx'), 'AuditLogPage') }),
    createRoute({ getParentRoute: () => ops, path: 'operators', component: lazyRouteComponent(() => import('./pages/ops/operators-page.tsx'), 'OperatorsPage') }),
  ]),
  shell.addChildren([
    createRoute({ getParentRoute: () => shell, path: '/', validateSearch: overviewSearch, component: lazyRouteComponent(() => import('./pages/overview/overview-page.tsx'), 'OverviewPage') }),
    createRoute({ getParentRoute: () => shell, path: 'orders', validateSearch: ordersSearch, component: lazyRouteComponent(() => import('./pages/orders/orders-page.tsx'), 'OrdersPage') }),
    createRoute({ getParentRoute: () => shell, path: 'orders/new', component: lazyRouteComponent(() => import('./pages/orders/new-payin-page.tsx'), 'NewPayinPage') }),
    createRoute({ getParentRoute: () => shell, path: 'orders/$id', component: lazyRouteComponent(() => import('./pages/orders/order-page.tsx'), 'OrderPage') }),
    createRoute({ getParentRoute: () => shell, path: 'payout-batches', validateSearch: pageSearch, component: lazyRouteComponent(() => import('./pages/batches/batches-page.tsx'), 'BatchesPage') }),
    createRoute({ getParentRoute: () => shell, path: 'payout-batches/new', component: lazyRouteComponent(() => import('./pages/batches/new-batch-page.tsx'), 'NewBatchPage') }),
    createRoute({ getParentRoute: () => shell, path: 'payout-batches/$id', component: lazyRouteComponent(() => import('./pages/batches/batch-page.tsx'), 'BatchPage') }),
    createRoute({ getParentRoute: () => shell, path: 'disputes', validateSearch: disputesSearch, component: lazyRouteComponent(() => import('./pages/disputes/disputes-page.tsx'), 'DisputesPage') }),
    createRoute({ getParentRoute: () => shell, path: 'disputes/$id', component: lazyRouteComponent(() => import('./pages/disputes/dispute-page.tsx'), 'DisputePage') }),
    createRoute({ getParentRoute: () => shell, path: 'receivers', validateSearch: pageSearch, component: lazyRouteComponent(() => import('./pages/receivers/receivers-page.tsx'), 'ReceiversPage') }),
    createRoute({ getParentRoute: () => shell, path: 'receivers/new', component: lazyRouteComponent(() => import('./pages/receivers/new-receiver-page.tsx'), 'NewReceiverPage') }),
    createRoute({ getParentRoute: () => shell, path: 'receivers/$id', component: lazyRouteComponent(() => import('./pages/receivers/receiver-page.tsx'), 'ReceiverPage') }),
    createRoute({ getParentRoute: () => shell, path: 'developers/api-keys', component: lazyRouteComponent(() => import('./pages/developers/api-keys-page.tsx'), 'ApiKeysPage') }),
    createRoute({ getParentRoute: () => shell, path: 'developers/webhooks', component: lazyRouteComponent(() => import('./pages/developers/webhooks-page.tsx'), 'WebhooksPage') }),
    createRoute({ getParentRoute: () => shell, path: 'developers/webhooks/deliveries', validateSearch: deliverySearch, component: lazyRouteComponent(() => import('./pages/developers/deliveries-page.tsx'), 'DeliveriesPage') }),
    createRoute({ getParentRoute: () => shell, path: 'developers/webhooks/deliveries/$id', component: lazyRouteComponent(() => import('./pages/developers/delivery-page.tsx'), 'DeliveryPage') }),
    createRoute({ getParentRoute: () => shell, path: 'developers/webhooks/$id', component: lazyRouteComponent(() => import('./pages/developers/webhook-endpoint-page.tsx'), 'WebhookEndpointPage') }),
    createRoute({ getParentRoute: () => shell, path: 'developers/events', component: lazyRouteComponent(() => import('./pages/developers/events-page.tsx'), 'EventsPage') }),
    createRoute({ getParentRoute: () => shell, path: 'balances', component: lazyRouteComponent(() => import('./pages/balances/balances-page.tsx'), 'BalancesPage') }),
    createRoute({ getParentRoute: () => shell, path: 'fees', component: lazyRouteComponent(() => import('./pages/fees/fees-page.tsx'), 'FeesPage') }),
    createRoute({ getParentRoute: () => shell, path: 'policies', component: lazyRouteComponent(() => import('./pages/policies/policies-page.tsx'), 'PoliciesPage') }),
    createRoute({ getParentRoute: () => shell, path: 'team', component: lazyRouteComponent(() => import('./pages/team/team-page.tsx'), 'TeamPage') }),
    createRoute({ getParentRoute: () => shell, path: 'account', component: lazyRouteComponent(() => import('./pages/account/account-page.tsx'), 'AccountPage') }),
  ]),
]);

export const router = createRouter({ routeTree, basepath: '/app', defaultPreload: 'intent', scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
