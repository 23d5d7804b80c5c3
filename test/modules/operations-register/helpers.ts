/**
 * The operations register for its tests: the documented CSV header (read from
 * docs/architecture/operations-register.md, so the file and the doc cannot drift apart), and a
 * row inserted directly, for the month boundaries and the CLI (the register accepts inserts).
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Db } from '../../../src/db/database.ts';

/** The header line the doc shows in its `csv` block, split into column names. */
export function documentedColumns(): string[] {
  const doc = readFileSync(new URL('../../../docs/architecture/operations-register.md', import.meta.url), 'utf8');
  const block = /```csv\n([^\n]+)\n```/.exec(doc);
  if (!block) throw new Error('docs/architecture/operations-register.md has no ```csv block with the header');
  return block[1]!.split(',');
}

/** A PIX_IN row of nobody's order at `occurredAt`, straight into the table. */
export async function insertRow(db: Db, occurredAt: string, extra: { id?: string; clientName?: string } = {}): Promise<string> {
  const id = extra.id ?? crypto.randomUUID();
  await sql`
    insert into operations_register (id, occurred_at, order_id, order_type, merchant_id, movement, direction, asset, quantity, value_brl,
      client_document_type, client_document, client_name, counterparty_type, originator_name, beneficiary_name, pix_end_to_end_id)
    values (${id}::uuid, ${occurredAt}::timestamptz, ${crypto.randomUUID()}::uuid, 'PAYIN', ${crypto.randomUUID()}::uuid, 'PIX_IN', 'IN', 'BRL',
      100.5, 100.5, 'CPF', '52998224725', ${extra.clientName ?? 'Maria, "da" Silva'}, 'PIX_PAYER', '=cmd', 'Maria', 'E123')`.execute(db);
  return id;
}
