/**
 * The request body parsers: JSON only, with a nesting limit checked on the text before it is
 * parsed. Size is Fastify's bodyLimit (BODY_LIMIT_BYTES, 413). Everything downstream of the
 * parser (the NUL check, idempotency fingerprints, PostgreSQL jsonb) may then assume a shallow
 * document; the walkers are iterative anyway, so a deep one can never overflow the stack.
 *
 * - `application/json` (any parameters): an empty body is no body (a client library that sets
 *   the header on every request must not break bodiless routes); otherwise deeper than
 *   MAX_JSON_DEPTH is 400 VALIDATION_ERROR, then JSON.parse reads it with a reviver that refuses
 *   prototype poisoning (`__proto__`, `constructor.prototype`: as Fastify's own parser did) and
 *   keeps the source text of every number JSON.parse could not hold exactly (`numberSource`), so
 *   amounts are checked on what the client wrote, not on a rounded float (validator.ts).
 * - anything else with a body (text/plain included, which Fastify would accept by default) is
 *   415 UNSUPPORTED_MEDIA_TYPE: the API speaks JSON only.
 */
import { type FastifyInstance, errorCodes } from 'fastify';
import { AppError } from '../errors.ts';

/**
 * Deepest nesting of arrays and objects a body may have. Our deepest body schema is 3 levels
 * (an object holding a list of objects); 32 leaves room for any future shape and is far below
 * where a recursive reader (JSON.stringify, PostgreSQL's jsonb) would run out of stack.
 */
export const MAX_JSON_DEPTH = 32;

/** How deep `text` nests `{` and `[` (outside strings); stops counting once past `limit`. */
export function jsonNestingDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c /* \ */) i++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      depth--;
    }
  }
  return deepest;
}

/**
 * The source text of numbers whose float prints differently from what the client wrote
 * (`100.999999999999999999` read as 101, `1e2` as 100, `100.50` as 100.5), by the object or array
 * holding them and their key. Only those: any other number's text is `String(value)`. Weak, so a
 * body's entries go with the body.
 */
const numberSources = new WeakMap<object, Map<string, string>>();

/** What the client wrote for the number at `holder[key]` of a parsed body. */
export function numberSource(holder: object, key: string | number, value: number): string {
  return numberSources.get(holder)?.get(String(key)) ?? String(value);
}

function reviver(this: object, key: string, value: unknown, context?: { source?: string }): unknown {
  if (key === '__proto__') throw new SyntaxError('prototype poisoning');
  if (key === 'constructor' && value !== null && typeof value === 'object' && Object.hasOwn(value, 'prototype')) throw new SyntaxError('prototype poisoning');
  if (typeof value === 'number' && context?.source !== undefined && context.source !== String(value)) {
    let sources = numberSources.get(this);
    if (!sources) numberSources.set(this, (sources = new Map()));
    sources.set(key, context.source);
  }
  return value;
}

/** JSON.parse with the reviver; a syntax error or a forbidden property is Fastify's invalid-JSON error. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text, reviver);
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonNestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      done(new AppError('VALIDATION_ERROR', `Body nests deeper than ${MAX_JSON_DEPTH} levels`, { body: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }), undefined);
      return;
    }
    let parsed: unknown;
    try {
      parsed = parseJsonBody(text);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    done(null, parsed);
  });
}
