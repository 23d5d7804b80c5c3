/**
 * The claim page's defence: the defence as submitted once there is one; else, while the claim is
 * OPEN and its deadline ahead, the form for a person whose session may (`payments.write`, which
 * POST /disputes/{id}/defense needs: users/roles.ts), a sentence for others; else why no defence
 * is taken. The API's refusals are said in words of ours (deadline passed, claim no longer open,
 * PSP unreachable); the alert stays after the claim is read again, when the form has gone.
 */
import { Alert, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { isApiError } from '../../api/errors.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import { useMay } from '../../api/permissions.ts';
import { keys } from '../../api/query-keys.ts';
import { SubmittedDefense } from '../../components/dispute-defense.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { deadlineUrgency, type Dispute } from '../../lib/disputes.ts';
import { DefenseForm } from './defense-form.tsx';
import type { DefenseBody } from './defense-rules.ts';

const REFUSALS = ['DEFENSE_DEADLINE_PASSED', 'DISPUTE_NOT_OPEN', 'PROVIDER_UNAVAILABLE'] as const;
type Refusal = (typeof REFUSALS)[number];
const refusalOf = (error: unknown): Refusal | undefined => (isApiError(error) ? REFUSALS.find((code) => code === error.code) : undefined);

function DefenseError({ error }: { error: unknown }) {
  const { t } = useI18n();
  const refusal = refusalOf(error);
  if (!refusal) return <ErrorAlert error={error} />;
  return (
    <Alert color="red" title={t('common.errorTitle')} role="alert" data-code={refusal}>
      <Text size="sm">{t(`disputes.error.${refusal}`)}</Text>
      {isApiError(error) && error.requestId ? <Text size="xs">{t('common.requestId', { id: error.requestId })}</Text> : null}
    </Alert>
  );
}

export function DefenseSection({ dispute, now }: { dispute: Dispute; now: number }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const mayDefend = useMay('payments.write');
  const defend = useMutation({
    mutationFn: ({ body, key }: { body: DefenseBody; key: string }) =>
      call(api.POST('/disputes/{id}/defense', { params: { path: { id: dispute.id }, header: { 'idempotency-key': key } }, body })),
    onSuccess: async (updated) => {
      queryClient.setQueryData(keys.disputes.detail(dispute.id), updated);
      await queryClient.invalidateQueries({ queryKey: keys.disputes.all });
    },
    // Refused because the claim moved on: read it again, so the page shows where it is now.
    onError: async (error) => {
      if (refusalOf(error) && refusalOf(error) !== 'PROVIDER_UNAVAILABLE') await queryClient.invalidateQueries({ queryKey: keys.disputes.all });
    },
  });

  const body = () => {
    if (dispute.defense) return <SubmittedDefense defense={dispute.defense} none={t('disputes.defense.none')} />;
    if (dispute.status !== 'OPEN') return <Text>{t('disputes.form.closed')}</Text>;
    if (deadlineUrgency(dispute, now) === 'PASSED') return <Text>{t('disputes.form.deadlinePassed', { at: formatDateTime(dispute.defenseDeadline) })}</Text>;
    if (!mayDefend) return <Text>{t('disputes.form.readOnly')}</Text>;
    return <DefenseForm pending={defend.isPending} apiProblems={fieldErrors(defend.error)} onSubmit={(defense, key) => defend.mutate({ body: defense, key })} />;
  };

  return (
    <>
      {defend.error ? <DefenseError error={defend.error} /> : null}
      {defend.isSuccess ? <Text role="status">{t('disputes.form.sent')}</Text> : null}
      {body()}
    </>
  );
}
