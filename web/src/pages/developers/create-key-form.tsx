/**
 * The form that issues an API key, with an optional expiry, IP allow-list and scopes: the
 * merchant's own (POST /credentials, api-keys-page.tsx) and the back office's for a merchant
 * (POST /admin/merchants/{id}/credentials, ops/merchant-credentials.tsx). The caller's `issue`
 * makes the call; the new secret goes to `onCreated` (the page's SecretModal state) and the
 * mutation strips it from its result, so TanStack Query never keeps it.
 */
import { Button, Card, Checkbox, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { components } from '../../api/schema.ts';
import { READABLE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { fromLocalInput } from './dates.ts';
import { ApiErrorWithFields } from './field-errors.tsx';
import type { ShownSecret } from './secret-modal.tsx';

export type CreateKeyBody = components['schemas']['CreateCredential'];
type Scope = NonNullable<CreateKeyBody['scopes']>[number];

const SCOPES: Scope[] = ['read', 'payments.write', 'receivers.write', 'webhooks.write', 'wallets.sign', 'sandbox.write'];

export interface CreateKeyFormProps {
  issue: (body: CreateKeyBody) => Promise<components['schemas']['IssuedCredential']>;
  /** The list of keys to read again once one is issued. */
  listKey: QueryKey;
  secretTitle: string;
  onCreated: (secret: ShownSecret) => void;
  /** The merchant names its own keys; the back office may leave the name out (the API allows it). */
  labelRequired?: boolean;
  disabled?: boolean;
}

export function CreateKeyForm({ issue, listKey, secretTitle, onCreated, labelRequired = true, disabled = false }: CreateKeyFormProps) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [label, setLabel] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [ips, setIps] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const create = useMutation({
    gcTime: 0,
    mutationFn: async (body: CreateKeyBody) => {
      const { apiSecret, ...credential } = await issue(body);
      // The secret goes to the modal's state only; the mutation's result (kept by TanStack Query) has none.
      onCreated({ title: secretTitle, value: apiSecret, context: <Text size="sm">{t('apiKeys.secretFor', { key: credential.apiKey })}</Text> });
      return credential;
    },
    onSuccess: async () => {
      setLabel('');
      setExpiresAt('');
      setIps('');
      setScopes([]);
      await queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const allowedIps = ips.split(/[\s,]+/).filter(Boolean);
    const expiry = fromLocalInput(expiresAt);
    create.mutate({
      ...(label.trim() ? { label: label.trim() } : {}),
      ...(expiry ? { expiresAt: expiry } : {}),
      ...(allowedIps.length ? { allowedIps } : {}),
      ...(scopes.length ? { scopes: scopes as Scope[] } : {}),
    });
  };
  return (
    <Card withBorder component="section" aria-labelledby="create-key-heading">
      <Title order={2} size="h3" id="create-key-heading" mb="sm">
        {t('apiKeys.create')}
      </Title>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label={t('apiKeys.name')} styles={READABLE} description={t('apiKeys.nameHelp')} required={labelRequired} disabled={disabled} maxLength={100} value={label} onChange={(e) => setLabel(e.currentTarget.value)} />
          <TextInput type="datetime-local" label={t('apiKeys.expiresAt')} styles={READABLE} description={t('apiKeys.expiresAtHelp')} disabled={disabled} value={expiresAt} onChange={(e) => setExpiresAt(e.currentTarget.value)} />
          <Textarea label={t('apiKeys.allowedIps')} styles={READABLE} description={t('apiKeys.allowedIpsHelp')} disabled={disabled} autosize minRows={2} value={ips} onChange={(e) => setIps(e.currentTarget.value)} />
          <Checkbox.Group label={t('apiKeys.scopes')} styles={READABLE} description={t('apiKeys.scopesHelp')} value={scopes} onChange={setScopes}>
            <Group mt="xs">
              {SCOPES.map((scope) => (
                <Checkbox key={scope} value={scope} label={scope} disabled={disabled} />
              ))}
            </Group>
          </Checkbox.Group>
          <ApiErrorWithFields error={create.error} />
          <Group>
            <Button type="submit" loading={create.isPending} disabled={disabled}>
              {t('apiKeys.createButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
