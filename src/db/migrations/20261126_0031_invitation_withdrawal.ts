import type { Kysely } from 'kysely';

/**
 * An invitation its merchant withdrew (DELETE /users/invitations/{id}): its link answers 410 like
 * a used one, and it leaves the pending list. Kept apart from `used_at` so the two stay told apart.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_invitations').addColumn('withdrawn_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_invitations').dropColumn('withdrawn_at').execute();
}
