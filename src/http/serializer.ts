/**
 * Fastify's own response serializers (fast-json-stringify), compiled once per schema per process,
 * when a response first needs one.
 *
 * Compiled at registration, an app's ~120 distinct response schemas made a service's start
 * about 0.5 s of CPU longer (2.4 s instead of 1.9 s on PostgreSQL; fast-json-stringify builds an
 * ajv validator for every anyOf), most of them for answers the process never gives. Every app
 * built in one process (the test suite builds hundreds in each worker) registers the same routes
 * again, so the key is the schema's JSON with the shared schemas' (app.addSchema): a serializer
 * reads nothing else, and many routes write their schemas inline, so the same schema comes back as
 * a new object with each app.
 *
 * A schema fast-json-stringify cannot compile would fail its first response instead of the start:
 * compilePendingSerializers() compiles every one not compiled yet, and a test calls it on an app.
 */
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Serialize = (data: unknown) => string;

const compileWith = SerializerSelector();
const compiled = new Map<string, Serialize>();
/** One compile per distinct schema not yet needed (bounded by the schemas, however many apps). */
const pending = new Map<string, () => Serialize>();

/** The key's serializer, compiled now if no app has needed it yet; a schema that fails stays uncompiled (and is no longer pending). */
function compiledFor(key: string, compile: () => Serialize): Serialize {
  let serialize = compiled.get(key);
  if (!serialize) {
    pending.delete(key);
    serialize = compile();
    compiled.set(key, serialize);
  }
  return serialize;
}

export const buildSerializer: SerializerFactory = (externalSchemas, serializerOptions) => {
  const compileWithShared = compileWith(externalSchemas, serializerOptions);
  const context = JSON.stringify([externalSchemas ?? {}, serializerOptions ?? {}]);
  return (route) => {
    const key = `${context}\n${JSON.stringify(route.schema)}`;
    const ready = compiled.get(key);
    if (ready) return ready;
    const compile = () => compileWithShared(route) as Serialize;
    if (!pending.has(key)) pending.set(key, compile);
    let serialize: Serialize | undefined;
    return (data: unknown) => (serialize ??= compiledFor(key, compile))(data);
  };
};

/** Compiles every serializer registered and not compiled yet, throwing at the first that fails (as Fastify would have at start); answers how many. */
export function compilePendingSerializers(): number {
  const entries = [...pending];
  for (const [key, compile] of entries) compiledFor(key, compile);
  return entries.length;
}
