/**
 * A VALIDATION_ERROR's `details` name the fields (`body.document`: 'is not a valid CPF'): this
 * picks them out by field name, so a form shows each message at its input.
 */
import { isApiError } from './errors.ts';

export function fieldErrors(error: unknown): Record<string, string> {
  if (!isApiError(error) || error.code !== 'VALIDATION_ERROR' || !error.details) return {};
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(error.details)) {
    if (key.startsWith('body.') && typeof value === 'string') fields[key.slice('body.'.length)] = value;
  }
  return fields;
}
