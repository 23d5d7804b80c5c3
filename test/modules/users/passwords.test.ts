import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARGON2ID_PARAMETERS, hashPassword, setPasswordHashCost, verifyPassword } from '../../../src/modules/users/passwords.ts';

describe('password hashes', () => {
  it('the service hashes with Argon2id at OWASP\'s minimum, m = 19 MiB, t = 2, p = 1 (tests run cheaper: cheap-passwords.ts)', async () => {
    expect(ARGON2ID_PARAMETERS).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const restore = setPasswordHashCost(ARGON2ID_PARAMETERS);
    try {
      const stored = await hashPassword('correct horse battery staple');
      expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await verifyPassword(stored, 'correct horse battery staple')).toBe(true);
      expect(await verifyPassword(stored, 'correct horse battery stapler')).toBe(false);
    } finally {
      restore();
    }
  });

  it('a hash made at another cost still verifies (the PHC string carries its parameters)', async () => {
    const cheap = await hashPassword('another password of length');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    expect(await verifyPassword(cheap, 'another password of length')).toBe(true);
  });

  it('nothing in src lowers the cost: only test runs call setPasswordHashCost', () => {
    const callers = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && file !== path.join('modules', 'users', 'passwords.ts'))
      .filter((file) => readFileSync(path.join('src', file), 'utf8').includes('setPasswordHashCost'));
    expect(callers).toEqual([]);
  });
});
