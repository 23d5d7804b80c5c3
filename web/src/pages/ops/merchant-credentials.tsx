/**
 * A merchant's API keys in the back office: the list (GET /admin/merchants/{id}/credentials: key
 * ids, never a secret), issuing one (POST …/credentials, the merchant dashboard's form,
 * create-key-form.tsx: the secret shown once in the SecretModal, page state only) and revoking one
 * after a confirmation (DELETE …/credentials/{credentialId}: the key and its tokens stop at once).
 * Both writes need `merchants.manage`; without it they are disabled and the API refuses (403).
 */
import { Button, Code, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { useOperatorMay } from '../../api/operator-session.ts';
import { OPS_KEY } from '../../api/query-client.ts';
import type { components } from '../../api/schema.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { ConfirmModal } from '../developers/confirm-modal.tsx';
import { CreateKeyForm } from '../developers/create-key-form.tsx';
import { SecretModal, type ShownSecret } from '../developers/secret-modal.tsx';

type Credential = components['schemas']['Credential'];

export function MerchantCredentials({ merchant }: { merchant: Pick<components['schemas']['Merchant'], 'id' | 'name'> }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const may = useOperatorMay('merchants.manage');
  const path = { id: merchant.id };
  const listKey = [OPS_KEY, 'merchant', merchant.id, 'credentials'];
  const credentials = useQuery({ queryKey: listKey, queryFn: () => call(api.GET('/admin/merchants/{id}/credentials', { params: { path } })) });
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [revoking, setRevoking] = useState<Credential | null>(null);
  const revoke = useMutation({
    mutationFn: (credentialId: string) => call(api.DELETE('/admin/merchants/{id}/credentials/{credentialId}', { params: { path: { ...path, credentialId } } })),
    onSuccess: async () => {
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
  const none = t('common.none');
  const data = credentials.data;

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
      {credentials.error ? <ErrorAlert error={credentials.error} /> : null}
      {revoke.error ? <ErrorAlert error={revoke.error} /> : null}
      {credentials.isPending ? <Loading /> : null}
      {data && data.length === 0 ? <Text>{t('opsMerchants.none')}</Text> : null}
      {data && data.length > 0 ? (
        <Table.ScrollContainer minWidth={800}>
          <Table striped aria-labelledby="merchant-credentials-heading">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('opsMerchants.apiKeyId')}</Table.Th>
                <Table.Th scope="col">{t('opsMerchants.label')}</Table.Th>
                <Table.Th scope="col">{t('opsMerchants.createdAt')}</Table.Th>
                <Table.Th scope="col">{t('opsMerchants.lastUsed')}</Table.Th>
                <Table.Th scope="col">{t('opsMerchants.revoked')}</Table.Th>
                <Table.Th scope="col">{t('apiKeys.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((credential) => (
                <Table.Tr key={credential.id}>
                  <Table.Td><Code>{credential.apiKey}</Code></Table.Td>
                  <Table.Td>{credential.label ?? none}</Table.Td>
                  <Table.Td>{formatDateTime(credential.createdAt)}</Table.Td>
                  <Table.Td>{credential.lastUsedAt ? formatDateTime(credential.lastUsedAt) : none}</Table.Td>
                  <Table.Td>{credential.revokedAt ? formatDateTime(credential.revokedAt) : none}</Table.Td>
                  <Table.Td>
                    {credential.revokedAt ? null : (
                      <Button size="xs" color={TONE.bad} variant="outline" disabled={!may} onClick={() => setRevoking(credential)} aria-label={t('apiKeys.revokeNamed', { name: credential.label ?? credential.apiKey })}>
                        {t('apiKeys.revoke')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
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
