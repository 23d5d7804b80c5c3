/**
 * The sandbox drivers for one order (src/modules/sandbox/routes.ts), offered only where GET
 * /merchant/environment says the sandbox is on: pay a PAYIN's PIX as the customer, make a
 * PAYOUT's deposit arrive, arm a step's failure ahead, or fail a step now. Each is the API's own
 * route (the same an integration's test suite calls); its answer or error is shown here, and the
 * order's queries are refreshed.
 */
import { Alert, Button, Card, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import type { Order } from './statuses.ts';
import { keys } from '../../api/query-keys.ts';

type Step = 'CHAIN_TRANSFER' | 'PIX_REFUND' | 'PIX_PAYOUT';

/** The steps that can still fail for an order in its status (the API answers 409 for the others). */
function failableSteps(order: Order): Step[] {
  if (order.type === 'PAYOUT') return ['AWAITING_DEPOSIT', 'DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENT_UNCONFIRMED'].includes(order.status) ? ['PIX_PAYOUT'] : [];
  const steps: Step[] = [];
  if (['AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING'].includes(order.status)) steps.push('CHAIN_TRANSFER');
  if (!['COMPLETED', 'FAILED', 'REFUNDED'].includes(order.status)) steps.push('PIX_REFUND');
  return steps;
}

export function SandboxActions({ order }: { order: Order }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const steps = failableSteps(order);
  const [step, setStep] = useState<Step | ''>('');
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const chosen = step && steps.includes(step) ? step : steps[0];
  const path = { params: { path: { id: order.id } } };

  const action = useMutation({
    mutationFn: async (kind: 'pay' | 'deposit' | 'arm' | 'fail') => {
      const failure = { step: chosen!, ...(reason.trim() ? { reason: reason.trim() } : {}) };
      if (kind === 'pay') await call(api.POST('/sandbox/orders/{id}/pix-payment', { ...path, body: {} }));
      else if (kind === 'deposit') await call(api.POST('/sandbox/orders/{id}/deposit', { ...path, body: {} }));
      else if (kind === 'arm') await call(api.POST('/sandbox/orders/{id}/failure-injections', { ...path, body: failure }));
      else await call(api.POST('/sandbox/orders/{id}/fail', { ...path, body: failure }));
      return kind === 'arm' ? t('orders.sandbox.armed', { step: t(`orders.sandbox.step.${failure.step}`) }) : t('orders.sandbox.done');
    },
    onMutate: () => setDone(null),
    onSuccess: (message) => setDone(message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.orders.all }),
  });

  const canPay = order.type === 'PAYIN' && (order.status === 'AWAITING_PAYMENT' || order.status === 'EXPIRED');
  const canDeposit = order.type === 'PAYOUT' && order.status === 'AWAITING_DEPOSIT';
  if (!canPay && !canDeposit && steps.length === 0) return null;

  return (
    <Card withBorder component="section" aria-labelledby="sandbox-heading" bg="var(--mantine-color-yellow-0)">
      <Stack>
        <Title order={2} size="h3" id="sandbox-heading">{t('orders.sandbox.title')}</Title>
        <Text size="sm">{t('orders.sandbox.intro')}</Text>
        <Group>
          {canPay ? <Button onClick={() => action.mutate('pay')} loading={action.isPending && action.variables === 'pay'}>{t('orders.sandbox.payPix')}</Button> : null}
          {canDeposit ? <Button onClick={() => action.mutate('deposit')} loading={action.isPending && action.variables === 'deposit'}>{t('orders.sandbox.deposit')}</Button> : null}
        </Group>
        {steps.length > 0 ? (
          <Group align="end">
            <NativeSelect label={t('orders.sandbox.step')} value={chosen} onChange={(event) => setStep(event.currentTarget.value as Step)} data={steps.map((value) => ({ value, label: t(`orders.sandbox.step.${value}`) }))} />
            <TextInput label={t('orders.sandbox.reason')} value={reason} onChange={(event) => setReason(event.currentTarget.value)} maxLength={500} />
            <Button variant="default" onClick={() => action.mutate('arm')} loading={action.isPending && action.variables === 'arm'}>{t('orders.sandbox.arm')}</Button>
            {/* TONE.bad, not Mantine's red.8: red.8 text and border on the panel's yellow.0 is 4.26:1, under AA's 4.5:1 (this is 6.2:1). */}
            <Button color={TONE.bad} variant="outline" onClick={() => action.mutate('fail')} loading={action.isPending && action.variables === 'fail'}>{t('orders.sandbox.failNow')}</Button>
          </Group>
        ) : null}
        {action.error ? <ErrorAlert error={action.error} /> : null}
        {done ? <Alert color="green" role="status">{done}</Alert> : null}
      </Stack>
    </Card>
  );
}
