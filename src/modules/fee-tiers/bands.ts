/**
 * The pure rules of fee-tier bands (spec, PUT /fee-tiers/{orderType}): a schedule is a list of
 * contiguous volume bands [minVolumeBrl, maxVolumeBrl) starting at 0, the last one possibly
 * unbounded (null), each with a fee rate. Rates are FRACTIONS (0.005 = 0.5 %). Everything is
 * compared and added as decimals, never floats.
 */
import { AppError, type ErrorDetails } from '../../errors.ts';
import { type Dec, decimal, hasAtMostDecimals } from '../../lib/money.ts';

/** NUMERIC(18,2) holds more, but 15 significant digits is what a JSON number carries exactly. */
export const MAX_VOLUME_BRL = '9999999999999.99';
export const VOLUME_DECIMALS = 2;
/** The columns are NUMERIC(10,8) with a check `< 1`. */
export const PLATFORM_FEE_DECIMALS = 8;
export const MERCHANT_FEE_DECIMALS = 6;

export interface BandInput {
  minVolumeBrl: number | string;
  maxVolumeBrl: number | string | null;
}

export interface Band {
  minVolumeBrl: Dec;
  maxVolumeBrl: Dec | null;
  rate: Dec;
}

/** How the rate field of one kind of schedule is named and bounded. */
export interface RateRule {
  field: string;
  /** Highest allowed value; inclusive unless `maxExclusive`. */
  max: string;
  maxExclusive?: boolean;
  places: number;
}

export interface BandRules {
  rate: RateRule;
  maxTiers: number;
}

/**
 * Checks a schedule sent in a body and returns it as decimals, or throws 400 VALIDATION_ERROR
 * whose `details` has one entry per offending field, keyed `body.<index>.<field>` (or `body`
 * for rules about the whole array), like the schema validator's.
 */
export function parseBands<T extends BandInput>(tiers: readonly T[], rules: BandRules): Band[] {
  const details: ErrorDetails = {};
  if (tiers.length === 0) details.body = 'must contain at least one tier';
  if (tiers.length > rules.maxTiers) details.body = `must contain at most ${rules.maxTiers} tiers`;

  // Each field is read on its own, so one bad field does not hide the others' problems.
  const parsed = tiers.map((tier, index) => {
    const at = (field: string) => `body.${index}.${field}`;
    const min = readAmount(tier.minVolumeBrl, at('minVolumeBrl'), details);
    let max = tier.maxVolumeBrl === null ? null : readAmount(tier.maxVolumeBrl, at('maxVolumeBrl'), details);
    const rate = readRate((tier as unknown as Record<string, unknown>)[rules.rate.field], rules.rate, at(rules.rate.field), details);
    if (min && max && max.lte(min)) {
      details[at('maxVolumeBrl')] = `must be greater than minVolumeBrl (${min.toString()})`;
      max = undefined;
    }
    return { minVolumeBrl: min, maxVolumeBrl: max, rate };
  });

  parsed.forEach((band, index) => {
    const at = (field: string) => `body.${index}.${field}`;
    if (index < parsed.length - 1 && band.maxVolumeBrl === null) {
      details[at('maxVolumeBrl')] = 'only the last tier may have no upper bound (null)';
    }
    if (!band.minVolumeBrl) return;
    if (index === 0) {
      if (!band.minVolumeBrl.isZero()) details[at('minVolumeBrl')] = 'must be 0: the first tier starts at zero volume';
      return;
    }
    const previousMax = parsed[index - 1]?.maxVolumeBrl;
    // An invalid or unbounded previous max is reported on its own; there is nothing to compare with.
    if (previousMax && !band.minVolumeBrl.eq(previousMax)) {
      details[at('minVolumeBrl')] =
        `must equal the previous tier's maxVolumeBrl (${previousMax.toString()}): tiers are contiguous, without gaps or overlaps`;
    }
  });

  // In tier order (the whole array first), so the message names the first problem a reader meets.
  const indexOf = (key: string) => Number(key.split('.')[1] ?? -1);
  const problems = Object.entries(details).sort(([a], [b]) => indexOf(a) - indexOf(b));
  if (problems.length > 0) {
    const [key, problem] = problems[0]!;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more, see details)` : '';
    throw new AppError('VALIDATION_ERROR', `Invalid fee tiers: ${key} ${String(problem)}${more}`, Object.fromEntries(problems));
  }
  return parsed as Band[];
}

function readAmount(value: number | string, key: string, details: ErrorDetails): Dec | undefined {
  const amount = readDecimal(value);
  if (!amount) details[key] = 'must be a finite number';
  else if (amount.isNegative()) details[key] = 'must be >= 0';
  else if (amount.gt(MAX_VOLUME_BRL)) details[key] = `must be <= ${MAX_VOLUME_BRL}`;
  else if (!hasAtMostDecimals(amount, VOLUME_DECIMALS)) details[key] = `must have at most ${VOLUME_DECIMALS} decimal places`;
  else return amount.isZero() ? decimal(0) : amount;
  return undefined;
}

function readRate(value: unknown, rule: RateRule, key: string, details: ErrorDetails): Dec | undefined {
  const rate = typeof value === 'number' || typeof value === 'string' ? readDecimal(value) : undefined;
  const range = `must be a fraction from 0 to ${rule.max}${rule.maxExclusive ? ' (exclusive)' : ''} (0.01 = 1 %)`;
  if (!rate) details[key] = 'must be a finite number';
  else if (rate.isNegative() || (rule.maxExclusive ? rate.gte(rule.max) : rate.gt(rule.max))) details[key] = range;
  else if (!hasAtMostDecimals(rate, rule.places)) details[key] = `must have at most ${rule.places} decimal places`;
  else return rate.isZero() ? decimal(0) : rate;
  return undefined;
}

function readDecimal(value: number | string): Dec | undefined {
  try {
    const parsed = decimal(value);
    return parsed.isFinite() ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The band in force at a volume: the one whose [min, max) contains it; a volume at or above the
 * last band's max (when that max is not null) falls in the last band. `bands` is a valid
 * schedule (contiguous from 0) in any order; undefined only for an empty schedule or a negative volume.
 */
export function bandAt<B extends { minVolumeBrl: Dec | string }>(bands: readonly B[], volume: Dec | string): B | undefined {
  const at = decimal(volume);
  let found: B | undefined;
  for (const band of bands) {
    if (decimal(band.minVolumeBrl).lte(at) && (!found || decimal(band.minVolumeBrl).gt(found.minVolumeBrl))) found = band;
  }
  return found;
}

/**
 * Spec rule 3: the platform fee is the platform's, never the caller's. Runs on the raw body
 * before schema validation so the answer says why, instead of a bare "not an allowed property".
 */
export function rejectPlatformFeeInBody(body: unknown): void {
  if (!Array.isArray(body)) return;
  const details: ErrorDetails = {};
  body.forEach((tier, index) => {
    if (tier !== null && typeof tier === 'object' && Object.hasOwn(tier, 'platformFeePercentage')) {
      details[`body.${index}.platformFeePercentage`] = 'is set by the platform and cannot be sent';
    }
  });
  if (Object.keys(details).length > 0) {
    throw new AppError('VALIDATION_ERROR', 'platformFeePercentage is set by the platform and cannot be sent', details);
  }
}
