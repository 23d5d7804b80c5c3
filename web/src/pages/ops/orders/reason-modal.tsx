/**
 * A confirmation dialog that asks for a reason (3 to 500 characters, the API's rule): marking an
 * order failed, proposing a refund, rejecting a proposal. The API's refusal, if any, is shown in
 * the dialog; it closes only on success.
 */
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { READABLE } from '../../../components/readable.ts';
import { useI18n } from '../../../i18n/context.tsx';

export interface ReasonModalProps {
  opened: boolean;
  title: string;
  text: string;
  label: string;
  confirm: string;
  danger?: boolean;
  pending: boolean;
  error: unknown;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}

export function ReasonModal({ opened, title, text, label, confirm, danger, pending, error, onClose, onConfirm }: ReasonModalProps) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const short = reason.trim().length < 3;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!short) onConfirm(reason.trim());
  };

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': t('opsOrders.actions.cancel') }}>
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">{text}</Text>
          <Textarea
            label={label}
            description={t('opsOrders.actions.reasonHint')}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            maxLength={500}
            minRows={3}
            autosize
            required
            data-autofocus
            error={touched && short ? t('opsOrders.actions.reasonShort') : undefined}
            styles={READABLE}
          />
          {error ? <ErrorAlert error={error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('opsOrders.actions.cancel')}</Button>
            <Button type="submit" color={danger ? 'red.9' : undefined} loading={pending}>{confirm}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
