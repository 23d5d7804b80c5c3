/**
 * Binds one of production-local's own servers on loopback; a port in use says which, and the fix.
 */
import type { AddressInfo, Server } from 'node:net';

export async function listenOnLoopback(server: Server, port: number, what: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new Error(`${what}: port ${port} is in use (another production-local?): stop it, or run with --free-ports`) : err),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  return (server.address() as AddressInfo).port;
}
