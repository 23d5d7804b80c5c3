/**
 * The two apps' navigation, in order: the merchant dashboard's and the back office's. `to` is a
 * route of routes.tsx; an entry with `children` is a group. A new page that belongs in a menu
 * adds one line here.
 */
import type { MessageKey } from '../i18n/messages.ts';

export interface MenuEntry {
  to: string;
  label: MessageKey;
  children?: MenuEntry[];
}

export const MERCHANT_MENU: MenuEntry[] = [
  { to: '/', label: 'nav.overview' },
  { to: '/orders', label: 'nav.orders' },
  { to: '/receivers', label: 'nav.receivers' },
  { to: '/payout-batches', label: 'batches.nav' },
  { to: '/disputes', label: 'disputes.nav' },
  {
    to: '/developers',
    label: 'nav.developers',
    children: [
      { to: '/developers/api-keys', label: 'nav.apiKeys' },
      { to: '/developers/webhooks', label: 'nav.webhooks' },
      { to: '/developers/webhooks/deliveries', label: 'deliveries.title' },
      { to: '/developers/events', label: 'webhookEvents.title' },
    ],
  },
  { to: '/balances', label: 'balances.nav' },
  { to: '/fees', label: 'nav.fees' },
  { to: '/policies', label: 'policies.nav' },
  { to: '/team', label: 'nav.team' },
  { to: '/account', label: 'account.nav' },
];

export const OPS_MENU: MenuEntry[] = [
  { to: '/ops/kyc', label: 'ops.nav.kyc' },
  { to: '/ops/orders', label: 'ops.nav.orders' },
  { to: '/ops/orders/stuck', label: 'ops.nav.stuck' },
  { to: '/ops/approvals', label: 'ops.nav.approvals' },
  { to: '/ops/disputes', label: 'ops.nav.disputes' },
  { to: '/ops/merchants', label: 'ops.nav.merchants' },
  { to: '/ops/treasury', label: 'ops.nav.treasury' },
  { to: '/ops/webhooks', label: 'ops.nav.webhooks' },
  { to: '/ops/audit-log', label: 'ops.nav.audit' },
  { to: '/ops/operators', label: 'ops.nav.operators' },
];
