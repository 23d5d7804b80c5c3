/** "Are you sure?" before an action that cannot be undone (revoking a key, deleting an endpoint). */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useI18n } from '../../i18n/context.tsx';
import { TONE } from '../../components/readable.ts';

export function ConfirmModal(props: { opened: boolean; title: string; text: string; confirm: string; busy?: boolean; onConfirm: () => void; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} closeButtonProps={{ 'aria-label': t('devSecret.close') }}>
      <Stack>
        <Text>{props.text}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('dev.cancel')}
          </Button>
          <Button color={TONE.bad} loading={props.busy ?? false} onClick={props.onConfirm}>
            {props.confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
