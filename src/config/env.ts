/**
 * Environment variables read against a TypeBox schema, the way env-schema does it, but strictly:
 * an integer is plain decimal text (no "1e3", no "2.5", no "0x10"), a boolean is true/false,
 * 1/0 or yes/no, a list is comma-separated. Each variable's schema carries its description, its
 * default and the wording of its error; a refused value is reported on one line that names the
 * variable, and is then treated as unset so that checks across variables still see a sound value.
 */
import { type Static, type StaticDecode, type TObject, type TProperties, type TSchema, Type } from 'typebox';
import { Value } from 'typebox/value';

export type Env = Record<string, string | undefined>;

/** Keywords a variable's schema carries besides JSON Schema's own. */
export interface EnvKeywords {
  /** What the variable is for (README's Configuration table says the same). */
  description: string;
  /** Completes "<NAME> …" when the value does not fit the type: "must be an integer from 0 to 65535". */
  errorMessage: string;
  /**
   * How a refused value is quoted after errorMessage: the value itself (the default), the refused
   * items of a list, or never (secrets, and URLs that may carry credentials).
   */
  quote?: 'value' | 'items' | 'never';
  /** Lists: empty items ("a,,b") are dropped rather than refused. */
  dropEmptyItems?: boolean;
}

interface Options<T> {
  description: string;
  /** Used when the variable is unset or empty; a variable without one is Type.Optional. */
  default?: T;
}

type Quote = Pick<EnvKeywords, 'quote'>;

export const integer = (options: Options<number> & { minimum: number; maximum: number }) =>
  Type.Integer({ ...options, errorMessage: `must be an integer from ${options.minimum} to ${options.maximum}` });

export const boolean = (options: Options<boolean>) => Type.Boolean({ ...options, errorMessage: 'must be true or false' });

export const oneOf = <const Values extends string[]>(values: readonly [...Values], options: Options<Values[number]>) =>
  Type.Enum(values, { ...options, errorMessage: `must be one of ${values.join(', ')}` });

/** Text, optionally of a pattern or a least length. */
export const text = (options: Options<string> & Quote & { pattern?: string; minLength?: number; errorMessage?: string }) =>
  Type.String({ errorMessage: 'must be text', ...options });

/** A non-negative decimal with at most `places` decimals, kept as text (money is never a float). */
export const decimalText = (places: number, options: Options<string>) =>
  text({ ...options, pattern: `^\\d{1,15}(\\.\\d{1,${places}})?$`, errorMessage: `must be a non-negative decimal with at most ${places} decimals` });

/** "HH:MM" in 24-hour time. */
export const clockTime = (options: Options<string>) =>
  text({ ...options, pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', errorMessage: 'must be a time HH:MM' });

/** A secret: at least `minLength` characters, never quoted back. */
export const secret = (minLength: number, options: Options<string>) =>
  text({ ...options, minLength, quote: 'never', errorMessage: `must be at least ${minLength} characters long` });

/** Comma-separated items, each read as `items` is. */
export const list = <Item extends TSchema>(
  items: Item,
  options: Options<Static<Item>[]> & Quote & { errorMessage: string; minItems?: number; maxItems?: number; dropEmptyItems?: boolean },
) => Type.Array(items, { ...options });

/** A value that must also pass `check`; when it does not, `message` is the whole complaint (nothing is quoted). */
export const refine = <Schema extends TSchema>(schema: Schema, check: (value: Static<Schema>) => boolean, message: string) =>
  Type.Refine(schema, check, () => message);

/** Text that `check` accepts; the value is never quoted back (keys, URLs with credentials). */
export const checkedText = (check: (value: string) => boolean, options: Options<string> & { errorMessage: string }) =>
  refine(text({ ...options, quote: 'never' }), check, options.errorMessage);

/** A variable's schema as the reader sees it. */
export type VariableSchema = TSchema & EnvKeywords & { type?: string; items?: TSchema; default?: unknown };

/** The variables of a schema with their schemas, in order. */
export function variablesOf(schema: TObject): [string, VariableSchema][] {
  return Object.entries(schema.properties) as [string, VariableSchema][];
}

/** Every variable the schema lists, decoded; a bad one is added to `problems` (in schema order) and read as unset. */
export function readEnv<Properties extends TProperties>(schema: TObject<Properties>, env: Env): { values: StaticDecode<TObject<Properties>>; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, type] of variablesOf(schema)) {
    const raw = env[name]?.trim();
    if (raw) {
      const text = type.type === 'boolean' ? raw.toLowerCase() : raw;
      const value = fromText(type, text);
      if (Value.Check(type, value)) {
        values[name] = Value.Decode(type, value);
        continue;
      }
      problems.push(`${name} ${problem(type, text, value)}`);
    }
    values[name] = type.default === undefined ? undefined : Value.Decode(type, type.default);
  }
  return { values: values as StaticDecode<TObject<Properties>>, problems };
}

const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** The text as the JSON type its schema expects; text that cannot be read so is left as it is, for the schema to refuse. */
function fromText(type: VariableSchema, text: string): unknown {
  switch (type.type) {
    case 'integer': {
      const parsed = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
      return Number.isSafeInteger(parsed) ? parsed + 0 : text; // + 0: "-0" is 0
    }
    case 'boolean':
      return TRUE.has(text) ? true : FALSE.has(text) ? false : text;
    case 'array': {
      const items = text.split(',').map((item) => item.trim());
      return (type.dropEmptyItems ? items.filter(Boolean) : items).map((item) => fromText(type.items as VariableSchema, item));
    }
    default:
      return text;
  }
}

/** What is wrong with a value its schema refuses: a refinement's own message, else errorMessage and the quote. */
function problem(type: VariableSchema, text: string, value: unknown): string {
  const refinement = Value.Errors(type, value).find((error) => error.keyword === '~refine' && error.instancePath === '');
  if (refinement) return refinement.message;
  if (type.quote === 'never') return type.errorMessage;
  if (type.quote === 'items' && Array.isArray(value)) {
    const bad = value.filter((item) => !Value.Check(type.items!, item));
    if (bad.length > 0 || value.length === 0) return `${type.errorMessage} (bad: ${bad.join(', ') || 'empty list'})`;
  }
  return `${type.errorMessage} (got "${text}")`;
}
