/** The keys production requires, generated fresh for each run (never written anywhere but the child's environment). */
import { generateKeyPairSync, randomBytes } from 'node:crypto';

export function productionKeys(): Record<string, string> {
  const jwt = generateKeyPairSync('ed25519');
  const sponsor = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const keypair = [...Buffer.from(sponsor.d!, 'base64url'), ...Buffer.from(sponsor.x!, 'base64url')];
  return {
    JWT_PRIVATE_KEY: jwt.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    API_SECRET_PEPPER: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    WALLET_KEK: randomBytes(32).toString('base64'),
    SPONSOR_PRIVATE_KEY: JSON.stringify(keypair),
    ADMIN_TOKEN: randomBytes(32).toString('hex'),
  };
}
