/**
 * Two-step verification: its state, and enrolment where the role leaves it optional (DEVELOPER,
 * VIEWER; an OWNER or ADMIN enrolled before reaching this page). POST /users/me/totp answers the
 * otpauth URI and secret, shown this once; POST /users/me/totp/confirm turns it on. The secret
 * lives only in this component's mutation: once confirmed it is dropped from the page.
 */
import { Alert, Button, Code, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { confirmTotp, startTotpEnrolment, type User } from '../../api/session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { QrCode } from '../../components/qr-code.tsx';
import { useI18n } from '../../i18n/context.tsx';

export function TotpSection({ user }: { user: User }) {
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const enrolment = useMutation({ mutationFn: startTotpEnrolment });
  const confirmation = useMutation({ mutationFn: confirmTotp, onSuccess: () => enrolment.reset() });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirmation.mutate(code);
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="account-totp">
      <Stack gap="sm" maw={560}>
        <Title order={2} id="account-totp">
          {t('account.totp.title')}
        </Title>
        {confirmation.isSuccess ? (
          <Alert color="green" role="status">
            {t('account.totp.done')}
          </Alert>
        ) : null}
        <Text>{user.totpEnabled ? t('account.totp.on') : t('account.totp.off')}</Text>
        {enrolment.error ? <ErrorAlert error={enrolment.error} /> : null}
        {!user.totpEnabled && enrolment.data ? (
          <form onSubmit={submit}>
            <Stack gap="sm">
              <Text>{t('account.totp.intro')}</Text>
              <QrCode value={enrolment.data.otpauthUri} label={t('account.totp.qr')} />
              <div>
                <Text fw={600} id="account-totp-uri">
                  {t('account.totp.uri')}
                </Text>
                <Code block aria-labelledby="account-totp-uri" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
                  {enrolment.data.otpauthUri}
                </Code>
              </div>
              <div>
                <Text fw={600} id="account-totp-secret">
                  {t('account.totp.secret')}
                </Text>
                <Code block aria-labelledby="account-totp-secret">
                  {enrolment.data.secret}
                </Code>
              </div>
              {confirmation.error ? <ErrorAlert error={confirmation.error} /> : null}
              <TextInput
                label={t('account.totp.code')}
                value={code}
                onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                required
              />
              <Button type="submit" loading={confirmation.isPending} style={{ alignSelf: 'flex-start' }}>
                {t('account.totp.confirm')}
              </Button>
            </Stack>
          </form>
        ) : null}
        {!user.totpEnabled && !enrolment.data ? (
          <Button onClick={() => enrolment.mutate()} loading={enrolment.isPending} style={{ alignSelf: 'flex-start' }}>
            {t('account.totp.start')}
          </Button>
        ) : null}
      </Stack>
    </Paper>
  );
}
