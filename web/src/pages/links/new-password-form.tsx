/**
 * The page both emailed links open (outside the signed-in shell): a new password, 12 to 128
 * characters as the API requires, typed twice; `send` posts it with the link's token. A used,
 * withdrawn or expired link is 410 LINK_INVALID: the page says to ask for a new one.
 */
import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { fieldErrors } from '../../api/field-errors.ts';
import { isApiError } from '../../api/errors.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { LanguageSwitch } from '../../components/language-switch.tsx';
import { READABLE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import type { MessageKey } from '../../i18n/messages.ts';
import { useLinkToken } from './link-token.ts';

const MIN = 12;
const MAX = 128;

export function NewPasswordForm({ title, intro, submit, done, send, signInPath = '/sign-in' }: { title: MessageKey; intro: MessageKey; submit: MessageKey; done: MessageKey; send: (token: string, password: string) => Promise<unknown>; signInPath?: '/sign-in' | '/ops/sign-in' }) {
  const { t } = useI18n();
  const token = useLinkToken();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const save = useMutation({ mutationFn: () => send(token, password) });
  const errors = fieldErrors(save.error);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== repeat);
    if (password === repeat) save.mutate();
  };

  const failure = (() => {
    if (!save.error || errors.password) return null;
    if (isApiError(save.error) && save.error.code === 'LINK_INVALID') return <Alert color="red" role="alert">{t('links.invalid')}</Alert>;
    return <ErrorAlert error={save.error} />;
  })();

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder p="xl" w={440} maw="100%">
        <Stack>
          <Title order={1}>{t(title)}</Title>
          {!token ? <Alert color="red" role="alert">{t('links.noToken')}</Alert> : null}
          {save.isSuccess ? (
            <>
              <Alert color="green" role="status">{t(done)}</Alert>
              <Button renderRoot={(props) => <Link {...props} to={signInPath} />}>{t('links.goToSignIn')}</Button>
            </>
          ) : token ? (
            <form onSubmit={onSubmit}>
              <Stack>
                <Text size="sm">{t(intro)}</Text>
                {failure}
                <PasswordInput
                  label={t('links.newPassword')}
                  description={t('links.passwordRule', { min: MIN, max: MAX })}
                  styles={READABLE}
                  autoComplete="new-password"
                  minLength={MIN}
                  maxLength={MAX}
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                  error={errors.password}
                  visibilityToggleButtonProps={{ 'aria-label': t('links.showPassword') }}
                  required
                />
                <PasswordInput
                  label={t('links.repeatPassword')}
                  autoComplete="new-password"
                  value={repeat}
                  onChange={(event) => setRepeat(event.currentTarget.value)}
                  styles={READABLE}
                  error={mismatch ? t('links.mismatch') : undefined}
                  visibilityToggleButtonProps={{ 'aria-label': t('links.showPassword') }}
                  required
                />
                <Button type="submit" loading={save.isPending}>{t(submit)}</Button>
              </Stack>
            </form>
          ) : null}
          <Anchor component={Link} to={signInPath} size="sm">{t('links.backToSignIn')}</Anchor>
          <LanguageSwitch />
        </Stack>
      </Paper>
    </Center>
  );
}
