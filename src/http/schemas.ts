/**
 * Schema pieces shared by every route: the spec's Error object, strict objects, ids, paging,
 * and the trading vocabulary quotes and orders share.
 */
import { Type, type TProperties, type TSchema } from 'typebox';
import { DECIMAL_TEXT_PATTERN, type DecimalRule, MAX_DECIMAL_TEXT_LENGTH } from '../lib/money.ts';
import { ERROR_STATUS, type ErrorCode } from '../errors.ts';
import { ORDER_TYPES } from '../lib/order-types.ts';
import { DISPUTE_OUTCOMES, DISPUTE_STATUSES } from '../lib/dispute-statuses.ts';

/**
 * An object that rejects properties it does not name (DESIGN.md §4: unknown body properties
 * are a 400), so a typo in an optional field is an error instead of a silent no-op.
 */
export const StrictObject = <T extends TProperties>(properties: T, options: { description?: string; title?: string } = {}) =>
  Type.Object(properties, { ...options, additionalProperties: false });

export const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
export const Timestamp = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });

export const IdParams = StrictObject({ id: Uuid() });

/** The schema keyword carrying a DecimalAmount's rule; validator.ts reads the field's raw text by it. */
export const DECIMAL_RULE = 'x-decimal';

/**
 * A money (or rate) field of a request body: a JSON number or a JSON string of plain decimal
 * text, both read from the exact text the client sent (a float never comes in between: 100.999…9
 * is refused for having too many decimals, not rounded to 101.00). More decimals than
 * `places`, or a value out of range, is 400 VALIDATION_ERROR naming the field. The route then
 * gets the value as plain decimal text without trailing zeros (`100.50`, `"100.50"`, `1.005e2`:
 * all "100.5"). Request bodies only: answers carry JSON numbers, as the spec says.
 */
export const DecimalAmount = ({ description, decimals, ...rule }: DecimalRule & { description: string; decimals?: string }) => {
  const range = [
    rule.exclusiveMinimum !== undefined ? `greater than ${rule.exclusiveMinimum}` : `at least ${rule.minimum ?? '0'}`,
    `at most ${rule.maximum}`,
  ].join(', ');
  return Type.Unsafe<string>({
    anyOf: [{ type: 'number' }, { type: 'string', pattern: DECIMAL_TEXT_PATTERN, maxLength: MAX_DECIMAL_TEXT_LENGTH }],
    description: `${description}. A JSON number or a string of plain decimal text ("100.50"), read exactly as sent: ${decimals ?? `at most ${rule.places} decimals`} (more is 400, never rounded), ${range}`,
    [DECIMAL_RULE]: rule,
  });
};

/**
 * Free text shown to people (names, addresses): no control characters (Cc), no format characters
 * (Cf: zero-width spaces and joiners, the bidi embeddings, overrides, isolates and marks, the
 * BOM), no lone surrogates (Cs) and no line or paragraph separators (Zl, Zp). A right-to-left
 * override makes "Maria <U+202E>acram" display as a different name in a dashboard or receipt;
 * an invisible character makes two names that look alike differ.
 */
const HUMAN_TEXT_PATTERN = '^[^\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}]*$';
const HUMAN_NAME_PATTERN = '^(?=.*\\S)[^\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}]*$';
const HIDDEN_CHARACTERS = 'control, format (zero-width, bidi) or line-separator characters';

/** What a failed pattern means, for the 400's details (validator.ts), instead of the bare regular expression. */
export const PATTERN_PROBLEMS: ReadonlyMap<string, string> = new Map([
  [HUMAN_TEXT_PATTERN, `must not contain ${HIDDEN_CHARACTERS}`],
  [HUMAN_NAME_PATTERN, `must not be only spaces, nor contain ${HIDDEN_CHARACTERS}`],
  [DECIMAL_TEXT_PATTERN, 'must be plain decimal text such as "100.50" (no exponent, no spaces)'],
]);

