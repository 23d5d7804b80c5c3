/**
 * Every relative link in the README and the docs leads somewhere: a markdown link in README.md,
 * docs/**\/*.md or bench/**\/*.md must name a file of this repository, and a `#fragment` into a
 * markdown file must name one of its headings (GitHub's anchors). Links to the web are not
 * followed; a link that leaves the repository (the team's shared spec beside it) is not checked,
 * since this repository does not hold it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function markdownFiles(): string[] {
  const found = ['README.md'];
  for (const folder of ['docs', 'bench']) {
    for (const entry of readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })) {
      const relative = path.join(folder, entry);
      if (relative.endsWith('.md') && !relative.startsWith(path.join('bench', 'results'))) found.push(relative);
    }
  }
  return found.sort();
}

/** A fenced code block. A backtick fence's info string has no backtick (CommonMark), so a line opening with a code span of backticks is prose. */
const FENCED_BLOCK = /^(```|~~~)(?![^\n]*`)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;

/** Text outside fenced code blocks and inline code spans: a link inside code is not a link. */
function proseOf(markdown: string): string {
  return markdown.replace(FENCED_BLOCK, '').replace(/`[^`\n]*`/g, '');
}

/** Inline links and images `[text](target "title")` and reference definitions `[id]: target`. */
function linkTargets(markdown: string): string[] {
  const prose = proseOf(markdown);
  const inline = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] as string);
  const references = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((match) => match[1] as string);
  return [...inline, ...references];
}

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutFences = markdown.replace(FENCED_BLOCK, '');
  for (const match of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = (match[1] as string).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_]/g, '');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** What is wrong with one link of `file`, or undefined when it resolves. */
function brokenReason(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not followed
  const [rawPath = '', fragment] = target.split('#', 2);
  const linkPath = decodeURIComponent(rawPath.split('?')[0] as string);
  const resolved = linkPath === '' ? path.join(ROOT, file) : path.resolve(ROOT, path.dirname(file), linkPath);
  if (path.relative(ROOT, resolved).startsWith('..')) return undefined; // outside this repository
  if (!existsSync(resolved)) return 'no such file';
  if (fragment === undefined || fragment === '' || !resolved.endsWith('.md') || statSync(resolved).isDirectory()) return undefined;
  return headingAnchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(fragment).toLowerCase()) ? undefined : `no heading #${fragment}`;
}

describe('documentation links', () => {
  it('reads links and anchors as GitHub does', () => {
    expect(linkTargets('see [a](docs/a.md#x "t"), ![i](img.png) and `[no](code.md)`\n[ref]: other.md\n```\n[no](fenced.md)\n```')).toEqual(['docs/a.md#x', 'img.png', 'other.md']);
    expect([...headingAnchors('# Orders: the state machine\n## Why `PENDING`?\n## Orders: the state machine')]).toEqual([
      'orders-the-state-machine',
      'why-pending',
      'orders-the-state-machine-1',
    ]);
  });

  it('finds the documents it must check', () => {
    const files = markdownFiles();
    expect(files).toContain('README.md');
    expect(files).toContain(path.join('docs', 'architecture', 'README.md'));
    expect(files).toContain(path.join('bench', 'README.md'));
  });

  it('every relative link in README.md, docs/ and bench/ resolves', () => {
    const broken = markdownFiles().flatMap((file) =>
      linkTargets(readFileSync(path.join(ROOT, file), 'utf8')).flatMap((target) => {
        const reason = brokenReason(file, target);
        return reason === undefined ? [] : [`${file}: (${target}) ${reason}`];
      }),
    );
    expect(broken).toEqual([]);
  });
});
