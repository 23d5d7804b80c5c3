/**
 * The secrets sealed under WEBHOOK_SECRET_KEY and API_SECRET_PEPPER, and their previous-version
 * slots (docs/architecture/keys.md "Rotating the secret keys"): the key rings the services seal
 * and open with, and every column `npm run admin -- rotate-secrets` re-seals. A new kind of value
 * sealed under either key joins the list here, or a rotation would leave it to the previous key.
 */
import { createRotatingBox, type MasterKeys } from './lib/rotating-box.ts';
import { createSecretHasher } from './modules/merchants/credentials.ts';
import { TOTP_SECRETS_PURPOSE } from './modules/users/totp.ts';
import { WEBHOOK_SECRETS_PURPOSE } from './modules/webhooks/secrets.ts';
import { IDEMPOTENCY_ANSWERS_PURPOSE } from './platform/idempotency/store.ts';
import type { SealedColumn } from './platform/secret-rotation.ts';
import type { RuntimeConfig } from './runtime-config.ts';

export function secretKeysOf(config: Pick<RuntimeConfig, 'apiSecretPepper' | 'apiSecretPepperPrevious' | 'webhookSecretKey' | 'webhookSecretKeyPrevious'>): {
  apiSecretPepper: MasterKeys;
  webhookSecretKey: MasterKeys;
} {
  return {
    apiSecretPepper: { current: config.apiSecretPepper, previous: config.apiSecretPepperPrevious },
    webhookSecretKey: { current: config.webhookSecretKey, previous: config.webhookSecretKeyPrevious },
  };
}

/** A column of values AES-GCM-sealed by a rotating box under one purpose, bound to `associatedData(row)`. */
function boxColumn(keys: MasterKeys, spec: Omit<SealedColumn, 'reseal' | 'keyVariable'> & { purpose: string; associatedData: (row: Readonly<Record<string, unknown>>) => string }): SealedColumn {
  const box = createRotatingBox(keys, spec.purpose);
  return {
    name: spec.name,
    table: spec.table,
    keyColumns: spec.keyColumns,
    column: spec.column,
    ...(spec.readColumns ? { readColumns: spec.readColumns } : {}),
    keyVariable: 'WEBHOOK_SECRET_KEY',
    reseal(value, row) {
      const opened = box.openWithVersion(value, spec.associatedData(row));
      return opened.current ? undefined : box.seal(opened.plaintext, spec.associatedData(row));
    },
  };
}

export function sealedSecretColumns(config: Parameters<typeof secretKeysOf>[0]): SealedColumn[] {
  const keys = secretKeysOf(config);
  const hasher = createSecretHasher(keys.apiSecretPepper);
  const byId = (row: Readonly<Record<string, unknown>>) => String(row.id);
  return [
    {
      name: 'apiCredentials',
      table: 'api_credentials',
      keyColumns: ['id'],
      column: 'secret_hash',
      readColumns: ['key_id'],
      keyVariable: 'API_SECRET_PEPPER',
      reseal: (value, row) => hasher.reseal(String(row.key_id), value),
    },
    boxColumn(keys.webhookSecretKey, { name: 'webhookSecrets', table: 'webhook_endpoint_secrets', keyColumns: ['id'], column: 'secret_ciphertext', readColumns: ['endpoint_id'], purpose: WEBHOOK_SECRETS_PURPOSE, associatedData: (row) => String(row.endpoint_id) }),
    boxColumn(keys.webhookSecretKey, { name: 'userTotpSecrets', table: 'users', keyColumns: ['id'], column: 'totp_secret_sealed', purpose: TOTP_SECRETS_PURPOSE, associatedData: byId }),
    boxColumn(keys.webhookSecretKey, { name: 'operatorTotpSecrets', table: 'operators', keyColumns: ['id'], column: 'totp_secret_sealed', purpose: TOTP_SECRETS_PURPOSE, associatedData: byId }),
    boxColumn(keys.webhookSecretKey, {
      name: 'idempotentAnswers',
      table: 'idempotency_keys',
      keyColumns: ['merchant_id', 'key'],
      column: 'response_body',
      purpose: IDEMPOTENCY_ANSWERS_PURPOSE,
      associatedData: (row) => `${String(row.merchant_id)}:${String(row.key)}`,
    }),
  ];
}
