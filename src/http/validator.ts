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

/** The path of the first string holding U+0000, which PostgreSQL text cannot store. */
function nulBytePath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nulBytePath(item, `${path}/${key}`);
    if (found !== undefined) return found;
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
