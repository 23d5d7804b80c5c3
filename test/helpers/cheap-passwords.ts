/**
 * A vitest setup file: password hashes in tests cost Argon2id's minimum (64 KiB, one pass)
 * instead of the production 19 MiB × 2, which every sign-in, invitation and app start (the
 * decoy hash) paid. The production cost is held by test/modules/users/passwords.test.ts.
 */
import { setPasswordHashCost } from '../../src/modules/users/passwords.ts';

setPasswordHashCost({ memoryCost: 64, timeCost: 1, parallelism: 1 });
