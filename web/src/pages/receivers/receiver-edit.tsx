/**
 * Editing a receiver's contact (PATCH /receivers/{id}): name, email and phone, sending only what
 * changed. The document and person type are immutable (the API refuses them). A new name for an
 * APPROVED receiver sends its KYC back to review: the form says so before saving.
 */
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { READABLE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import type { Receiver } from './labels.tsx';

export function ReceiverEditForm({ receiver, onDone }: { receiver: Receiver; onDone: () => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [name, setName] = useState(receiver.name);
  const [email, setEmail] = useState(receiver.email);
  const [phone, setPhone] = useState(receiver.phone ?? '');
  const changes = {
    ...(name !== receiver.name ? { name } : {}),
    ...(email !== receiver.email ? { email } : {}),
    ...(phone !== (receiver.phone ?? '') && phone !== '' ? { phone } : {}),
  };
  const save = useMutation({
    mutationFn: () => call(api.PATCH('/receivers/{id}', { params: { path: { id: receiver.id } }, body: changes })),
    onSuccess: async (saved) => {
      queryClient.setQueryData(keys.receivers.detail(receiver.id), saved);
      await queryClient.invalidateQueries({ queryKey: keys.receivers.all });
      onDone();
    },
  });
  const errors = fieldErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(changes).length === 0) onDone();
    else save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={t('receivers.edit')}>
      <Stack>
        {save.error && Object.keys(errors).length === 0 ? <ErrorAlert error={save.error} /> : null}
        <TextInput label={t('receivers.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} styles={READABLE} error={errors.name} required />
        {receiver.kycStatus === 'APPROVED' && name !== receiver.name ? <Alert color="yellow">{t('receivers.renameReviews')}</Alert> : null}
        <TextInput label={t('receivers.email')} type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} styles={READABLE} error={errors.email} required />
        <TextInput label={t('receivers.phone')} type="tel" value={phone} onChange={(event) => setPhone(event.currentTarget.value)} styles={READABLE} error={errors.phone} />
        <Group>
          <Button type="submit" loading={save.isPending}>{t('receivers.save')}</Button>
          <Button variant="default" onClick={onDone}>{t('receivers.cancel')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
