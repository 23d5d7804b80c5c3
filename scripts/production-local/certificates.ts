/**
 * A throw-away local CA and one server certificate it signs (localhost, 127.0.0.1, ::1), made
 * with the `openssl` CLI at every start, in <state>/tls: what the TLS front, the price source and
 * the mail sink's STARTTLS present, and what every process is told to trust (NODE_EXTRA_CA_CERTS:
 * the service has no CA setting of its own for the price source or the SMTP server, and the PSP
 * simulator's callbacks are plain fetch). node:crypto makes keys but cannot issue certificates;
 * openssl is what an operator would use for a private CA too. The CA key never leaves the
 * state directory; a week's validity is plenty for a local run.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface LocalTls {
  caCertFile: string;
  certFile: string;
  keyFile: string;
  caPem: string;
  certPem: string;
  keyPem: string;
}

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await run('openssl', args, { cwd });
  } catch (err) {
    const error = err as NodeJS.ErrnoException & { stderr?: string };
    if (error.code === 'ENOENT') throw new Error('the openssl command is not installed (Debian: apt-get install openssl); it makes the local CA', { cause: err });
    throw new Error(`openssl ${args[0]} failed: ${(error.stderr ?? error.message).trim().split('\n').slice(-2).join(' | ')}`, { cause: err });
  }
}

export async function createLocalTls(dir: string): Promise<LocalTls> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await openssl(
    ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '7', '-subj', '/CN=production-local throw-away CA', '-addext', 'basicConstraints=critical,CA:TRUE,pathlen:0', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    dir,
  );
  await openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], dir);
  await writeFile(
    path.join(dir, 'server.ext'),
    ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=serverAuth', 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1', ''].join('\n'),
  );
  await openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-set_serial', `0x${randomBytes(8).toString('hex')}`, '-days', '7', '-extfile', 'server.ext', '-out', 'server.crt'], dir);
  const files = { caCertFile: path.join(dir, 'ca.crt'), certFile: path.join(dir, 'server.crt'), keyFile: path.join(dir, 'server.key') };
  const [caPem, certPem, keyPem] = await Promise.all([readFile(files.caCertFile, 'utf8'), readFile(files.certFile, 'utf8'), readFile(files.keyFile, 'utf8')]);
  return { ...files, caPem, certPem, keyPem };
}
