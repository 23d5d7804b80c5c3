/**
 * First-time TOTP enrolment, for both sides: `start` answers the otpauth URI and its secret, shown
 * this once; the person adds it to an authenticator and confirms a current code (`confirm`).
 */
import { Alert, Button, Center, Code, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '../i18n/context.tsx';
import { ErrorAlert } from './error-alert.tsx';
import { QrCode } from './qr-code.tsx';

export interface TotpEnrolmentFormProps {
  intro: string;
  start: () => Promise<{ otpauthUri: string; secret: string }>;
  confirm: (code: string) => Promise<void>;
  onDone: () => Promise<unknown>;
}

export function TotpEnrolmentForm({ intro, start, confirm, onDone }: TotpEnrolmentFormProps) {
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const enrolment = useMutation({ mutationFn: start });
  const confirmation = useMutation({ mutationFn: confirm, onSuccess: onDone });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirmation.mutate(code);
  };

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder p="xl" w={560} maw="100%">
        <Stack>
          <Title order={1}>{t('totp.title')}</Title>
          <Text>{intro}</Text>
          {enrolment.error ? <ErrorAlert error={enrolment.error} /> : null}
          {enrolment.data ? (
            <form onSubmit={submit}>
              <Stack>
                <QrCode value={enrolment.data.otpauthUri} label={t('totp.qr')} />
                <div>
                  <Text fw={600} id="totp-uri-label">{t('totp.uri')}</Text>
                  <Code block aria-labelledby="totp-uri-label" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{enrolment.data.otpauthUri}</Code>
                </div>
                <div>
                  <Text fw={600} id="totp-secret-label">{t('totp.secret')}</Text>
                  <Code block aria-labelledby="totp-secret-label">{enrolment.data.secret}</Code>
                </div>
                {confirmation.error ? <ErrorAlert error={confirmation.error} /> : null}
                {confirmation.isSuccess ? <Alert color="green">{t('totp.done')}</Alert> : null}
                <TextInput
                  label={t('totp.code')}
                  value={code}
                  onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]{6}"
                  required
                />
                <Button type="submit" loading={confirmation.isPending}>
                  {t('totp.confirm')}
                </Button>
              </Stack>
            </form>
          ) : (
            <Button onClick={() => enrolment.mutate()} loading={enrolment.isPending}>
              {t('totp.start')}
            </Button>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
