/**
 * An example value for a JSON Schema, as the event catalog publishes them (TypeBox output):
 * the schema's own `examples`/`const`/`enum`/`default` first, else a placeholder of its type and
 * format. Enough to show a receiver's developer the shape of each event; never sent anywhere.
 */
type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

const BY_FORMAT: Record<string, string> = {
  'date-time': '2026-11-26T10:30:00.000Z',
  uuid: '01936f3e-8a4b-7c2d-9e1f-0a1b2c3d4e5f',
  date: '2026-11-26',
  email: 'someone@example.com',
  uri: 'https://example.com/',
};

export function exampleOf(schema: unknown, depth = 0): unknown {
  if (!isSchema(schema) || depth > 8) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema) return schema.default;
  const choices = (schema.oneOf ?? schema.anyOf) as unknown;
  if (Array.isArray(choices) && choices.length > 0) {
    // Prefer a non-null branch: `T | null` shows T.
    const branch = choices.find((choice) => !(isSchema(choice) && choice.type === 'null')) ?? choices[0];
    return exampleOf(branch, depth + 1);
  }
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((part) => exampleOf(part, depth + 1) as object));
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') as string | undefined) : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, exampleOf(property, depth + 1)]));
    }
    case 'array':
      return [exampleOf(schema.items, depth + 1)];
    case 'string':
      return typeof schema.format === 'string' && schema.format in BY_FORMAT ? BY_FORMAT[schema.format] : typeof schema.pattern === 'string' && /\\d|\[0-9\]/.test(schema.pattern) ? '100.00' : 'string';
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return isSchema(schema.properties) ? exampleOf({ ...schema, type: 'object' }, depth) : null;
  }
}

/** An event's example body: its schema's example with the event's own name in `event` (kept first). */
export function exampleBody(name: string, payload: unknown): Record<string, unknown> {
  const example = exampleOf(payload);
  const body: Record<string, unknown> = { event: name, ...(isSchema(example) ? example : {}) };
  body.event = name;
  if (typeof body.deliveryId === 'string') body.deliveryId = BY_FORMAT.uuid;
  return body;
}
