/**
 * Password hashes: Argon2id (the library's default algorithm) with OWASP's minimum
 * parameters, m = 19 MiB, t = 2, p = 1 (docs/decisions/0017-people-sign-in-argon2id-server-side-sessions-csrf.md).
 * The PHC string carries its own parameters, so raising them later still verifies old hashes.
 */
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** Length rules of a password a person chooses (reset, change, invitation): NIST SP 800-63B's length-over-composition. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

export interface Argon2Cost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export const ARGON2ID_PARAMETERS: Argon2Cost = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

let cost: Argon2Cost = ARGON2ID_PARAMETERS;

/**
 * Test runs only (test/helpers/cheap-passwords.ts): a cheap cost for the hundreds of hashes and
 * sign-ins of a run. Nothing in src calls it (test/modules/users/passwords.test.ts holds that),
 * so the service always hashes with ARGON2ID_PARAMETERS. Returns the function that puts the
 * previous cost back.
 */
export function setPasswordHashCost(next: Argon2Cost): () => void {
  const previous = cost;
  cost = next;
  return () => {
    cost = previous;
  };
}

export const hashPassword = (password: string): Promise<string> => hash(password, cost);

/** False for any wrong password or malformed hash (never throws on a bad hash). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash no password matches, verified when the email is unknown so that an unknown email costs
 * the same Argon2id work as a wrong password (no timing oracle for which emails exist).
 */
export const decoyHash = (): Promise<string> => hashPassword(randomBytes(32).toString('base64url'));

/** A generated password: 24 characters of base64url (144 bits). */
export const generatePassword = (): string => randomBytes(18).toString('base64url');
