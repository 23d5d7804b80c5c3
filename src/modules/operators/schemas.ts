import { Type } from 'typebox';
import { StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';
import { Email } from '../users/schemas.ts';
import { OPERATOR_ROLES, OPERATOR_ROLE_PERMISSIONS } from './roles.ts';

const permissions = [...new Set(Object.values(OPERATOR_ROLE_PERMISSIONS).flat())];

export const OperatorRoleField = Type.Enum([...OPERATOR_ROLES], { description: 'OPERATIONS, COMPLIANCE, FINANCE, ADMIN or VIEWER: what each may do is the operator role table (docs/architecture/back-office.md)' });

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
export const CreatedOperatorSchema = Type.Object(
  { operator: OperatorSchema, temporaryPassword: Type.String({ description: 'Shown this once: hand it to the operator, who signs in with it and enrols TOTP' }) },
  { title: 'CreatedOperator' },
);
export const UpdateOperatorBody = Type.Object(
  { role: Type.Optional(OperatorRoleField), disabled: Type.Optional(Type.Boolean({ description: 'true disables the operator (their sessions end at once); false enables them again' })) },
  { additionalProperties: false, minProperties: 1, title: 'OperatorChange' },
);
