/**
 * The order process table of docs/architecture/orders.md, rendered from the declarations
 * (src/modules/orders/lifecycle/process.ts). `npm run docs:orders` writes it between the two markers;
 * test/modules/orders/process.test.ts fails while the committed page differs.
 */
import type { OrderType } from '../../../src/lib/order-types.ts';
import { ORDER_PROCESS, type ProcessEdge } from '../../../src/modules/orders/lifecycle/process.ts';
import { registersMovement } from '../../../src/modules/orders/lifecycle/transitions.ts';

export const ORDERS_DOC = new URL('../../../docs/architecture/orders.md', import.meta.url);
export const BEGIN = '<!-- the order process: written by `npm run docs:orders` from src/modules/orders/lifecycle/process.ts; do not edit -->';
export const END = '<!-- end of the order process -->';

const code = (text: string) => `\`${text}\``;

function ledgerCell(edge: ProcessEdge): string {
  const posted = edge.ledger ? [code(edge.ledger.movement) + (edge.ledger.received ? ' (what moved)' : '')] : [];
  if (edge.chainCosts) posted.push(code('CHAIN_COSTS') + (edge.chainCosts === 'always' ? '' : `, ${edge.chainCosts}`));
  return posted.join(' + ') || '—';
}

function row(edge: ProcessEdge): string {
  const event = edge.event ? code(edge.event.name) + (edge.event.status === edge.to ? '' : ` (status ${code(edge.event.status)})`) : '—';
  const movements = (edge.movements ?? []).map((movement) => `${code(movement.type)} ${movement.status}${movement.when ? `, when ${movement.when}` : ''}`);
  const registered = (edge.movements ?? []).filter(registersMovement).map((movement) => code(movement.type));
  const cells = [
    `${code(edge.from)} → ${code(edge.to)}`,
    edge.by,
    event,
    movements.join('; ') || '—',
    registered.join(', ') || '—',
    ledgerCell(edge),
    edge.releasesLimit ? 'given back' : '—',
    edge.next,
  ];
  return `| ${cells.join(' | ')} |`;
}

function table(type: OrderType): string[] {
  return [
    `${type}:`,
    '',
    '| transition | by | event | movements recorded | operations register | ledger | daily limit | next step |',
    '|---|---|---|---|---|---|---|---|',
    ...ORDER_PROCESS.filter((edge) => edge.type === type).map(row),
  ];
}

/** The generated part of the page, markers included. */
export const renderProcess = (): string => [BEGIN, '', ...table('PAYIN'), '', ...table('PAYOUT'), '', END].join('\n');

/** The page with its generated part replaced by `generated`. */
export function withProcess(page: string, generated: string): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/architecture/orders.md has lost its markers: ${BEGIN} … ${END}`);
  return page.slice(0, start) + generated + page.slice(end + END.length);
}
