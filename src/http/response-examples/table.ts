/**
 * The shape of the answer-example tables: by operationId, then by status, the body of one
 * realistic answer. A response with several media types (a CSV or NDJSON export) takes one
 * example per media type, wrapped by perMediaType so that a JSON example shaped like a map of
 * media types is never mistaken for one.
 */
export type ResponseExamples = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

const MEDIA_TYPES = Symbol('perMediaType');

export type PerMediaType = { readonly [MEDIA_TYPES]: Readonly<Record<string, unknown>> };

export const perMediaType = (examples: Record<string, unknown>): PerMediaType => ({ [MEDIA_TYPES]: examples });

/** The example for one media type of a response: the one given for it, or the example given for all. */
export function exampleFor(example: unknown, mediaType: string): unknown {
  if (typeof example === 'object' && example !== null && MEDIA_TYPES in example) return (example as PerMediaType)[MEDIA_TYPES][mediaType];
  return example;
}
