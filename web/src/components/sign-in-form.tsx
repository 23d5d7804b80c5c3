/**
 * The sign-in form of both sides (merchant dashboard, back office): email and password; when the
 * API answers 401 with `details.totpRequired`, a second step asks for the 6-digit code and signs
 * in again with it. The page says which API is called (`signIn`) and where to go next.
 */
import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../api/errors.ts';
import { useI18n } from '../i18n/context.tsx';
import { ErrorAlert } from './error-alert.tsx';
import { LanguageSwitch } from './language-switch.tsx';

export interface SignInFormProps {
  /** The first step's heading (the code step has its own). */
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
  const [totpStep, setTotpStep] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const session = await signIn({ email, password, ...(totpStep ? { totp } : {}) });
      await onSignedIn(session.totpEnrolmentRequired);
    } catch (err) {
      if (!totpStep && isApiError(err) && err.status === 401 && err.details?.totpRequired === true) setTotpStep(true);
      else setError(err);
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
            <Title order={1}>{totpStep ? t('signIn.totpTitle') : title}</Title>
            {signedOut ? <Alert color="blue">{t('signedOut.message')}</Alert> : null}
            {failure}
            {totpStep ? (
              <>
                <Text size="sm">{t('signIn.totpHint')}</Text>
                <TextInput
                  label={t('signIn.totpCode')}
                  value={totp}
                  onChange={(event) => setTotp(event.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]{6}"
                  required
                  data-autofocus
                />
                <Button type="submit" loading={pending}>
                  {t('signIn.verify')}
                </Button>
              </>
            ) : (
              <>
                <TextInput label={t('signIn.email')} type="email" autoComplete="username" value={email} onChange={(event) => setEmail(event.currentTarget.value)} required />
                <PasswordInput
                  label={t('signIn.password')}
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                  visibilityToggleButtonProps={{ 'aria-label': t('signIn.showPassword') }}
                  required
                />
                <Button type="submit" loading={pending}>
                  {t('signIn.submit')}
                </Button>
              </>
            )}
            <LanguageSwitch />
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
