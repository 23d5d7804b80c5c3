/**
 * Examples of answers in the OpenAPI documents. The rule: a 2xx response with content has an
 * example (its media type's `example`, one per media type), taken from the tables in
 * response-examples/ by operationId and status; a response without content (204, the 202 of a
 * password reset) has nothing to show. Every 4xx and 5xx response shows the codes it can carry
 * as `examples` of the Error object, one named by each code (response-examples/errors.ts), each a
 * reference to that code's Example object in `components.examples`.
 * test/http/openapi-examples.test.ts checks that every such response has its examples and that
 * each is valid against the response's schema, so a route added without one fails there;
 * `npm run lint:openapi` (Redocly) checks the validity too.
 */
import { ERROR_STATUS, type ErrorCode } from '../errors.ts';
import { ACCOUNT_RESPONSE_EXAMPLES } from './response-examples/account.ts';
import { ADMIN_RESPONSE_EXAMPLES } from './response-examples/admin.ts';
import { BATCH_RESPONSE_EXAMPLES } from './response-examples/batches.ts';
import { GENERIC_CODES, IDEMPOTENCY_CODE, ROUTE_CODES, errorExample } from './response-examples/errors.ts';
import { SANDBOX_RESPONSE_EXAMPLES } from './response-examples/sandbox.ts';
import { SETTLEMENT_RESPONSE_EXAMPLES } from './response-examples/settlements.ts';
import { STANDING_ADDRESS_RESPONSE_EXAMPLES } from './response-examples/standing-addresses.ts';
import { type ResponseExamples, exampleFor } from './response-examples/table.ts';
import { TRADING_RESPONSE_EXAMPLES } from './response-examples/trading.ts';

/** The header of idempotency.ts (IDEMPOTENCY_KEY_HEADER), named here so that the document's code does not load the idempotency machinery. */
const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

const TABLES = [TRADING_RESPONSE_EXAMPLES, BATCH_RESPONSE_EXAMPLES, SANDBOX_RESPONSE_EXAMPLES, ACCOUNT_RESPONSE_EXAMPLES, ADMIN_RESPONSE_EXAMPLES, SETTLEMENT_RESPONSE_EXAMPLES, STANDING_ADDRESS_RESPONSE_EXAMPLES];

/** Every answer example, by operationId then status. */
export const RESPONSE_EXAMPLES: ResponseExamples = Object.assign({}, ...TABLES);

/** operationIds that more than one table names (the later would silently win): none, the test says. */
export const DUPLICATE_OPERATION_IDS = TABLES.flatMap((table) => Object.keys(table)).filter((id, i, all) => all.indexOf(id) !== i);

/** The codes a response of `status` of the operation can carry: the generic ones of the status, then the operation's own. */
export function errorCodesFor(operationId: string | undefined, status: number, idempotent: boolean): ErrorCode[] {
  const own = (operationId === undefined ? [] : (ROUTE_CODES[operationId] ?? [])).filter((code) => ERROR_STATUS[code] === status);
  const generic = [...(GENERIC_CODES[status] ?? []), ...(status === 409 && idempotent ? [IDEMPOTENCY_CODE] : [])];
  return [...new Set([...generic, ...own])];
}

type Media = { schema?: Record<string, unknown>; example?: unknown; examples?: Record<string, { $ref: string }> };
type Response = { content?: Record<string, Media> };
type Operation = { operationId?: string; parameters?: Array<{ in: string; name?: string }>; responses?: Record<string, Response> };
type Document = { paths?: Record<string, Record<string, Operation>>; components?: { examples?: Record<string, unknown> } };

const EXAMPLES = '#/components/examples/';

const withContent = (response: Response, media: (type: string, current: Media) => Media): Response => ({
  ...response,
  content: Object.fromEntries(Object.entries(response.content!).map(([type, current]) => [type, media(type, current)])),
});

/**
 * Puts the examples on every response of the document that has content (new objects: a response
 * may be shared). An error response refers to one Example object per code, in
 * `components.examples` under the code's name, so a code's example is written once per document.
 */
export function applyResponseExamples<T extends Document>(document: T): T {
  const used = new Set<ErrorCode>();
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      const id = operation.operationId;
      const idempotent = (operation.parameters ?? []).some((parameter) => parameter.in === 'header' && parameter.name?.toLowerCase() === IDEMPOTENCY_KEY_HEADER);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!response.content) continue;
        if (status.startsWith('2')) {
          const example = id === undefined ? undefined : RESPONSE_EXAMPLES[id]?.[status];
          if (example === undefined) continue;
          operation.responses![status] = withContent(response, (type, media) => {
            const value = exampleFor(example, type);
            return value === undefined ? media : { ...media, example: value };
          });
        } else if (Number(status) >= 400) {
          const codes = errorCodesFor(id, Number(status), idempotent);
          if (codes.length === 0) continue;
          codes.forEach((code) => used.add(code));
          const examples = Object.fromEntries(codes.map((code) => [code, { $ref: `${EXAMPLES}${code}` }]));
          operation.responses![status] = withContent(response, (_type, media) => ({ ...media, examples }));
        }
      }
    }
  }
  const examples = Object.fromEntries(
    (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => used.has(code)).map((code) => [code, { summary: `${ERROR_STATUS[code]} ${code}`, value: errorExample(code) }]),
  );
  return used.size === 0 ? document : { ...document, components: { ...document.components, examples } };
}
