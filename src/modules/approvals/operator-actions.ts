/**
 * The four-eyes actions on operators (docs/decisions/0024-operators-made-by-two.md): once two
 * operators have enrolled TOTP, making an operator, raising one's role and enabling a disabled
 * one take a proposal and another operator's approval, both with `operators.manage` (ADMIN).
 * Approving OPERATOR_CREATE emails the single-use invitation to the new operator alone: nobody
 * in the decision sees a credential. Nobody approves a change to themselves.
 */
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import type { Trx } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import { UUID_PATTERN } from '../../lib/ids.ts';
import { OPERATOR_ROLES, type OperatorRole } from '../operators/roles.ts';
import { needsTwo, type OperatorsService } from '../operators/service.ts';
import type { FourEyesAction, Proposed } from './action-types.ts';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const RoleParams = Type.Object({ role: Type.Enum([...OPERATOR_ROLES]) }, { additionalProperties: false });
const NoParams = Type.Object({}, { additionalProperties: false });

function roleOf(proposal: Proposed): OperatorRole {
  if (!Value.Check(RoleParams, proposal.params)) throw new AppError('VALIDATION_ERROR', 'params must be {role}, one of the operator roles', { 'body.params': `must be {role: ${OPERATOR_ROLES.join('|')}}` });
  return (proposal.params as { role: OperatorRole }).role;
}

function noParams(proposal: Proposed): void {
  if (!Value.Check(NoParams, proposal.params)) throw new AppError('VALIDATION_ERROR', 'OPERATOR_ENABLE takes no params', { 'body.params': 'must be empty' });
}

function operatorTarget(proposal: Proposed): string {
  if (!UUID_PATTERN.test(proposal.targetId)) throw new AppError('VALIDATION_ERROR', "targetId of this action is an operator's id (a UUID)", { 'body.targetId': 'must be a UUID' });
  return proposal.targetId;
}

function emailTarget(proposal: Proposed): string {
  if (!EMAIL_PATTERN.test(proposal.targetId) || proposal.targetId.length > 254) throw new AppError('VALIDATION_ERROR', "targetId of OPERATOR_CREATE is the new operator's email", { 'body.targetId': 'must be an email' });
  return proposal.targetId.toLowerCase();
}

/** The approver gains nothing from their own vote: a change to themselves is someone else's to approve. */
function notTheApprover(targetId: string, by: { actor: string }): void {
  if (by.actor === `operator:${targetId}`) throw new AppError('FORBIDDEN', 'Nobody approves a change to themselves: another operator must', { reason: 'OWN_CHANGE' });
}

export function operatorFourEyesActions(operators: Pick<OperatorsService, 'get' | 'list' | 'invitations' | 'applyApproved'>) {
  async function existing(id: string) {
    const operator = await operators.get(id);
    if (!operator) throw notFound('Operator');
    return operator;
  }

  const OPERATOR_CREATE: FourEyesAction = {
    permission: 'operators.manage',
    targetType: 'operator_invitation',
    normalizeTarget: (targetId) => targetId.toLowerCase(),
    async check(proposal) {
      const email = emailTarget(proposal);
      const role = roleOf(proposal);
      if ((await operators.list()).some((operator) => operator.email === email)) throw new AppError('CONFLICT', 'An operator with this email already exists');
      return { merchantId: null, before: { email, role } };
    },
    execute: async (trx: Trx, proposal, by) => ({ invitation: await operators.invitations.invite(trx, { email: emailTarget(proposal), role: roleOf(proposal) }, by) }),
  };

  const OPERATOR_ROLE_CHANGE: FourEyesAction = {
    permission: 'operators.manage',
    targetType: 'operator',
    async check(proposal) {
      const role = roleOf(proposal);
      const before = await existing(operatorTarget(proposal));
      if (!needsTwo(before, { role })) throw new AppError('CONFLICT', 'This change gives no new permission: one ADMIN makes it (PATCH /admin/operators/{id})', { reason: 'ACTION_NOT_ALLOWED' });
      return { merchantId: null, before: { role: before.role } };
    },
    async execute(trx, proposal, by) {
      notTheApprover(proposal.targetId, by);
      return { operator: await operators.applyApproved(trx, proposal.targetId, { role: roleOf(proposal) }, by) };
    },
  };

  const OPERATOR_ENABLE: FourEyesAction = {
    permission: 'operators.manage',
    targetType: 'operator',
    async check(proposal) {
      noParams(proposal);
      const before = await existing(operatorTarget(proposal));
      if (!before.disabled) throw new AppError('CONFLICT', 'The operator is not disabled', { reason: 'ACTION_NOT_ALLOWED' });
      return { merchantId: null, before: { disabled: true } };
    },
    async execute(trx, proposal, by) {
      notTheApprover(proposal.targetId, by);
      return { operator: await operators.applyApproved(trx, proposal.targetId, { disabled: false }, by) };
    },
  };

  return { OPERATOR_CREATE, OPERATOR_ROLE_CHANGE, OPERATOR_ENABLE };
}
