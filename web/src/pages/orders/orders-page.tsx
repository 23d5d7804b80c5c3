/** Placeholder until this area's page is built (replace this file; its route is in routes.tsx). */
import { ComingSoon } from '../../components/coming-soon.tsx';

export function OrdersPage() {
  return <ComingSoon title="orders.title" />;
}
