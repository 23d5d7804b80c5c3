import { Type } from 'typebox';
import { StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords.ts';
import { ROLES, ROLE_PERMISSIONS } from './roles.ts';

const PERMISSIONS = [...new Set(Object.values(ROLE_PERMISSIONS).flat())];

// Titled enums: one component each in the OpenAPI document (http/openapi-components.ts).
export const RoleField = Type.Enum([...ROLES], { title: 'UserRole', description: 'OWNER, ADMIN, DEVELOPER or VIEWER: what each may do is the role table (docs/architecture/people-and-sessions.md)' });
export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254, description: 'Unique across the service, compared case-insensitively' });

export const UserSchema = Type.Object(
  {
    id: Uuid(),
    merchantId: Uuid(),
    email: Type.String(),
    role: RoleField,
    totpEnabled: Type.Boolean({ description: 'Whether TOTP two-factor is on (then required at every sign-in)' }),
    createdAt: Timestamp(),
  },
  { title: 'User' },
);

export const SignInBody = StrictObject({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 256 }),
  totp: Type.Optional(Type.String({ pattern: '^[0-9]{6}$', description: 'The current 6-digit code, once TOTP is enrolled (each code signs in once; ignored for an account without TOTP)' })),
}, { title: 'SignIn' });

/** The role table's answer for the person, so a page offers only what the API would allow: the web app keeps no copy of the table. */
const Permissions = Type.Array(Type.Enum(PERMISSIONS, { title: 'UserPermission' }), { description: "What the person's role allows (the role table, docs/architecture/people-and-sessions.md)" });

export const SessionAnswer = Type.Object(
  {
    user: UserSchema,
    csrfToken: Type.String({ description: 'Send as X-CSRF-Token on every cookie-authenticated POST, PUT, PATCH and DELETE' }),
    expiresAt: Timestamp('Absolute end of the session (it also ends after 30 minutes without a request)'),
    totpEnrolmentRequired: Type.Boolean({ description: 'An OWNER or ADMIN without TOTP: the session may only enrol it (POST /users/me/totp)' }),
    permissions: Permissions,
  },
  { title: 'Session' },
);

export const CurrentSessionAnswer = Type.Object({ user: UserSchema, csrfToken: Type.String(), totpEnrolmentRequired: Type.Boolean(), permissions: Permissions }, { title: 'CurrentSession' });

export const SessionSummarySchema = Type.Object(
  {
    id: Uuid(),
    createdAt: Timestamp(),
    lastSeenAt: Timestamp(),
    expiresAt: Timestamp(),
    ip: Type.Union([Type.String(), Type.Null()]),
    userAgent: Type.Union([Type.String(), Type.Null()]),
    current: Type.Boolean({ description: 'The session of this request' }),
  },
  { title: 'SessionSummary' },
);

/** A person by email with a role: a user created with a temporary password, or an invitation (one schema in the document). */
export const CreateUserBody = StrictObject({ email: Email, role: RoleField }, { title: 'PersonWithRole' });
export const UpdateUserBody = StrictObject({ role: RoleField }, { title: 'UpdateUserRoleRequest' });

export const TotpEnrolmentSchema = Type.Object(
  {
    otpauthUri: Type.String({ description: 'otpauth://totp/... for an authenticator app (show as a QR code); shown this once' }),
    secret: Type.String({ description: 'The same secret in base32, for typing in by hand; shown this once' }),
  },
  { title: 'TotpEnrolment' },
);
export const TotpConfirmBody = StrictObject({ code: Type.String({ pattern: '^[0-9]{6}$', description: 'The current 6-digit code' }) }, { title: 'TotpCode' });

/** A password a person chooses: length rules only (docs/architecture/people-and-sessions.md#password-rules); outside them, 400 VALIDATION_ERROR naming the field. */
const NewPassword = (description: string) => Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: `${description}: ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters` });

export const PasswordResetRequestBody = StrictObject({ email: Type.String({ minLength: 1, maxLength: 254 }) }, { title: 'PasswordResetRequest' });
export const PasswordBody = StrictObject({ password: NewPassword('The new password') }, { title: 'NewPassword' });
export const PasswordChangeBody = StrictObject({ currentPassword: Type.String({ minLength: 1, maxLength: 256 }), newPassword: NewPassword('The new password') }, { title: 'ChangePasswordRequest' });
export const TokenParams = Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: "The token of the emailed link (after its '#')" }) });
export const InvitationBody = CreateUserBody;
export const InvitationSchema = Type.Object(
  {
    id: Uuid('Withdraw it with DELETE /users/invitations/{id}'),
    email: Type.String(),
    role: RoleField,
    invitedBy: Type.Union([Uuid(), Type.Null()], { description: 'The user who sent it' }),
    createdAt: Timestamp(),
    expiresAt: Timestamp('When the link stops working'),
  },
  { title: 'Invitation' },
);
