/** The suite's figures, printed as one aligned table (and as JSON on one line, for tools). */
export function printFigures(title: string, groups: Array<[string, Record<string, number | string>]>): void {
  const rows = groups.flatMap(([group, figures]) => [[`[${group}]`, ''], ...Object.entries(figures).map(([name, value]) => [`  ${name}`, String(value)])]);
  const width = Math.max(...rows.map(([name]) => name!.length));
  console.log(`\nfaults: ${title}`);
  for (const [name, value] of rows) console.log(value === '' ? name : `${name!.padEnd(width)}  ${value}`);
  console.log(`faults-json: ${JSON.stringify(Object.fromEntries(groups))}`);
}
