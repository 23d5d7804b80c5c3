/**
 * The merchant's API keys: GET /credentials (never a secret), POST /credentials with a name and
 * optional expiry, IP allow-list and scopes (create-key-form.tsx, shared with the back office),
 * and DELETE /credentials/{id} after a confirmation (the list is key-list.tsx, the back office's too).
 * The new key's secret is shown once (SecretModal): the mutation strips it from its result before
 * TanStack Query keeps anything, so it lives only in this page's state until the modal closes.
 * Creating and revoking need `credentials.manage` with TOTP (the API decides; the buttons follow
 * the session's permissions).
 */
import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { useMay } from '../../api/permissions.ts';
import { keys } from '../../api/query-keys.ts';
import { sessionQuery } from '../../api/session.ts';
import { useI18n } from '../../i18n/context.tsx';
import { CreateKeyForm } from './create-key-form.tsx';
import { KeyList } from './key-list.tsx';
import { SecretModal, type ShownSecret } from './secret-modal.tsx';

export function ApiKeysPage() {
  const { t } = useI18n();
  const session = useQuery(sessionQuery);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const canManage = useMay('credentials.manage');

  return (
    <Stack>
      <Title order={1}>{t('apiKeys.title')}</Title>
      <Text>{t('apiKeys.intro')}</Text>
      {canManage ? (
        session.data?.user.totpEnabled ? (
          <CreateKeyForm issue={(body) => call(api.POST('/credentials', { body }))} listKey={keys.credentials} secretTitle={t('apiKeys.secretTitle')} onCreated={setSecret} />
        ) : (
          <Text>{t('apiKeys.totpRequired')}</Text>
        )
      ) : session.data ? (
        <Text>{t('apiKeys.roleRequired')}</Text>
      ) : null}
      <KeyList
        caption={t('apiKeys.caption')}
        listKey={keys.credentials}
        list={() => call(api.GET('/credentials'))}
        revoke={(credentialId) => call(api.DELETE('/credentials/{credentialId}', { params: { path: { credentialId } } }))}
        mayRevoke={canManage}
        withoutPermission="hidden"
      />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </Stack>
  );
}
