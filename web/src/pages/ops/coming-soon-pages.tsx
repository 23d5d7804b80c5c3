/** Back-office pages not built yet, so the navigation works meanwhile; each is replaced by its own page file in routes.tsx. */
import { ComingSoon } from '../../components/coming-soon.tsx';

export const OpsOrdersPage = () => <ComingSoon title="ops.nav.orders" />;
export const OpsStuckOrdersPage = () => <ComingSoon title="ops.nav.stuck" />;
export const OpsApprovalsPage = () => <ComingSoon title="ops.nav.approvals" />;
export const OpsKycQueuePage = () => <ComingSoon title="ops.nav.kyc" />;
export const OpsMerchantsPage = () => <ComingSoon title="ops.nav.merchants" />;
export const OpsTreasuryPage = () => <ComingSoon title="ops.nav.treasury" />;
export const OpsWebhooksPage = () => <ComingSoon title="ops.nav.webhooks" />;
export const OpsAuditLogPage = () => <ComingSoon title="ops.nav.audit" />;
export const OpsOperatorsPage = () => <ComingSoon title="ops.nav.operators" />;
