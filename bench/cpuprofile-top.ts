/**
 * npm run -s bench:profile -- <file.cpuprofile> [count]
 * Prints the top self-time functions of a V8 CPU profile (node --cpu-prof) with file:line,
 * excluding (idle) from the percentages.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, countArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx bench/cpuprofile-top.ts <file.cpuprofile> [count]');
  process.exit(2);
}
const count = Number(countArg ?? 15);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<string, number>();
let idleUs = 0;
let totalUs = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  const frame = byId.get(id)?.callFrame;
  if (!frame) return;
  if (frame.functionName === '(idle)') {
    idleUs += delta;
    return;
  }
  totalUs += delta;
  const where = frame.url ? `${shorten(frame.url)}:${frame.lineNumber + 1}` : '';
  const key = `${frame.functionName || '(anonymous)'}\t${where}`;
  selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
});

function shorten(url: string): string {
  const local = url.replace(/^file:\/\//, '');
  const cwd = process.cwd() + path.sep;
  return local.startsWith(cwd) ? local.slice(cwd.length) : local;
}

const ms = (us: number) => (us / 1000).toFixed(1);
console.log(`${file}: ${ms(totalUs + idleUs)} ms sampled, ${ms(totalUs)} ms busy, ${ms(idleUs)} ms idle\n`);
console.log('| # | self ms | self % of busy | function | file:line |');
console.log('|---:|---:|---:|---|---|');
[...selfUs.entries()]
  .sort((a, b) => b[1] - a[1])
  .slice(0, count)
  .forEach(([key, us], i) => {
    const [name, where] = key.split('\t');
    console.log(`| ${i + 1} | ${ms(us)} | ${((us / totalUs) * 100).toFixed(1)} % | \`${name}\` | ${where ? `\`${where}\`` : ''} |`);
  });
