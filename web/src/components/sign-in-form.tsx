/**
 * The sign-in form of both sides (merchant dashboard, back office): email, password and the
 * 6-digit code in one step. The code field is always there, optional for a person without TOTP:
 * the API answers every failure with the same 401 (it never says a password was right but the
 * code missing), so the form cannot ask for the code afterwards. The page says which API is
 * called (`signIn`) and where to go next.
 */
import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../api/errors.ts';
import { useI18n } from '../i18n/context.tsx';
import { ErrorAlert } from './error-alert.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { READABLE } from './readable.ts';

export interface SignInFormProps {
  title: string;
  signedOut: boolean;
  signIn: (body: { email: string; password: string; totp?: string }) => Promise<{ totpEnrolmentRequired: boolean }>;
  onSignedIn: (totpEnrolmentRequired: boolean) => Promise<unknown>;
}

export function SignInForm({ title, signedOut, signIn, onSignedIn }: SignInFormProps) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const session = await signIn({ email, password, ...(totp ? { totp } : {}) });
      await onSignedIn(session.totpEnrolmentRequired);
    } catch (err) {
      // A code is spent by any attempt that reaches it: ask for the next one.
      setTotp('');
      setError(err);
    } finally {
      setPending(false);
    }
  };

  const failure = (() => {
    if (!error) return null;
    if (isApiError(error) && error.status === 401) return <Alert color="red" role="alert">{t('signIn.failed')}</Alert>;
    if (isApiError(error) && error.code === 'RATE_LIMITED' && typeof error.details?.retryAfterSeconds === 'number') {
      return <Alert color="red" role="alert">{t('signIn.locked', { seconds: error.details.retryAfterSeconds })}</Alert>;
    }
    return <ErrorAlert error={error} />;
  })();

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder p="xl" w={400} maw="100%">
        <form onSubmit={submit} noValidate={false}>
          <Stack>
            <Title order={1}>{title}</Title>
            {signedOut ? <Alert color="blue">{t('signedOut.message')}</Alert> : null}
            {failure}
            <TextInput label={t('signIn.email')} type="email" autoComplete="username" value={email} onChange={(event) => setEmail(event.currentTarget.value)} required />
            <PasswordInput
              label={t('signIn.password')}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              visibilityToggleButtonProps={{ 'aria-label': t('signIn.showPassword') }}
              required
            />
            <TextInput
              label={t('signIn.totpCode')}
              description={t('signIn.totpHint')}
              styles={READABLE}
              value={totp}
              onChange={(event) => setTotp(event.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
            />
            <Button type="submit" loading={pending}>
              {t('signIn.submit')}
            </Button>
            <LanguageSwitch />
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
