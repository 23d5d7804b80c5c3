import { Type } from 'typebox';
import { StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';
import { Email } from '../users/schemas.ts';
import { OPERATOR_ROLES, OPERATOR_ROLE_PERMISSIONS } from './roles.ts';
import { SERVICE_ACCOUNT_STATUSES } from './service-accounts.ts';

const permissions = [...new Set(Object.values(OPERATOR_ROLE_PERMISSIONS).flat())];

// Titled enums: one component each in the OpenAPI document (http/openapi-components.ts).
export const OperatorRoleField = Type.Enum([...OPERATOR_ROLES], { title: 'OperatorRole', description: 'OPERATIONS, COMPLIANCE, FINANCE, ADMIN or VIEWER: what each may do is the operator role table (docs/architecture/back-office.md)' });

export const OperatorSchema = Type.Object(
  {
    id: Uuid(),
    email: Type.String(),
    role: OperatorRoleField,
    totpEnabled: Type.Boolean({ description: 'TOTP is required of every operator before anything but enrolling it' }),
    disabled: Type.Boolean({ description: 'A disabled operator cannot sign in' }),
    createdAt: Timestamp(),
  },
  { title: 'Operator' },
);

export const OperatorSessionAnswer = Type.Object(
  {
    operator: OperatorSchema,
    csrfToken: Type.String({ description: 'Send as X-CSRF-Token on every cookie-authenticated write' }),
    totpEnrolmentRequired: Type.Boolean({ description: 'No TOTP yet: the session may only enrol it (POST /admin/operators/me/totp)' }),
    permissions: Type.Array(Type.Enum(permissions), { description: "What the operator's role allows (the role table), so a page offers only those actions" }),
  },
  { title: 'OperatorSession' },
);

export const CreateOperatorBody = StrictObject({ email: Email, role: OperatorRoleField }, { title: 'NewOperator' });
export const OperatorInvitationSchema = Type.Object(
  {
    id: Uuid(),
    email: Type.String(),
    role: OperatorRoleField,
    invitedBy: Type.String({ description: 'The audit actor who invited: an operator (`operator:<id>`) or the admin token during the bootstrap' }),
    approvalId: Type.Union([Uuid(), Type.Null()], { description: 'The approved OPERATOR_CREATE proposal; null during the bootstrap' }),
    createdAt: Timestamp(),
    expiresAt: Timestamp('72 hours after: the link then answers 410 LINK_INVALID'),
  },
  { title: 'OperatorInvitation' },
);

const SERVICE_ACCOUNT_ROLES = OPERATOR_ROLES.filter((role) => role !== 'ADMIN');
/** The operator roles but ADMIN: another enum than OperatorRole, so another name. */
const ServiceAccountRole = Type.Enum(SERVICE_ACCOUNT_ROLES, { title: 'ServiceAccountRole', description: 'What it may do, as an operator of this role would; never ADMIN' });
export const ServiceAccountSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    role: ServiceAccountRole,
    status: Type.Enum([...SERVICE_ACCOUNT_STATUSES], {
      description: 'PENDING until another operator approves its SERVICE_ACCOUNT_ACTIVATE proposal (its token is refused with 403 SERVICE_ACCOUNT_PENDING), ACTIVE from then, REVOKED once revoked (401)',
    }),
    createdBy: Type.String({ description: 'The ADMIN operator who created it (`operator:<id>`) and alone received its token; never the one who approves it' }),
    createdAt: Timestamp(),
    activatedAt: Type.Union([Timestamp(), Type.Null()], { description: 'When a second operator approved it; null while PENDING' }),
    approvalId: Type.Union([Uuid(), Type.Null()], { description: 'The approved SERVICE_ACCOUNT_ACTIVATE proposal; null while PENDING' }),
    revokedAt: Type.Union([Timestamp(), Type.Null()], { description: 'Set once revoked: its token is refused from then on' }),
  },
  { title: 'ServiceAccount' },
);
export const CreateServiceAccountBody = StrictObject(
  { name: Type.String({ minLength: 3, maxLength: 100, pattern: '^[a-z0-9][a-z0-9._-]*$', description: 'Unique, lower case: what the audit log shows it as' }), role: ServiceAccountRole },
  { title: 'NewServiceAccount' },
);
export const CreatedServiceAccountSchema = Type.Object(
  { serviceAccount: ServiceAccountSchema, token: Type.String({ description: 'Shown this once, to its creator alone: `Authorization: Bearer <token>`, refused until another operator approves the account. Only its hash is kept' }) },
  { title: 'CreatedServiceAccount' },
);
export const UpdateOperatorBody = Type.Object(
  { role: Type.Optional(OperatorRoleField), disabled: Type.Optional(Type.Boolean({ description: 'true disables the operator (their sessions end at once); false enables them again' })) },
  { additionalProperties: false, minProperties: 1, title: 'OperatorChange' },
);
