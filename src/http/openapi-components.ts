/**
 * The document as code generators read it: a generator names a type after a schema only when the
 * schema sits in `components.schemas`; a schema written inline wherever a route uses it becomes a
 * new type at each use (`Order` once per route that answers an order, under names such as
 * `CreatePayin201`). So every schema with a `title` is moved to `components.schemas` under that
 * title and each use becomes a `$ref` (hoistNamedSchemas), and a success response without a
 * description of its own is described from the schema it answers (describeResponses), instead of
 * @fastify/swagger's "Default Response".
 */

type Json = Record<string, unknown>;
type Response = { description?: string; content?: Record<string, { schema?: Json }> };
type Document = {
  webhooks?: Record<string, unknown>;
  paths?: Record<string, Record<string, { responses?: Record<string, Response> }>>;
  components?: { schemas?: Record<string, Json> };
};

const COMPONENTS = '#/components/schemas/';

/** Keywords whose values are data (examples, defaults), never schemas: a `title` in them names nothing. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum', 'x-decimal']);
/** Annotations a use may add to a named schema without making it another schema. */
const ANNOTATIONS = ['description'] as const;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema without its annotations, as stable text, to tell the same schema from another of the same title. */
function shape(schema: Json): string {
  const rest: Json = { ...schema };
  for (const key of ANNOTATIONS) delete rest[key];
  return JSON.stringify(rest, (_key, value: unknown) =>
    isObject(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
  );
}

/**
 * Moves every titled schema of the paths, webhooks and components to `components.schemas[title]`, innermost
 * first (so `Order` refers to `OrderTransaction`), and puts a `$ref` in its place. A use that adds
 * its own description keeps it beside the `$ref` (OpenAPI 3.1). Two different schemas under one
 * title would make one of them wrong for a generator: that throws, naming the title.
 *
 * Operations' parameters are visited after everything else: @fastify/swagger moves a parameter
 * schema's description onto the parameter, so a parameter holds a named schema (an enum such as
 * OrderStatus) without its description, and the component must take it from a body or an answer.
 */
export function hoistNamedSchemas<T extends Document>(document: T): T & { components: { schemas: Record<string, Json> } } {
  const schemas: Record<string, Json> = { ...document.components?.schemas };
  const shapes = new Map<string, string>();

  const visit = (node: unknown, isSchema: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, isSchema));
    if (!isObject(node)) return node;
    const copy: Json = {};
    for (const [key, value] of Object.entries(node)) copy[key] = DATA_KEYWORDS.has(key) ? value : visit(value, true);
    const title = copy.title;
    if (!isSchema || typeof title !== 'string' || typeof copy.$ref === 'string') return copy;
    const known = shapes.get(title);
    const mine = shape(copy);
    if (known === undefined) {
      shapes.set(title, mine);
      schemas[title] = copy;
    } else if (known !== mine) {
      throw new Error(`OpenAPI: two different schemas are titled ${title}; give one of them another title`);
    }
    const own = schemas[title]!.description === copy.description ? {} : { description: copy.description };
    return { $ref: `${COMPONENTS}${title}`, ...(copy.description === undefined ? {} : own) };
  };

  // Components first, so a schema registered there (Error) keeps its place and text.
  for (const [name, schema] of Object.entries(schemas)) {
    const hoisted = visit(schema, false) as Json;
    schemas[name] = hoisted;
    if (typeof hoisted.title === 'string') shapes.set(hoisted.title, shape(hoisted));
  }
  const later: Array<() => void> = [];
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, methods]) => [
      path,
      Object.fromEntries(
        Object.entries(methods).map(([method, operation]) => {
          const copy: Json = {};
          for (const [key, value] of Object.entries(operation)) {
            copy[key] = key === 'parameters' ? value : visit(value, true);
            if (key === 'parameters') later.push(() => (copy[key] = visit(value, true)));
          }
          return [method, copy];
        }),
      ),
    ]),
  ) as Document['paths'];
  const webhooks = document.webhooks === undefined ? {} : { webhooks: visit(document.webhooks, false) as Document['webhooks'] };
  for (const visitParameters of later) visitParameters();
  return { ...document, paths, ...webhooks, components: { ...document.components, schemas } };
}

const STATUS_WORDS: Record<string, string> = { '201': 'The created', '202': 'Accepted:' };

/** `WebhookDeliveryPage` → "webhook delivery page"; KYC stays an acronym. */
const words = (title: string) =>
  title
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\bkyc\b/g, 'KYC');

const plural = (noun: string) => (/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`);

/** What a named schema is, in words: `OrderPage` is "a page of orders", `Receiver` "receiver". */
function nounOf(schema: Json | undefined, schemas: Record<string, Json>): string | undefined {
  if (!schema) return undefined;
  const ref = typeof schema.$ref === 'string' && schema.$ref.startsWith(COMPONENTS) ? schema.$ref.slice(COMPONENTS.length) : undefined;
  const title = ref ?? (typeof schema.title === 'string' ? schema.title : undefined);
  if (title) {
    const page = /^(.+)Page$/.exec(title);
    return page ? `page of ${plural(words(page[1]!))}` : words(title);
  }
  if (schema.type === 'array' && isObject(schema.items)) {
    const item = nounOf(schema.items, schemas);
    return item === undefined ? undefined : `list of ${plural(item)}`;
  }
  return undefined;
}

/**
 * Each 2xx response still reading "Default Response" is described from the schema it answers:
 * 200 "The receiver", 201 "The created order", 202 "Accepted: the webhook delivery", a page
 * "The page of orders". A response whose schema has no title is left alone: hoisting has named
 * every schema worth naming, so the check (test/http/openapi.test.ts) finds such a route for a title.
 */
export function describeResponses<T extends Document>(document: T): T {
  const schemas = document.components?.schemas ?? {};
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!status.startsWith('2') || response.description !== 'Default Response') continue;
        const noun = nounOf(response.content?.['application/json']?.schema, schemas);
        if (noun === undefined) continue;
        const opening = STATUS_WORDS[status];
        response.description = opening ? `${opening} ${opening.endsWith(':') ? 'the ' : ''}${noun}` : `The ${noun}`;
      }
    }
  }
  return document;
}
