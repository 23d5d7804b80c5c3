/**
 * Request validation with TypeBox's compiled checker. Bodies are never coerced (a "10" is not a
 * number in a payments API). Query strings, path parameters and headers arrive as text and are
 * converted strictly: only plain decimal text becomes a number ("2.5" is not an integer, "1e2"
 * and "0x10" are not numbers at all), only "true"/"false" a boolean. Schema defaults are applied
 * to every part before checking. A NUL character anywhere is refused (PostgreSQL text cannot hold
 * it: it would otherwise surface as a 500), and a request without a body is checked as `{}`.
 */
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';

type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[]; properties?: Record<string, JsonSchema> };

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
 * The path of the first string holding U+0000, which PostgreSQL text cannot store. A loop over
 * an explicit stack, not recursion: the input is the client's (json-body.ts bounds its depth too).
 */
function nulBytePath(input: unknown): string | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value: input, path: '' }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (value !== null && typeof value === 'object') {
      // Reversed onto the stack, so the first property is looked at first.
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) pending.push({ value: entries[i]![1], path: `${path}/${entries[i]![0]}` });
    }
  }
  return undefined;
}

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  return (input: unknown) => {
    const nul = nulBytePath(input);
    if (nul !== undefined) {
      return { error: [{ keyword: 'nul', instancePath: nul, schemaPath: '#', params: {}, message: 'must not contain a NUL character' }] as unknown as FastifySchemaValidationError[] };
    }
    // No body at all (Fastify hands null) is an empty object: optional-only bodies may be left out.
    const body = httpPart === 'body' && (input === undefined || input === null) ? {} : input;
    const converted = httpPart === 'body' ? body : convertObject(schema as JsonSchema, input);
    const value = Value.Default(schema, converted);
    if (check.Check(value)) return { value };
    return { error: check.Errors(value) as unknown as FastifySchemaValidationError[] };
  };
};
