/**
 * Request validation with TypeBox's compiled checker. Bodies are never coerced (a "10" is not a
 * number in a payments API). Query strings, path parameters and headers arrive as text and are
 * converted strictly: only plain decimal text becomes a number ("2.5" is not an integer, "1e2"
 * and "0x10" are not numbers at all), only "true"/"false" a boolean. Schema defaults are applied
 * to every part before checking. Text PostgreSQL cannot store (a NUL character, a lone surrogate)
 * is refused anywhere, as it would otherwise surface as a 500, and a request without a body is
 * checked as `{}`.
 *
 * Decimal body fields (DecimalAmount, schemas.ts) are read from the text the client sent: a
 * number's source text kept by the JSON parser (json-body.ts), or a string; too many decimals or
 * out of range is refused there, and the route gets plain decimal text, never a rounded float.
 */
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { numberSource } from './json-body.ts';
import { DECIMAL_RULE, PATTERN_PROBLEMS } from './schemas.ts';
import { type DecimalRule, readDecimalText } from '../lib/money.ts';

type JsonSchema = {
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  [DECIMAL_RULE]?: DecimalRule;
};
type ValidationError = { keyword: string; instancePath: string; schemaPath: string; params: Record<string, unknown>; message: string };

const INTEGER_TEXT = /^-?\d{1,16}$/;
const NUMBER_TEXT = /^-?\d{1,16}(\.\d{1,16})?$/;

function typesOf(schema: JsonSchema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  return schema.type === undefined ? [] : [schema.type].flat();
}

function convertText(schema: JsonSchema, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const types = typesOf(schema);
  if (types.includes('string')) return value;
  if (types.includes('integer') && INTEGER_TEXT.test(value)) return Number(value);
  if (types.includes('number') && NUMBER_TEXT.test(value)) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function convertObject(schema: JsonSchema, value: unknown): unknown {
  if (!schema.properties || value === null || typeof value !== 'object') return value;
  const converted: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, propertySchema] of Object.entries(schema.properties)) {
    if (key in converted) converted[key] = convertText(propertySchema, converted[key]);
  }
  return converted;
}

/**
 * The first text of the input (a string, or a property name) that PostgreSQL cannot store, with
 * why: U+0000, which text refuses, or a lone surrogate (not well-formed UTF-16), which UTF-8 cannot
 * encode (a text column would get U+FFFD in its place, silently) and jsonb refuses outright (a
 * 500). A property name is reported at the object holding it, so the answer's details never
 * carry the bad text. A loop over an explicit stack, not recursion: the input is the client's
 * (json-body.ts bounds its depth too).
 */
function unstorableText(input: unknown): { path: string; message: string } | undefined {
  const problem = (text: string) =>
    text.includes('\u0000') ? 'must not contain a NUL character' : text.isWellFormed() ? undefined : 'must be well-formed Unicode (no lone surrogate)';
  const pending: Array<{ value: unknown; path: string }> = [{ value: input, path: '' }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      const message = problem(value);
      if (message) return { path, message };
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (const [key] of entries) {
        const message = problem(key);
        if (message) return { path, message };
      }
      // Reversed onto the stack, so the first property is looked at first.
      for (let i = entries.length - 1; i >= 0; i--) pending.push({ value: entries[i]![1], path: `${path}/${entries[i]![0]}` });
    }
  }
  return undefined;
}

function hasDecimalFields(schema: JsonSchema): boolean {
  if (schema[DECIMAL_RULE]) return true;
  const children = [...(schema.anyOf ?? []), ...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : [])];
  return children.some(hasDecimalFields);
}

const isDecimalInput = (value: unknown): value is number | string => typeof value === 'number' || typeof value === 'string';

/**
 * Replaces every decimal field of `holder[key]` by its plain decimal text, read from what the
 * client wrote, adding the ones refused to `errors`. Recursion follows the schema (ours, a few levels
 * deep), not the client's value: where the schema stops, so does the walk.
 */
function readDecimalFields(schema: JsonSchema, holder: Record<string, unknown>, key: string, path: string, errors: ValidationError[]): void {
  const value = holder[key];
  if (value === undefined) return;
  const rule = schema[DECIMAL_RULE] ?? (isDecimalInput(value) ? schema.anyOf?.find((branch) => branch[DECIMAL_RULE])?.[DECIMAL_RULE] : undefined);
  if (rule) {
    const reading = isDecimalInput(value)
      ? typeof value === 'number'
        ? readDecimalText(numberSource(holder, key, value), 'number', rule)
        : readDecimalText(value, 'string', rule)
      : ({ ok: false, problem: 'must be a number or a string of decimal text' } as const);
    if (reading.ok) holder[key] = reading.text;
    else errors.push({ keyword: 'decimal', instancePath: path, schemaPath: '#', params: {}, message: reading.problem });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const branch of schema.anyOf ?? []) readDecimalFields(branch, holder, key, path, errors);
  if (schema.properties && !Array.isArray(value)) {
    for (const [property, propertySchema] of Object.entries(schema.properties)) {
      if (Object.hasOwn(value, property)) readDecimalFields(propertySchema, value as Record<string, unknown>, property, `${path}/${property}`, errors);
    }
  }
  if (schema.items && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) readDecimalFields(schema.items, value as unknown as Record<string, unknown>, String(i), `${path}/${i}`, errors);
  }
}

/** A failed pattern of ours says what it means (PATTERN_PROBLEMS), not which regular expression. */
function explained(errors: ValidationError[]): ValidationError[] {
  return errors.map((error) => {
    const problem = error.keyword === 'pattern' ? PATTERN_PROBLEMS.get(String(error.params.pattern)) : undefined;
    return problem ? { ...error, message: problem } : error;
  });
}

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  const decimals = httpPart === 'body' && hasDecimalFields(schema as JsonSchema);
  return (input: unknown) => {
    const unstorable = unstorableText(input);
    if (unstorable !== undefined) {
      return { error: [{ keyword: 'text', instancePath: unstorable.path, schemaPath: '#', params: {}, message: unstorable.message }] as unknown as FastifySchemaValidationError[] };
    }
    // No body at all (Fastify hands null) is an empty object: optional-only bodies may be left out.
    const body = httpPart === 'body' && (input === undefined || input === null) ? {} : input;
    // First, so an amount's own problem is the one its details name.
    const refused: ValidationError[] = [];
    if (decimals) readDecimalFields(schema as JsonSchema, { '': body }, '', '', refused);
    const converted = httpPart === 'body' ? body : convertObject(schema as JsonSchema, input);
    const value = Value.Default(schema, converted);
    if (refused.length === 0 && check.Check(value)) return { value };
    const errors = [...refused, ...explained(check.Errors(value) as unknown as ValidationError[])];
    return { error: errors as unknown as FastifySchemaValidationError[] };
  };
};
