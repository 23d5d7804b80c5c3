/**
 * Every migration, listed explicitly so they load the same way under tsx, Vitest and a bundle.
 * Names are timestamps; Kysely applies them in name order. A landed migration is never edited.
 */
import type { Migration } from 'kysely';
import * as foundation from './20261122_0001_foundation.ts';
import * as receiversFeeTiers from './20261122_0002_receivers_fee_tiers.ts';

export const migrations: Record<string, Migration> = {
  '20261122_0001_foundation': foundation,
  '20261122_0002_receivers_fee_tiers': receiversFeeTiers,
};
