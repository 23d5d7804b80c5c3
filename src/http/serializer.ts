/**
 * Fastify's own response serializers (fast-json-stringify), compiled once per schema per process.
 * Every app built in one process (the test suite builds hundreds in each worker) registers the
 * same routes again; compiling their response schemas again was 60 % of an app's build
 * (bench/cpuprofile-top.ts over buildApp). The key is the schema's JSON with the shared schemas'
 * (app.addSchema): a serializer reads nothing else, and many routes write their schemas inline,
 * so the same schema comes back as a new object with each app.
 */
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Serialize = (data: unknown) => string;

const compileWith = SerializerSelector();
const compiled = new Map<string, Serialize>();

export const buildSerializer: SerializerFactory = (externalSchemas, serializerOptions) => {
  const compile = compileWith(externalSchemas, serializerOptions);
  const context = JSON.stringify([externalSchemas ?? {}, serializerOptions ?? {}]);
  return (route) => {
    const key = `${context}\n${JSON.stringify(route.schema)}`;
    let serialize = compiled.get(key);
    if (!serialize) compiled.set(key, (serialize = compile(route) as Serialize));
    return serialize;
  };
};
