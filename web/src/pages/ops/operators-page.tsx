/**
 * Operators (/app/ops/operators): the list (GET /admin/operators), inviting a new operator
 * during the bootstrap (POST /admin/operators: the link goes to their email, nobody here sees a
 * credential; afterwards the API answers 403 FOUR_EYES_REQUIRED and an OPERATOR_CREATE proposal
 * is the way), role changes and disabling (PATCH /admin/operators/{id}; raising and enabling need
 * a proposal once the bootstrap is over). Every write needs `operators.manage` (ADMIN): without it
 * the controls are disabled, and the API refuses (403).
 */
import { Alert, Badge, Button, Group, NativeSelect, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.ts';
import { type Operator, useOperatorMay } from '../../api/operator-session.ts';
import { DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { operatorsQuery } from './operators-query.ts';

const ROLES: Operator['role'][] = ['VIEWER', 'OPERATIONS', 'COMPLIANCE', 'FINANCE', 'ADMIN'];

export function OperatorsPage() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const may = useOperatorMay('operators.manage');
  const operators = useQuery(operatorsQuery);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Operator['role']>('VIEWER');
  const [invited, setInvited] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: operatorsQuery.queryKey });

  const create = useMutation({
    mutationFn: async () => {
      const invitation = await call(api.POST('/admin/operators', { body: { email: email.trim(), role } }));
      setInvited(invitation.email);
    },
    onSuccess: async () => {
      setEmail('');
      await refresh();
    },
  });
  const change = useMutation({
    mutationFn: ({ id, ...body }: { id: string; role?: Operator['role']; disabled?: boolean }) => call(api.PATCH('/admin/operators/{id}', { params: { path: { id } }, body })),
    onSuccess: refresh,
  });

  const columns: Column<Operator>[] = [
    { id: 'email', header: t('opsOperators.email'), cell: (operator) => operator.email },
    {
      id: 'role',
      header: t('opsOperators.role'),
      cell: (operator) => (
        <NativeSelect
          aria-label={t('opsOperators.roleOf', { email: operator.email })}
          value={operator.role}
          data={ROLES}
          disabled={!may || change.isPending}
          onChange={(event) => change.mutate({ id: operator.id, role: event.currentTarget.value as Operator['role'] })}
        />
      ),
    },
    { id: 'totp', header: t('opsOperators.totp'), cell: (operator) => (operator.totpEnabled ? t('common.yes') : t('common.no')) },
    {
      id: 'status',
      header: t('opsOperators.status'),
      cell: (operator) => <Badge variant="filled" color={operator.disabled ? TONE.bad : TONE.ok}>{operator.disabled ? t('opsOperators.disabled') : t('opsOperators.enabled')}</Badge>,
    },
    { id: 'createdAt', header: t('opsOperators.createdAt'), cell: (operator) => formatDateTime(operator.createdAt) },
    {
      id: 'actions',
      header: t('opsOperators.actions'),
      cell: (operator) => (
        <Button
          size="xs"
          variant="default"
          disabled={!may || change.isPending}
          aria-label={t(operator.disabled ? 'opsOperators.enableOf' : 'opsOperators.disableOf', { email: operator.email })}
          onClick={() => change.mutate({ id: operator.id, disabled: !operator.disabled })}
        >
          {operator.disabled ? t('opsOperators.enable') : t('opsOperators.disable')}
        </Button>
      ),
    },
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <Stack>
      <Title order={1}>{t('opsOperators.title')}</Title>
      <Stack component="section" aria-labelledby="new-operator-heading">
        <Title order={2} id="new-operator-heading">{t('opsOperators.new')}</Title>
        <form onSubmit={submit}>
          <Group align="flex-end">
            <TextInput label={t('opsOperators.email')} type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} required disabled={!may} w={320} />
            <NativeSelect label={t('opsOperators.role')} value={role} onChange={(event) => setRole(event.currentTarget.value as Operator['role'])} data={ROLES} disabled={!may} />
            <Button type="submit" disabled={!may || !email.trim()} loading={create.isPending}>
              {t('opsOperators.create')}
            </Button>
          </Group>
        </form>
        {create.error ? <ErrorAlert error={create.error} /> : null}
        {invited && !create.error ? <Alert color="green" role="status">{t('opsOperators.invited', { email: invited })}</Alert> : null}
      </Stack>
      {change.error ? <ErrorAlert error={change.error} /> : null}
      <ListState query={operators} isEmpty={(data) => data.length === 0} empty={t('common.none')}>
        {(data) => <DataTable caption={t('opsOperators.caption')} columns={columns} rows={data} rowKey={(operator) => operator.id} minWidth={820} />}
      </ListState>
    </Stack>
  );
}
