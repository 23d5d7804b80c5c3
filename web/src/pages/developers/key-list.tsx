/**
 * One list of API keys for both apps: the merchant's own (api-keys-page.tsx, GET /credentials) and
 * a merchant's in the back office (ops/merchant-credentials.tsx, GET /admin/merchants/{id}/credentials).
 * Key ids, never a secret: name, id, scopes, IPs, expiry, creation, last use, state, and revoking
 * after a confirmation (the key and its tokens stop at once). The pages pass their calls, the
 * list's query key, what the person may do and what shows above the list (the create form).
 */
import { Badge, Button, Code } from '@mantine/core';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { components } from '../../api/schema.ts';
import { DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { ConfirmModal } from './confirm-modal.tsx';

export type Credential = components['schemas']['Credential'];

function KeyState({ credential }: { credential: Credential }) {
  const { t } = useI18n();
  if (credential.revokedAt) return <Badge color={TONE.bad} variant="filled">{t('apiKeys.revoked', { at: formatDateTime(credential.revokedAt) })}</Badge>;
  if (credential.expiresAt && new Date(credential.expiresAt) <= new Date()) return <Badge color={TONE.neutral} variant="filled">{t('apiKeys.expired')}</Badge>;
  return <Badge color={TONE.ok} variant="filled">{t('apiKeys.active')}</Badge>;
}

export interface KeyListProps {
  caption: string;
  listKey: QueryKey;
  list: () => Promise<Credential[]>;
  revoke: (credentialId: string) => Promise<unknown>;
  /** Whether the person may revoke; without it the merchant's page hides the button, the back office disables it. */
  mayRevoke: boolean;
  withoutPermission: 'hidden' | 'disabled';
  minWidth?: number;
}

export function KeyList({ caption, listKey, list, revoke: revokeCall, mayRevoke, withoutPermission, minWidth = 900 }: KeyListProps) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const credentials = useQuery({ queryKey: listKey, queryFn: list });
  const [revoking, setRevoking] = useState<Credential | null>(null);
  const revoke = useMutation({
    mutationFn: revokeCall,
    onSuccess: async () => {
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
  const none = t('common.none');
  const revokeButton = (credential: Credential): ReactNode =>
    credential.revokedAt || (!mayRevoke && withoutPermission === 'hidden') ? null : (
      <Button size="xs" color={TONE.bad} variant="outline" disabled={!mayRevoke} onClick={() => setRevoking(credential)} aria-label={t('apiKeys.revokeNamed', { name: credential.label ?? credential.apiKey })}>
        {t('apiKeys.revoke')}
      </Button>
    );
  const columns: Column<Credential>[] = [
    { id: 'label', header: t('apiKeys.name'), cell: (credential) => credential.label ?? none },
    { id: 'apiKey', header: t('apiKeys.keyId'), cell: (credential) => <Code>{credential.apiKey}</Code> },
    { id: 'scopes', header: t('apiKeys.scopes'), cell: (credential) => (credential.scopes ? credential.scopes.join(', ') : t('apiKeys.fullAccess')) },
    { id: 'allowedIps', header: t('apiKeys.allowedIps'), cell: (credential) => (credential.allowedIps ? credential.allowedIps.join(', ') : t('apiKeys.anyAddress')) },
    { id: 'expiresAt', header: t('apiKeys.expiresAt'), cell: (credential) => (credential.expiresAt ? formatDateTime(credential.expiresAt) : t('apiKeys.never')) },
    { id: 'createdAt', header: t('apiKeys.createdAt'), cell: (credential) => formatDateTime(credential.createdAt) },
    { id: 'lastUsedAt', header: t('apiKeys.lastUsedAt'), cell: (credential) => (credential.lastUsedAt ? formatDateTime(credential.lastUsedAt) : t('apiKeys.neverUsed')) },
    { id: 'state', header: t('apiKeys.state'), cell: (credential) => <KeyState credential={credential} /> },
    { id: 'actions', header: t('apiKeys.actions'), cell: revokeButton },
  ];

  return (
    <>
      {revoke.error ? <ErrorAlert error={revoke.error} /> : null}
      <ListState query={credentials} isEmpty={(data) => data.length === 0} empty={t('apiKeys.empty')}>
        {(data) => <DataTable caption={caption} columns={columns} rows={data} rowKey={(credential) => credential.id} minWidth={minWidth} />}
      </ListState>
      <ConfirmModal
        opened={revoking !== null}
        title={t('apiKeys.revokeTitle')}
        text={t('apiKeys.revokeText', { name: revoking?.label ?? revoking?.apiKey ?? '' })}
        confirm={t('apiKeys.revoke')}
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
        onClose={() => setRevoking(null)}
      />
    </>
  );
}