/** Free text of a person's record (an address line, a phone number): as a name, without the length rules. */
export const HumanText = (options: { minLength: number; maxLength: number; description?: string }) =>
  Type.String({
    ...options,
    pattern: HUMAN_TEXT_PATTERN,
    description: [options.description, `No ${HIDDEN_CHARACTERS}`].filter(Boolean).join('. '),
  });

/** A person's or company's name: HumanText of 2 to 255 characters, not only spaces. */
export const HumanName = (description?: string) =>
  Type.String({
    minLength: 2,
    maxLength: 255,
    pattern: HUMAN_NAME_PATTERN,
    description: [description, `2 to 255 characters, not only spaces; no ${HIDDEN_CHARACTERS}`].filter(Boolean).join('. '),
  });

/** A string or number field that may be null. */
export const Nullable = <T extends ReturnType<typeof Type.String | typeof Type.Number>>(schema: T) => Type.Union([schema, Type.Null()]);

// The trading vocabulary of quotes and orders (DESIGN.md §4, §10): both modules' bodies and
// records use these, so a quote and the order that names it describe themselves alike. The
// `title` makes the enum one component of the OpenAPI document (openapi-components.ts), which every
// use refers to: a generator emits one OrderType instead of a union per field.
export const OrderTypeField = Type.Enum(ORDER_TYPES, { title: 'OrderType', description: 'Order type: PAYIN or PAYOUT' });

// A MED claim's, published by the disputes API and by an order's timeline (its DISPUTE entries).
export const DisputeStatusSchema = Type.Enum([...DISPUTE_STATUSES], { title: 'DisputeStatus', description: 'OPEN → DEFENDED → ACCEPTED | REJECTED | CANCELLED' });
export const DisputeOutcomeSchema = Type.Enum([...DISPUTE_OUTCOMES], { title: 'DisputeOutcome' });
export const ChainField = Type.String({ minLength: 1, maxLength: 20, description: 'Blockchain network, lowercase; default solana' });
export const TokenField = Type.String({ minLength: 1, maxLength: 10, description: 'Token symbol; default USDC' });
/** Largest amount a body may carry (the spec's bound; ORDER_MAX_AMOUNT_BRL is far lower). */
const MAX_BODY_AMOUNT = '10000000000000';
/** A positive BRL amount of a request body: centavos at most. */
export const BrlAmountInput = (description: string) =>
  DecimalAmount({ places: 2, exclusiveMinimum: '0', maximum: MAX_BODY_AMOUNT, description: `${description}; BRL` });
/**
 * A positive token amount of a request body. Its decimals are checked, on the same exact text,
 * once the token is known (trade-rules.ts: USDC 6), so the 400 names the token's own limit.
 */
export const TokenAmountInput = (description: string) =>
  DecimalAmount({ places: MAX_DECIMAL_TEXT_LENGTH, exclusiveMinimum: '0', maximum: MAX_BODY_AMOUNT, decimals: "at most the token's decimals (USDC: 6)", description: `${description}; token units` });
/** Quotes and orders carry percent numbers (1.5 = 1.5 %); fee tiers carry fractions (DESIGN.md §4). */
/**
 * A fee percentage as every payload shows it: a fraction, the spec's unit for fee tiers ("Fee
 * tier percentages are fractions"), so orders, quotes and tiers read alike.
 */
export const FeeFraction = (description: string) => Type.Number({ description: `${description}, a fraction: 0.005 is 0.5 %` });

/**
 * The error catalogue (src/errors.ts ERROR_STATUS) as one named enum: the Error object's `error`
 * is one of these, so a generated client can switch on it and a typo fails to compile. A code
 * added to the catalogue is added here by itself; a client built before may meet a code it does
 * not list, and should treat it by the HTTP status.
 */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
