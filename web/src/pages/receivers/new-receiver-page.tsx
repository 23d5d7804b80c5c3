/**
 * A new receiver: POST /receivers with type, document, name, email, phone and, optionally, a
 * managed wallet. The API checks the CPF/CNPJ (check digits) and every field: its
 * VALIDATION_ERROR details are shown at their inputs, anything else above the form. On success,
 * the receiver's page.
 */
import { Anchor, Button, Checkbox, Group, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import { useMay } from '../../api/permissions.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { READABLE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { keys } from '../../api/query-keys.ts';

type PersonType = 'PF' | 'PJ';

export function NewReceiverPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mayWrite = useMay('payments.write');
  const [type, setType] = useState<PersonType>('PF');
  const [document, setDocument] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [managedWallet, setManagedWallet] = useState(false);

  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/receivers', {
          body: { type, document, name, email, ...(phone ? { phone } : {}), ...(managedWallet ? { createManagedWallet: true } : {}) },
        }),
      ),
    onSuccess: async (receiver) => {
      await queryClient.invalidateQueries({ queryKey: keys.receivers.all });
      await navigate({ to: '/receivers/$id', params: { id: receiver.id } });
    },
  });
  const errors = fieldErrors(create.error);
  const otherError = create.error && Object.keys(errors).length === 0 ? create.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <Stack>
      <Anchor component={Link} to="/receivers">
        ← {t('common.back')}
      </Anchor>
      <Title order={1}>{t('receivers.newTitle')}</Title>
      {mayWrite ? null : <Text>{t('receivers.readOnly')}</Text>}
      <Paper withBorder p="md" maw={560}>
        <form onSubmit={submit} aria-labelledby="new-receiver-heading">
          <Stack>
            <Title order={2} size="h3" id="new-receiver-heading">{t('receivers.identity')}</Title>
            {otherError ? <ErrorAlert error={otherError} /> : null}
            <Stack gap={4}>
              <Text size="sm" fw={500} id="person-type-label">{t('receivers.type')}</Text>
              <SegmentedControl
                aria-labelledby="person-type-label"
                value={type}
                onChange={(value) => setType(value as PersonType)}
                data={[
                  { value: 'PF', label: t('receivers.typePF') },
                  { value: 'PJ', label: t('receivers.typePJ') },
                ]}
              />
            </Stack>
            <TextInput
              label={type === 'PF' ? 'CPF' : 'CNPJ'}
              description={t('receivers.documentHint')}
              styles={READABLE}
              value={document}
              onChange={(event) => setDocument(event.currentTarget.value)}
              error={errors.document}
              required
            />
            <TextInput label={t('receivers.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} styles={READABLE} error={errors.name} required />
            <TextInput label={t('receivers.email')} type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} styles={READABLE} error={errors.email} required />
            <TextInput label={t('receivers.phone')} type="tel" value={phone} onChange={(event) => setPhone(event.currentTarget.value)} styles={READABLE} error={errors.phone} />
            <Checkbox
              label={t('receivers.createManagedWallet')}
              checked={managedWallet}
              onChange={(event) => setManagedWallet(event.currentTarget.checked)}
              error={errors.createManagedWallet}
            />
            <Group>
              <Button type="submit" loading={create.isPending} disabled={!mayWrite}>
                {t('receivers.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
