import { Type } from 'typebox';
import { StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';

export const MerchantSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('DISABLED')], {
      description: 'DISABLED merchants are refused (403) on every authenticated route',
    }),
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

export const CreateCredentialBody = StrictObject({
  label: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A name for the key, shown in the list (e.g. "production server")' })),
});
