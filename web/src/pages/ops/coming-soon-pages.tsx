/** Back-office pages not built yet, so the navigation works meanwhile; each is replaced by its own page file in routes.tsx. */
import { ComingSoon } from '../../components/coming-soon.tsx';

export const OpsOrdersPage = () => <ComingSoon title="ops.nav.orders" />;
export const OpsStuckOrdersPage = () => <ComingSoon title="ops.nav.stuck" />;
export const OpsApprovalsPage = () => <ComingSoon title="ops.nav.approvals" />;
