/**
 * The back office's reads across merchants (docs/architecture/back-office.md), composed from the
 * modules that hold them: the KYC queue, the audit export (the order export's page size and cap),
 * a merchant's page and the operations register's monthly report
 * (docs/architecture/operations-register.md), paged as the exports are. Part of services.ts.
 */
import type { Db } from './db/database.ts';
import type { Clock } from './lib/clock.ts';
import { createMerchantReads } from './modules/admin/merchant-reads.ts';
import { createAuditExport } from './modules/audit/export.ts';
import { createOperationsReport } from './modules/operations-register/report.ts';
import { createKycReview } from './modules/receivers/kyc-review.ts';
import type { PersonalData } from './lib/personal-data.ts';

type MerchantReadsDeps = Parameters<typeof createMerchantReads>[0];

export function createOperatorReads(deps: { db: Db; clock: Clock; personalData: PersonalData; exports: { pageSize: number; maxRows: number } } & MerchantReadsDeps) {
  const { db, clock, personalData, exports } = deps;
  return {
    kycReview: createKycReview({ db, clock, personalData }),
    auditExport: createAuditExport({ db, personalData, clock, settings: exports }),
    merchantReads: createMerchantReads({ merchants: deps.merchants, users: deps.users, feeTiers: deps.feeTiers }),
    operationsReport: createOperationsReport({ db, personalData, pageSize: exports.pageSize }),
  };
}
