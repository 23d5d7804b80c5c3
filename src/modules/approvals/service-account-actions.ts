/**
 * The four-eyes action on service accounts (docs/decisions/0031-service-accounts-approved-by-two.md):
 * one ADMIN creates a service account and holds its token, but the token is refused until
 * SERVICE_ACCOUNT_ACTIVATE is approved by another operator with `operators.manage`, never the
 * proposer (OWN_PROPOSAL) nor the account's creator (OWN_SERVICE_ACCOUNT). So a departing ADMIN,
 * or a stolen ADMIN session, cannot leave behind a working credential nobody else agreed to.
 */
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { AppError, notFound } from '../../errors.ts';
import { UUID_PATTERN } from '../../lib/ids.ts';
import type { ServiceAccounts } from '../operators/service-accounts.ts';
import type { FourEyesAction, Proposed } from './action-types.ts';

const NoParams = Type.Object({}, { additionalProperties: false });

function accountTarget(proposal: Proposed): string {
  if (!UUID_PATTERN.test(proposal.targetId)) throw new AppError('VALIDATION_ERROR', "targetId of SERVICE_ACCOUNT_ACTIVATE is the service account's id (a UUID)", { 'body.targetId': 'must be a UUID' });
  if (!Value.Check(NoParams, proposal.params)) throw new AppError('VALIDATION_ERROR', 'SERVICE_ACCOUNT_ACTIVATE takes no params', { 'body.params': 'must be empty' });
  return proposal.targetId;
}

export function serviceAccountFourEyesActions(accounts: Pick<ServiceAccounts, 'get' | 'activate'>) {
  const SERVICE_ACCOUNT_ACTIVATE: FourEyesAction = {
    permission: 'operators.manage',
    targetType: 'service_account',
    async check(proposal) {
      const account = await accounts.get(accountTarget(proposal));
      if (!account) throw notFound('Service account');
      if (account.status !== 'PENDING') throw new AppError('CONFLICT', `The service account is ${account.status}, not PENDING`, { reason: 'ACTION_NOT_ALLOWED' });
      // What the approver agrees to: the name, the role and who holds the token.
      return { merchantId: null, before: { name: account.name, role: account.role, createdBy: account.createdBy, status: account.status } };
    },
    execute: async (trx, proposal, by) => ({ serviceAccount: await accounts.activate(trx, accountTarget(proposal), by) }),
  };
  return { SERVICE_ACCOUNT_ACTIVATE };
}
