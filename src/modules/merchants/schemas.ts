import { Type } from 'typebox';
import { Timestamp, Uuid } from '../../http/schemas.ts';

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
