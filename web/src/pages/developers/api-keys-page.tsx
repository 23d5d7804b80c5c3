/**
 * The merchant's API keys: GET /credentials (never a secret), POST /credentials with a name and
 * optional expiry, IP allow-list and scopes (create-key-form.tsx, shared with the back office),
 * and DELETE /credentials/{id} after a confirmation.
 * The new key's secret is shown once (SecretModal): the mutation strips it from its result before
 * TanStack Query keeps anything, so it lives only in this page's state until the modal closes.
 * Creating and revoking need OWNER or ADMIN with TOTP (the API decides; the buttons follow the role).
 */
import { Badge, Button, Code, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { sessionQuery } from '../../api/session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { TONE } from '../../components/readable.ts';
import { formatDateTime } from '../../i18n/format.ts';
import { ConfirmModal } from './confirm-modal.tsx';
import { CreateKeyForm } from './create-key-form.tsx';
import { SecretModal, type ShownSecret } from './secret-modal.tsx';

type Credential = components['schemas']['Credential'];
const CREDENTIALS_KEY = ['credentials'] as const;

function KeyState({ credential }: { credential: Credential }) {
  const { t } = useI18n();
  if (credential.revokedAt) return <Badge color={TONE.bad} variant="filled">{t('apiKeys.revoked', { at: formatDateTime(credential.revokedAt) })}</Badge>;
  if (credential.expiresAt && new Date(credential.expiresAt) <= new Date()) return <Badge color={TONE.neutral} variant="filled">{t('apiKeys.expired')}</Badge>;
  return <Badge color={TONE.ok} variant="filled">{t('apiKeys.active')}</Badge>;
}

export function ApiKeysPage() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery);
  const credentials = useQuery({ queryKey: CREDENTIALS_KEY, queryFn: () => call(api.GET('/credentials')) });
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [revoking, setRevoking] = useState<Credential | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) => call(api.DELETE('/credentials/{credentialId}', { params: { path: { credentialId: id } } })),
    onSuccess: async () => {
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: CREDENTIALS_KEY });
    },
  });
  const role = session.data?.user.role;
  const canManage = role === 'OWNER' || role === 'ADMIN';
  const none = t('common.none');

  return (
    <Stack>
      <Title order={1}>{t('apiKeys.title')}</Title>
      <Text>{t('apiKeys.intro')}</Text>
      {canManage ? (
        session.data?.user.totpEnabled ? (
          <CreateKeyForm issue={(body) => call(api.POST('/credentials', { body }))} listKey={CREDENTIALS_KEY} secretTitle={t('apiKeys.secretTitle')} onCreated={setSecret} />
        ) : (
          <Text>{t('apiKeys.totpRequired')}</Text>
        )
      ) : session.data ? (
        <Text>{t('apiKeys.roleRequired')}</Text>
      ) : null}
      {revoke.error ? <ErrorAlert error={revoke.error} /> : null}
      {credentials.error ? <ErrorAlert error={credentials.error} /> : null}
      {credentials.isPending ? <Loading /> : null}
      {credentials.data ? (
        credentials.data.length === 0 ? (
          <Text>{t('apiKeys.empty')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table striped>
              <Table.Caption c="var(--mantine-color-text)">{t('apiKeys.caption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('apiKeys.name')}</Table.Th>
                  <Table.Th scope="col">{t('apiKeys.keyId')}</Table.Th>
                  <Table.Th scope="col">{t('apiKeys.scopes')}</Table.Th>
                  <Table.Th scope="col">{t('apiKeys.allowedIps')}</Table.Th>
                  <Table.Th scope="col">{t('apiKeys.expiresAt')}</Table.Th>
                  <Table.Th scope="col">{t('apiKeys.createdAt')}</Table.Th>
                  <Table.Th scope="col">{t('apiKeys.lastUsedAt')}</Table.Th>
                  <Table.Th scope="col">{t('apiKeys.state')}</Table.Th>
                  <Table.Th scope="col">{t('apiKeys.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {credentials.data.map((credential) => (
                  <Table.Tr key={credential.id}>
                    <Table.Td>{credential.label ?? none}</Table.Td>
                    <Table.Td>
                      <Code>{credential.apiKey}</Code>
                    </Table.Td>
                    <Table.Td>{credential.scopes ? credential.scopes.join(', ') : t('apiKeys.fullAccess')}</Table.Td>
                    <Table.Td>{credential.allowedIps ? credential.allowedIps.join(', ') : t('apiKeys.anyAddress')}</Table.Td>
                    <Table.Td>{credential.expiresAt ? formatDateTime(credential.expiresAt) : t('apiKeys.never')}</Table.Td>
                    <Table.Td>{formatDateTime(credential.createdAt)}</Table.Td>
                    <Table.Td>{credential.lastUsedAt ? formatDateTime(credential.lastUsedAt) : t('apiKeys.neverUsed')}</Table.Td>
                    <Table.Td>
                      <KeyState credential={credential} />
                    </Table.Td>
                    <Table.Td>
                      {canManage && !credential.revokedAt ? (
                        <Button size="xs" color={TONE.bad} variant="outline" onClick={() => setRevoking(credential)} aria-label={t('apiKeys.revokeNamed', { name: credential.label ?? credential.apiKey })}>
                          {t('apiKeys.revoke')}
                        </Button>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )
      ) : null}
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
      <ConfirmModal
        opened={revoking !== null}
        title={t('apiKeys.revokeTitle')}
        text={t('apiKeys.revokeText', { name: revoking?.label ?? revoking?.apiKey ?? '' })}
        confirm={t('apiKeys.revoke')}
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
        onClose={() => setRevoking(null)}
      />
    </Stack>
  );
}
