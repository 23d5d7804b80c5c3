/**
 * The baseline: a bare Fastify server answering a constant JSON, in its own process, so every
 * scenario's figure can be read as a ratio to what this machine and Node do with no work at all.
 * PORT from the environment; prints "ready <port>" once listening.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

const port = Number(process.env.PORT ?? 0);
await app.listen({ host: '127.0.0.1', port });
const address = app.server.address();
console.log(`ready ${typeof address === 'object' && address ? address.port : port}`);

const stop = () => void app.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
