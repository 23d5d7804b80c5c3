/**
 * The team's audit log offers as its action filter exactly the actions a merchant's log can hold
 * (issue 42): the server's one list, MERCHANT_AUDIT_ACTIONS (src/platform/audit/merchant-actions.ts),
 * which the page imports. This reads every recordAudit / recordDataRelease call in src/ and fails
 * when the actions recorded with a merchant id and that list differ either way: an action added
 * on the server that the filter would not offer, or a choice the filter offers that no code records
 * (the hand copy this replaced offered `user.password_reset`, never recorded with a merchant id).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MERCHANT_AUDIT_ACTIONS } from '../../src/platform/audit/merchant-actions.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const RECORDERS = new Set(['recordAudit', 'recordDataRelease']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Each recording call's action (its text when a literal, else its source) and whether it names a merchant. */
function recordedActions(): Array<{ action: string; literal: boolean; merchant: boolean; at: string }> {
  const found: Array<{ action: string; literal: boolean; merchant: boolean; at: string }> = [];
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && RECORDERS.has(node.expression.text)) {
        const entry = node.arguments[2];
        if (entry && ts.isObjectLiteralExpression(entry)) {
          const property = (name: string) => entry.properties.find((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name.getText() === name);
          const action = property('action');
          const value = action && ts.isPropertyAssignment(action) ? action.initializer : undefined;
          const literal = value !== undefined && ts.isStringLiteralLike(value);
          const at = `${path.relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
          found.push({ action: literal ? value.text : (value?.getText() ?? '?'), literal, merchant: property('merchantId') !== undefined, at });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('the team audit log\'s action filter', () => {
  const recorded = recordedActions();

  it('finds the recording calls (the scan itself works)', () => {
    expect(recorded.length).toBeGreaterThan(30);
    expect(recorded.map((r) => r.action)).toContain('user.invite');
  });

  it('names a merchant only with a literal action, so the list can be checked', () => {
    expect(recorded.filter((r) => r.merchant && !r.literal).map((r) => `${r.at}: ${r.action}`)).toEqual([]);
  });

  it('lists exactly the actions recorded with a merchant id', () => {
    const withMerchant = new Set(recorded.filter((r) => r.merchant).map((r) => r.action));
    expect([...withMerchant].sort()).toEqual([...MERCHANT_AUDIT_ACTIONS].sort());
  });

  it('is that list in the page, not a copy of it', () => {
    const page = readFileSync(path.join(ROOT, 'web/src/pages/team/audit-log.tsx'), 'utf8');
    expect(page).toMatch(/import \{ MERCHANT_AUDIT_ACTIONS \} from '[./]+\/src\/platform\/audit\/merchant-actions\.ts'/);
    expect(page).toContain('...MERCHANT_AUDIT_ACTIONS.map(');
    // No other list of actions beside it.
    expect(page).not.toMatch(/'user\.invite'/);
  });
});
