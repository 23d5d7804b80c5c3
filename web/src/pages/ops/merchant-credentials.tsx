/**
 * A merchant's API keys in the back office: the list (GET /admin/merchants/{id}/credentials: key
 * ids, never a secret; developers/key-list.tsx, the merchant's own list too), issuing one (POST …/credentials, the merchant dashboard's form,
 * create-key-form.tsx: the secret shown once in the SecretModal, page state only) and revoking one
 * after a confirmation (DELETE …/credentials/{credentialId}: the key and its tokens stop at once).
 * Both writes need `merchants.manage`; without it they are disabled and the API refuses (403).
 */
import { Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { useOperatorMay } from '../../api/operator-session.ts';
import { opsKeys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { useI18n } from '../../i18n/context.tsx';
import { CreateKeyForm } from '../developers/create-key-form.tsx';
import { KeyList } from '../developers/key-list.tsx';
import { SecretModal, type ShownSecret } from '../developers/secret-modal.tsx';

export function MerchantCredentials({ merchant }: { merchant: Pick<components['schemas']['Merchant'], 'id' | 'name'> }) {
  const { t } = useI18n();
  const may = useOperatorMay('merchants.manage');
  const path = { id: merchant.id };
  const listKey = opsKeys.merchant(merchant.id, 'credentials');
  const [secret, setSecret] = useState<ShownSecret | null>(null);

  return (
    <Stack component="section" aria-labelledby="merchant-credentials-heading">
      <Title order={2} id="merchant-credentials-heading">{t('opsMerchants.credentials')}</Title>
      {!may ? <Text>{t('ops.notAllowed')}</Text> : null}
      <CreateKeyForm
        issue={(body) => call(api.POST('/admin/merchants/{id}/credentials', { params: { path }, body }))}
        listKey={listKey}
        secretTitle={t('opsMerchants.newKeyTitle', { name: merchant.name })}
        onCreated={setSecret}
        labelRequired={false}
        disabled={!may}
      />
      <KeyList
        caption={t('opsMerchants.credentials')}
        listKey={listKey}
        list={() => call(api.GET('/admin/merchants/{id}/credentials', { params: { path } }))}
        revoke={(credentialId) => call(api.DELETE('/admin/merchants/{id}/credentials/{credentialId}', { params: { path: { ...path, credentialId } } }))}
        mayRevoke={may}
        withoutPermission="disabled"
      />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </Stack>
  );
}
