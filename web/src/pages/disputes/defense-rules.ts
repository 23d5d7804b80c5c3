/**
 * The defence form's checks, the API's DisputeDefenseRequest limits (src/modules/disputes/schemas.ts)
 * checked before sending so a person sees each problem at its field: a justification of 10 to 1,500
 * characters, at most 10 pieces of evidence, each with a description of 1 to 500 characters, an
 * optional http(s) address of up to 2,000 and an optional SHA-256 in hex. Lengths count code points,
 * as JSON Schema does. No React: test/web reads it directly.
 */
import type { components } from '../../api/schema.ts';

export type DefenseBody = components['schemas']['DisputeDefenseRequest'];

export const LIMITS = { justificationMin: 10, justificationMax: 1500, evidenceMax: 10, descriptionMax: 500, urlMax: 2000 } as const;

export interface EvidenceRow {
  /** A key for React only: rows are added and removed. */
  key: number;
  description: string;
  url: string;
  sha256: string;
}

export type Problem =
  | 'justificationShort'
  | 'justificationLong'
  | 'descriptionMissing'
  | 'descriptionLong'
  | 'url'
  | 'sha256';

/** Problems by field: `justification`, or `evidence.<i>.<description|url|sha256>` (the API's `details` names, less `body.`). */
export type Problems = Record<string, Problem>;

export const length = (text: string) => [...text].length;

function httpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export function checkDefense(justification: string, rows: readonly EvidenceRow[]): Problems {
  const problems: Problems = {};
  const text = length(justification.trim());
  if (text < LIMITS.justificationMin) problems.justification = 'justificationShort';
  else if (text > LIMITS.justificationMax) problems.justification = 'justificationLong';
  rows.forEach((row, index) => {
    const description = length(row.description.trim());
    if (description === 0) problems[`evidence.${index}.description`] = 'descriptionMissing';
    else if (description > LIMITS.descriptionMax) problems[`evidence.${index}.description`] = 'descriptionLong';
    const url = row.url.trim();
    if (url && (url.length > LIMITS.urlMax || !httpUrl(url))) problems[`evidence.${index}.url`] = 'url';
    const sha256 = row.sha256.trim();
    if (sha256 && !/^[0-9a-fA-F]{64}$/.test(sha256)) problems[`evidence.${index}.sha256`] = 'sha256';
  });
  return problems;
}

/** The request body: trimmed texts, empty optional fields left out, the hash in lower case (the API's pattern). */
export function defenseBody(justification: string, rows: readonly EvidenceRow[]): DefenseBody {
  return {
    justification: justification.trim(),
    evidence: rows.map((row) => ({
      description: row.description.trim(),
      ...(row.url.trim() ? { url: row.url.trim() } : {}),
      ...(row.sha256.trim() ? { sha256: row.sha256.trim().toLowerCase() } : {}),
    })),
  };
}
