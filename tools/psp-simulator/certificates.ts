/**
 * The simulator's throw-away PKI: a CA, a server certificate (localhost, 127.0.0.1, ::1) and a
 * client certificate, all signed by the CA, made on first start and kept in the state directory
 * so a client configured once keeps working across restarts. node:crypto makes keys but not
 * certificates; @peculiar/x509 (WebCrypto-based, needs the reflect-metadata polyfill) signs them.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import path from 'node:path';

type Key = webcrypto.CryptoKey;
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export interface SimulatorPki {
  caPem: string;
  serverCertPem: string;
  serverKeyPem: string;
  clientCertPem: string;
  clientKeyPem: string;
}

const FILES: Record<keyof SimulatorPki, string> = {
  caPem: 'ca.crt',
  serverCertPem: 'server.crt',
  serverKeyPem: 'server.key',
  clientCertPem: 'client.crt',
  clientKeyPem: 'client.key',
};

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const YEAR_MS = 365 * 86_400_000;

async function keyPem(key: Key): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
}

async function issue(ca: { cert: x509.X509Certificate; key: Key }, subject: string, server: boolean) {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
    new x509.ExtendedKeyUsageExtension([server ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
  ];
  if (server) {
    extensions.push(new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'localhost' }, { type: 'ip', value: '127.0.0.1' }, { type: 'ip', value: '::1' }]));
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex').replace(/^[89a-f]/, '1'),
    subject,
    issuer: ca.cert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + YEAR_MS),
    publicKey: keys.publicKey,
    signingKey: ca.key,
    signingAlgorithm: ALGORITHM,
    extensions,
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}

/** The PKI kept in `dir`, made on first use. */
export async function loadOrCreatePki(dir: string): Promise<SimulatorPki & { paths: Record<keyof SimulatorPki, string> }> {
  const paths = Object.fromEntries(Object.entries(FILES).map(([k, file]) => [k, path.join(dir, file)])) as Record<keyof SimulatorPki, string>;
  if (!Object.values(paths).every((file) => existsSync(file))) {
    mkdirSync(dir, { recursive: true });
    const caKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
    const caCert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: 'CN=PSP simulator throw-away CA',
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + YEAR_MS),
      keys: caKeys,
      signingAlgorithm: ALGORITHM,
      extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
    });
    const ca = { cert: caCert, key: caKeys.privateKey };
    const server = await issue(ca, 'CN=localhost', true);
    const client = await issue(ca, 'CN=psp-simulator-client', false);
    const pems: SimulatorPki = { caPem: caCert.toString('pem'), serverCertPem: server.certPem, serverKeyPem: server.keyPem, clientCertPem: client.certPem, clientKeyPem: client.keyPem };
    for (const [k, file] of Object.entries(paths)) writeFileSync(file, pems[k as keyof SimulatorPki], { mode: 0o600 });
  }
  const read = (k: keyof SimulatorPki) => readFileSync(paths[k], 'utf8');
  return { caPem: read('caPem'), serverCertPem: read('serverCertPem'), serverKeyPem: read('serverKeyPem'), clientCertPem: read('clientCertPem'), clientKeyPem: read('clientKeyPem'), paths };
}
