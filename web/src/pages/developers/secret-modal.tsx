/**
 * A secret shown once (an API key's secret, a webhook signing secret): a modal with a warning and
 * a copy button. The secret lives only in the caller's component state: closing clears that state,
 * the modal's content unmounts, and nothing was ever put in the query cache, so after closing it is
 * gone from the page for good (the API never answers it again).
 */
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useI18n } from '../../i18n/context.tsx';
import { TONE } from '../../components/readable.ts';

export interface ShownSecret {
  title: string;
  /** What the secret belongs to, e.g. the key id. */
  context?: ReactNode;
  value: string;
}

export function SecretModal({ secret, onClose }: { secret: ShownSecret | null; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Modal opened={secret !== null} onClose={onClose} title={secret?.title} size="lg" closeButtonProps={{ 'aria-label': t('devSecret.close') }} closeOnClickOutside={false}>
      {secret ? (
        <Stack>
          <Alert color={TONE.bad} variant="light" title={t('devSecret.warningTitle')}>
            <Text size="sm">{t('devSecret.warning')}</Text>
          </Alert>
          {secret.context}
          <Text fw={700} component="p" id="shown-secret-label">
            {t('devSecret.label')}
          </Text>
          <Code block aria-labelledby="shown-secret-label" data-testid="shown-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
            {secret.value}
          </Code>
          <Group justify="space-between">
            <CopyButton value={secret.value}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? t('devSecret.copied') : t('devSecret.copy')}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>{t('devSecret.done')}</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
