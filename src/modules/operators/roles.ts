/**
 * What each operator role may do: the one table (docs/architecture/back-office.md repeats it), and
 * which permission each back-office write needs. Operators are the platform's people, apart from
 * merchants' users (src/modules/users/roles.ts): a merchant's OWNER is nobody here.
 */
export const OPERATOR_ROLES = ['OPERATIONS', 'COMPLIANCE', 'FINANCE', 'ADMIN', 'VIEWER'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export type OperatorPermission =
  /** Every GET of the back office. */
  | 'read'
  /** KYC decisions, receiver status (suspend, block, reactivate) and merchants' payer and wallet ownership policies. */
  | 'kyc.review'
  /** Stuck orders: retry a step, mark failed, propose and approve refunds. */
  | 'orders.operate'
  /** Create, disable and enable merchants (enabling through four-eyes), their credentials and destination policy. */
  | 'merchants.manage'
  /** Platform fee tiers (through four-eyes). */
  | 'fees.manage'
  /** Treasury fundings and settlement runs. */
  | 'treasury.manage'
  /** Invite operators (alone during the bootstrap, then through four-eyes), lower or raise their roles, disable them; service accounts. */
  | 'operators.manage'
  /**
   * Bulk exports of personal data (the operations register's report, the audit log's file): a
   * file leaves the platform with every client's CPF, name, payer and wallet, so it is a
   * compliance act, not a read; every export is recorded in the audit log (issue 38 item 5).
   */
  | 'reports.export';

export const OPERATOR_ROLE_PERMISSIONS: Readonly<Record<OperatorRole, readonly OperatorPermission[]>> = {
  OPERATIONS: ['read', 'orders.operate', 'merchants.manage'],
  COMPLIANCE: ['read', 'kyc.review', 'reports.export'],
  FINANCE: ['read', 'fees.manage', 'treasury.manage', 'orders.operate'],
  ADMIN: ['read', 'kyc.review', 'orders.operate', 'merchants.manage', 'fees.manage', 'treasury.manage', 'operators.manage', 'reports.export'],
  VIEWER: ['read'],
};

export const operatorCan = (role: OperatorRole, permission: OperatorPermission): boolean => OPERATOR_ROLE_PERMISSIONS[role].includes(permission);

/**
 * What a back-office write needs, by `METHOD route`:
 * - a permission;
 * - `four-eyes`: it moves money or changes risk, so an operator's session may only propose it
 *   (POST /admin/approvals) for another to approve; the admin token only before any operator
 *   exists (operators/guard.ts), a service account never;
 * - `self`: the route checks its own rule (sign-out, TOTP enrolment, approvals per action).
 * A write missing here is refused to every operator (a test lists the OpenAPI document's routes).
 */
export const WRITE_PERMISSIONS: Readonly<Record<string, OperatorPermission | 'four-eyes' | 'self'>> = {
  'POST /api/v1/admin/merchants': 'merchants.manage',
  'POST /api/v1/admin/merchants/:id/disable': 'merchants.manage',
  'POST /api/v1/admin/merchants/:id/enable': 'four-eyes',
  'POST /api/v1/admin/merchants/:id/credentials': 'merchants.manage',
  'DELETE /api/v1/admin/merchants/:id/credentials/:credentialId': 'merchants.manage',
  'PUT /api/v1/admin/merchants/:id/destination-policy': 'merchants.manage',
  'PUT /api/v1/admin/merchants/:id/policies': 'kyc.review',
  'POST /api/v1/admin/receivers/:id/kyc/start-review': 'kyc.review',
  'POST /api/v1/admin/receivers/:id/kyc/approve': 'kyc.review',
  'POST /api/v1/admin/receivers/:id/kyc/reject': 'kyc.review',
  'POST /api/v1/admin/receivers/:id/suspend': 'kyc.review',
  'POST /api/v1/admin/receivers/:id/block': 'kyc.review',
  'POST /api/v1/admin/receivers/:id/reactivate': 'kyc.review',
  'PUT /api/v1/admin/platform-fee-tiers/:orderType': 'four-eyes',
  'POST /api/v1/admin/settlements/run': 'treasury.manage',
  'POST /api/v1/admin/treasury/fundings': 'treasury.manage',
  'POST /api/v1/admin/orders/:id/retry-step': 'orders.operate',
  'POST /api/v1/admin/orders/:id/mark-failed': 'orders.operate',
  'POST /api/v1/admin/operators': 'operators.manage',
  'PATCH /api/v1/admin/operators/:id': 'operators.manage',
  'POST /api/v1/admin/service-accounts': 'operators.manage',
  'DELETE /api/v1/admin/service-accounts/:id': 'operators.manage',
  'POST /api/v1/admin/approvals': 'self',
  // A four-eyes proposal of SETTLEMENT_PIX_KEY: the route checks treasury.manage, as proposing does.
  'POST /api/v1/admin/merchants/:id/settlement-pix-key': 'self',
  'POST /api/v1/admin/approvals/:id/approve': 'self',
  'POST /api/v1/admin/approvals/:id/reject': 'self',
  'DELETE /api/v1/admin/auth/sessions/current': 'self',
  'POST /api/v1/admin/operators/me/totp': 'self',
  'POST /api/v1/admin/operators/me/totp/confirm': 'self',
};

/**
 * The reads that need more than `read`, by `METHOD route`: the bulk exports of personal data.
 * Every other GET of the back office needs `read`.
 */
export const READ_PERMISSIONS: Readonly<Record<string, OperatorPermission>> = {
  'GET /api/v1/admin/reports/operations': 'reports.export',
  'GET /api/v1/admin/audit-log/export': 'reports.export',
};

/** Routes an operator without TOTP may use: to enrol it, and to see or end their session. */
export const ENROLMENT_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/v1/admin/auth/sessions/current',
  'DELETE /api/v1/admin/auth/sessions/current',
  'POST /api/v1/admin/operators/me/totp',
  'POST /api/v1/admin/operators/me/totp/confirm',
]);

export function requiredPermission(method: string, routeUrl: string): OperatorPermission | 'four-eyes' | 'self' | undefined {
  if (method === 'GET' || method === 'HEAD') return READ_PERMISSIONS[`GET ${routeUrl}`] ?? 'read';
  if (method === 'OPTIONS') return 'read';
  return WRITE_PERMISSIONS[`${method} ${routeUrl}`];
}

/**
 * A raise gives the operator a permission their role did not have (roles are not a ladder:
 * OPERATIONS to FINANCE gains fees.manage). It takes two people once the bootstrap is over; a
 * change to a role within the current one's permissions is a lowering, one ADMIN's act.
 */
export const isRaise = (from: OperatorRole, to: OperatorRole): boolean => OPERATOR_ROLE_PERMISSIONS[to].some((permission) => !operatorCan(from, permission));
