/**
 * Change the password: POST /users/me/password {currentPassword, newPassword}. The API ends every
 * other session of the person (this one stays), so afterwards the sessions list is read again and
 * the page says so. Length rules (12 to 128) are checked here too only to answer sooner: the API
 * is the guard, and its 400 naming body.currentPassword is shown on that field.
 */
import { Alert, Button, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.ts';
import { isApiError } from '../../api/errors.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { SESSIONS_KEY } from './sessions-section.tsx';

/** The API's bounds (src/modules/users/passwords.ts), for the hint and the early check. */
const MIN = 12;
const MAX = 128;

const wrongCurrent = (error: unknown) => isApiError(error) && error.code === 'VALIDATION_ERROR' && error.details !== undefined && 'body.currentPassword' in error.details;

export function PasswordSection() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<'mismatch' | 'length' | null>(null);
  const change = useMutation({
    mutationFn: () => call(api.POST('/users/me/password', { body: { currentPassword, newPassword } })),
    onSuccess: async () => {
      setCurrentPassword('');
      setNewPassword('');
      setConfirmation('');
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const length = [...newPassword].length;
    const found = length < MIN || length > MAX ? 'length' : newPassword !== confirmation ? 'mismatch' : null;
    setProblem(found);
    if (!found) change.mutate();
  };

  const toggle = { visibilityToggleButtonProps: { 'aria-label': t('account.password.showPassword') } };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="account-password">
      <form onSubmit={submit}>
        <Stack gap="sm" maw={420}>
          <Title order={2} id="account-password">
            {t('account.password.title')}
          </Title>
          {change.isSuccess ? (
            <Alert color="green" role="status">
              {t('account.password.done')}
            </Alert>
          ) : null}
          {change.error && !wrongCurrent(change.error) ? <ErrorAlert error={change.error} /> : null}
          <PasswordInput
            label={t('account.password.current')}
            autoComplete="current-password"
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.currentTarget.value)}
            error={wrongCurrent(change.error) ? t('account.password.wrongCurrent') : undefined}
            required
            {...toggle}
          />
          <PasswordInput
            label={t('account.password.new')}
            description={t('account.password.newHint', { min: MIN, max: MAX })}
            // Mantine's dimmed description is below AA contrast on white (axe's color-contrast).
            styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
            autoComplete="new-password"
            value={newPassword}
            onChange={(event) => setNewPassword(event.currentTarget.value)}
            error={problem === 'length' ? t('account.password.length', { min: MIN, max: MAX }) : undefined}
            required
            {...toggle}
          />
          <PasswordInput
            label={t('account.password.confirm')}
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.currentTarget.value)}
            error={problem === 'mismatch' ? t('account.password.mismatch') : undefined}
            required
            {...toggle}
          />
          <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
            {t('account.password.submit')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
