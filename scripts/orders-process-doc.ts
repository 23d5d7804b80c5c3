/** npm run docs:orders: writes the order process table (src/modules/orders/lifecycle/process.ts) into docs/architecture/orders.md. */
import { readFile, writeFile } from 'node:fs/promises';
import { ORDERS_DOC, renderProcess, withProcess } from '../test/modules/orders/process-doc.ts';

await writeFile(ORDERS_DOC, withProcess(await readFile(ORDERS_DOC, 'utf8'), renderProcess()));
console.log('wrote the order process table to docs/architecture/orders.md');
