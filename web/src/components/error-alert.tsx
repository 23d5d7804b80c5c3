/** An API failure as the person sees it: our text for codes we know, else the API's message, and the request id to quote to support. */
import { Alert, Text } from '@mantine/core';
import { isApiError } from '../api/errors.ts';
import { useI18n } from '../i18n/context.tsx';
import type { MessageKey } from '../i18n/messages.ts';

export function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useI18n();
  const code = isApiError(error) ? error.code : 'NETWORK_ERROR';
  const known = `error.${code}` as MessageKey;
  const text = known in KNOWN ? t(known) : isApiError(error) ? error.message : t('error.NETWORK_ERROR');
  return (
    <Alert color="red" title={t('common.errorTitle')} role="alert">
      <Text size="sm">{text}</Text>
      {isApiError(error) && error.requestId ? (
        <Text size="xs">
          {t('common.requestId', { id: error.requestId })}
        </Text>
      ) : null}
    </Alert>
  );
}

const KNOWN = { 'error.NETWORK_ERROR': 1, 'error.UNAUTHORIZED': 1, 'error.FORBIDDEN': 1, 'error.NOT_FOUND': 1, 'error.RATE_LIMITED': 1 };