const ErrorCodeSchema = Type.Unsafe<ErrorCode>({
  type: 'string',
  enum: ERROR_CODES,
  title: 'ErrorCode',
  description: 'Stable machine code of the error, from the catalogue; the HTTP status of each is fixed (VALIDATION_ERROR 400, NOT_FOUND 404, KYC_NOT_APPROVED 422, …)',
  examples: ['VALIDATION_ERROR'],
});

export const ErrorObject = Type.Object(
  {
    error: ErrorCodeSchema,
    message: Type.String({ description: 'Human-readable explanation' }),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Free-form key/value details; for validation errors, one entry per bad field (location.path: problem)',
      }),
    ),
    requestId: Type.String({ description: 'Correlation id; equals the x-request-id response header' }),
  },
  { $id: 'Error', title: 'Error', description: 'The Error object of every non-2xx answer' },
);

const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (VALIDATION_ERROR)',
  401: 'Missing, invalid or expired credentials (UNAUTHORIZED)',
  403: 'Authenticated but not allowed (FORBIDDEN)',
  404: 'Not found, or owned by another merchant (NOT_FOUND)',
  409: 'Conflict with the current state (CONFLICT, IDEMPOTENCY_CONFLICT)',
  413: 'Body too large (PAYLOAD_TOO_LARGE)',
  410: 'The link is unknown, already used or expired (LINK_INVALID)',
  415: 'Body is not JSON (UNSUPPORTED_MEDIA_TYPE)',
  422: 'A business rule refused the request (see the error code)',
  429: 'Too many requests (RATE_LIMITED); wait Retry-After seconds',
  500: 'Unexpected failure (INTERNAL_ERROR); no internals are disclosed',
  503: 'A dependency is unavailable',
};

const errorRef = (description: string) => Type.Unsafe<{ error: string; message: string; requestId: string }>({ $ref: 'Error#', description });

/**
 * Response schemas for the error statuses a route can answer, for OpenAPI. Every route gets
 * 500; pass the others it can produce.
 */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const all = new Set([...statuses, 500]);
  return Object.fromEntries([...all].sort().map((status) => [status, errorRef(STATUS_DESCRIPTIONS[status] ?? 'Error')]));
}

/** Error statuses of every route protected by merchant authentication (and its rate limit). */
export const AUTHENTICATED_ERRORS = [401, 403, 429] as const;
/** Error statuses of every route that reads a JSON body. */
export const BODY_ERRORS = [400, 413, 415] as const;

const BODY_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A request with a body can be too large or not JSON even where the route reads none: every route
 * whose method allows a body documents 413 and 415 (added when the route is registered).
 */
export function documentBodyErrors(route: { method: string | string[]; schema?: { response?: unknown } }): void {
  if (![route.method].flat().some((method) => BODY_METHODS.includes(method))) return;
  documentErrors(route, [413, 415]);
}

/** Adds error statuses a whole scope can answer (its guard's) to a route's documented responses. */
export function documentErrors(route: { schema?: { response?: unknown } }, statuses: number[]): void {
  const response = route.schema?.response as Record<number, TSchema> | undefined;
  if (!response) return;
  for (const status of statuses) response[status] ??= errorRef(STATUS_DESCRIPTIONS[status]!);
}

/** ACTIVE or DISABLED: a merchant's status and a standing instrument's, one component (ActivityStatus). */
export const ActivityStatus = (description: string) => Type.Enum(['ACTIVE', 'DISABLED'], { title: 'ActivityStatus', description });

/** A simulated PIX payer (the sandbox's payment drivers): titled, one component for every driver. */
export const SandboxPayer = () =>
  Type.Union(
    [
      StrictObject(
        {
          document: Type.String({ minLength: 11, maxLength: 18, description: "The payer's CPF or CNPJ, digits or formatted" }),
          name: Type.String({ minLength: 1, maxLength: 200 }),
        },
        { title: 'SandboxPayer' },
      ),
      Type.Null(),
    ],
    { description: 'Who pays; default the receiver; null: the PSP does not report the payer' },
  );
