/**
 * The request body parsers: JSON only, with a nesting limit checked on the text before it is
 * parsed. Size is Fastify's bodyLimit (BODY_LIMIT_BYTES, 413). Everything downstream of the
 * parser (the NUL check, idempotency fingerprints, PostgreSQL jsonb) may then assume a shallow
 * document; the walkers are iterative anyway, so a deep one can never overflow the stack.
 *
 * - `application/json` (any parameters): an empty body is no body (a client library that sets
 *   the header on every request must not break bodiless routes); otherwise deeper than
 *   MAX_JSON_DEPTH is 400 VALIDATION_ERROR, then Fastify's own parser (prototype poisoning
 *   refused) reads it.
 * - anything else with a body (text/plain included, which Fastify would accept by default) is
 *   415 UNSUPPORTED_MEDIA_TYPE: the API speaks JSON only.
 */
import type { FastifyInstance } from 'fastify';
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

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonNestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      done(new AppError('VALIDATION_ERROR', `Body nests deeper than ${MAX_JSON_DEPTH} levels`, { body: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
