import { Type } from 'typebox';
import { ActivityStatus, StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';
import { MAX_ALLOWED_IPS } from './ip-allow-list.ts';
import { SCOPES } from './scopes.ts';

const SCOPE_HELP =
  '`read`: every GET. `payments.write`: quotes, payin, payout, fee tiers. `receivers.write`: create and change receivers, their KYC and limits. `webhooks.write`: webhook endpoints, tests, recovery and redelivery. `wallets.sign`: managed-wallet signing (merchant and receivers). `sandbox.write`: the sandbox drivers.';

/** Titled: one component of the OpenAPI document, which every credential and body refers to (http/openapi-components.ts). */
function ScopeSchema() {
  const [read, payments, receivers, webhooks, wallets, sandbox] = SCOPES;
  return Type.Union([Type.Literal(read), Type.Literal(payments), Type.Literal(receivers), Type.Literal(webhooks), Type.Literal(wallets), Type.Literal(sandbox)], { title: 'CredentialScope', description: SCOPE_HELP });
}

export const MerchantSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    status: ActivityStatus('DISABLED merchants are refused (403) on every authenticated route'),
    createdAt: Timestamp(),
  },
  { $id: 'Merchant', title: 'Merchant' },
);

export const CredentialSchema = Type.Object(
  {
    id: Uuid(),
    apiKey: Type.String({ description: 'Public key id, sent as x-api-key', examples: ['mk_0123456789abcdef0123456789abcdef'] }),
    label: Type.Union([Type.String(), Type.Null()], { description: "The merchant's own name for the key (POST /credentials); null when none was given" }),
    createdAt: Timestamp(),
    revokedAt: Type.Union([Timestamp(), Type.Null()]),
    expiresAt: Type.Union([Timestamp(), Type.Null()], { description: 'After it the key is refused 401 UNAUTHORIZED, as an unknown key; null never expires' }),
    allowedIps: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'Addresses and CIDR ranges the key may be used from (elsewhere 403 FORBIDDEN, `details.reason` IP_NOT_ALLOWED); null allows any',
    }),
    scopes: Type.Union([Type.Array(ScopeSchema()), Type.Null()], { description: 'What the key may do (see CreateCredential); null is full access' }),
    lastUsedAt: Type.Union([Timestamp(), Type.Null()], { description: 'When the key (or a bearer token from it) last authenticated a request, up to a minute behind; null if never' }),
  },
  { title: 'Credential' },
);

export const IssuedCredentialSchema = Type.Object(
  {
    ...CredentialSchema.properties,
    apiSecret: Type.String({ description: 'Sent as x-api-secret. Shown only in this response; store it now.' }),
  },
  { title: 'IssuedCredential' },
);

/** The restrictions a key may be created with (POST /credentials and the operators' POST /admin/merchants/{id}/credentials). */
const CREDENTIAL_OPTIONS = {
  label: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A name for the key, shown in the list (e.g. "production server")' })),
  expiresAt: Type.Optional(
    Timestamp('When the key stops working: in the future, at most 2 years ahead (else 400 VALIDATION_ERROR). After it the key answers 401 UNAUTHORIZED, like an unknown key. Omitted: never.'),
  ),
  allowedIps: Type.Optional(
    Type.Array(Type.String({ minLength: 2, maxLength: 64 }), {
      minItems: 1,
      maxItems: MAX_ALLOWED_IPS,
      description: `IPv4 and IPv6 addresses and CIDR ranges (e.g. "203.0.113.7", "10.0.0.0/8", "2001:db8::/32"), at most ${MAX_ALLOWED_IPS}. A request from elsewhere is 403 FORBIDDEN with \`details.reason\` IP_NOT_ALLOWED. The address is the connection's peer, or the X-Forwarded-For hop TRUST_PROXY trusts. Omitted: any address.`,
    }),
  ),
  scopes: Type.Optional(
    Type.Array(ScopeSchema(), {
      minItems: 1,
      maxItems: SCOPES.length,
      uniqueItems: true,
      description: `What the key may do; a request outside them is 403 FORBIDDEN with \`details.reason\` SCOPE_REQUIRED. ${SCOPE_HELP} Omitted: full access. A person may only give scopes their role allows (else 403 ROLE_NOT_ALLOWED).`,
    }),
  ),
};

export const CreateCredentialBody = StrictObject(CREDENTIAL_OPTIONS, { title: 'CreateCredential' });
