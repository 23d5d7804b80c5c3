/**
 * One place that turns every failure into the spec's Error object
 * `{error, message, details?, requestId}`: domain errors, schema validation, body parsing,
 * unknown routes, rate limits and anything unexpected (500 without internals).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { AppError, ERROR_STATUS, type ErrorCode, type ErrorDetails } from '../errors.ts';

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  details?: ErrorDetails;
  requestId: string;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  const body: ErrorBody = { error: error.code, message: error.message, requestId: reply.request.id };
  if (error.details) body.details = error.details;
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send(body);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.code === 'SERVICE_UNAVAILABLE') reply.header('retry-after', '1');
    if (appError.statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.info({ code: appError.code, statusCode: appError.statusCode }, appError.message);
    }
    return sendError(reply, appError);
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendError(reply, new AppError('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`)),
  );
}

/** Fastify's own error codes that reach the handler, by what they mean to a client. */
const FASTIFY_ERRORS: Record<string, (error: FastifyError) => AppError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError('VALIDATION_ERROR', 'Body is not valid JSON'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new AppError('VALIDATION_ERROR', 'Body cannot be empty when content-type is application/json'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AppError('PAYLOAD_TOO_LARGE', 'Body is larger than the allowed limit'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported content-type; send application/json'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new AppError('VALIDATION_ERROR', 'Content-Length does not match the body'),
};

/**
 * pg-pool's errors when the database cannot be had in time: no pooled connection became free
 * within `connectionTimeoutMillis` (every one busy: the process is overloaded), or a new
 * connection did not open in time. Both pass: 503 with `Retry-After`, not a 500 (issue 14's
 * fault suite met the first with 500 concurrent clients on one api process).
 */
const DATABASE_BUSY = new Set(['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout']);

export function toAppError(error: FastifyError | Error): AppError {
  if (error instanceof AppError) return error;
  if (DATABASE_BUSY.has(error.message)) return new AppError('SERVICE_UNAVAILABLE', 'The service is busy; retry shortly');
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return new AppError('VALIDATION_ERROR', 'Request validation failed', {
      ...validationDetails(fastifyError.validation, fastifyError.validationContext ?? 'body'),
    });
  }
  const known = fastifyError.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
  if (known) return known(fastifyError);
  if (fastifyError.statusCode === 429) return new AppError('RATE_LIMITED', 'Too many requests; retry later');
  // Any other client error raised by Fastify or a plugin (bad headers, malformed URL):
  // a 4xx with a generic code; the message is Fastify's own and contains no internals.
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((c) => ERROR_STATUS[c] === status) ?? 'VALIDATION_ERROR';
    return new AppError(code, fastifyError.message);
  }
  return new AppError('INTERNAL_ERROR', 'An unexpected error occurred');
}

/**
 * `details` names each bad field as `location.path` (e.g. `body.name`, `querystring.limit`)
 * with what is wrong with it.
 */
function validationDetails(errors: FastifySchemaValidationError[], location: string): ErrorDetails {
  const details: ErrorDetails = {};
  const at = (path: string) => [location, ...path.split('/').filter(Boolean)].join('.');
  for (const error of errors) {
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required') {
      const missing = (params.requiredProperties ?? [params.missingProperty]) as string[];
      for (const property of missing) details[at(`${error.instancePath}/${property}`)] = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      const extra = (params.additionalProperties ?? [params.additionalProperty]) as string[];
      for (const property of [extra].flat()) details[at(`${error.instancePath}/${property}`)] = 'is not an allowed property';
    } else if (error.schemaPath.endsWith('/additionalProperties')) {
      // The same unknown property, reported a second time by TypeBox's `false` sub-schema.
      continue;
    } else {
      details[at(error.instancePath)] ??= error.message ?? 'is invalid';
    }
  }
  return details;
}
