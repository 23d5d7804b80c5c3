/**
 * The README's runnable blocks, as its contributing note ("This README is tested") marks them:
 * ```sh readme-server   starts the service (the `npm start` line, with the variables before it)
 * ```sh readme-test     runs in the reader's shell, in order; `#> ...` lines show what it prints
 * ```ts readme-test f   is saved as the file f for a later block to run
 */
export type ReadmeBlock =
  | { kind: 'server'; line: number; env: Record<string, string> }
  | { kind: 'shell'; line: number; script: string; expected: RegExp[] }
  | { kind: 'file'; line: number; name: string; text: string };

const FENCE = /^```(\w+)[ \t]+(readme-server|readme-test)\b[ \t]*(\S*)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;

export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  for (const match of markdown.matchAll(FENCE)) {
    const [, language, marker, name, text] = match as unknown as [string, string, string, string, string];
    const line = markdown.slice(0, match.index).split('\n').length;
    if (marker === 'readme-server') blocks.push({ kind: 'server', line, env: startEnv(text, line) });
    else if (language === 'ts') {
      if (!name) throw new Error(`README line ${line}: a ts readme-test block needs a file name`);
      blocks.push({ kind: 'file', line, name, text });
    } else blocks.push({ kind: 'shell', line, script: text, expected: expectedOutput(text) });
  }
  return blocks;
}

/** The `NAME=value` assignments in front of `npm start` (values without spaces or quotes). */
function startEnv(text: string, line: number): Record<string, string> {
  const start = /(?:^|&&|;)\s*((?:[A-Z_][A-Z0-9_]*=\S+\s+)*)npm start\b/m.exec(text);
  if (!start) throw new Error(`README line ${line}: a readme-server block without npm start`);
  return Object.fromEntries(start[1]!.trim().split(/\s+/).filter(Boolean).map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]));
}

/** Each `#> ...` line as a loose pattern: the text as written, `…` matching anything. */
function expectedOutput(text: string): RegExp[] {
  return [...text.matchAll(/^#>\s?(.*)$/gm)].map(([, shown]) =>
    new RegExp(shown!.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?')),
  );
}
