/**
 * npm run lint:openapi-generators: the contract as a third-party generator sees it. Runs
 * @hey-api/openapi-ts (types, SDK functions and its fetch client) on docs/openapi.json and
 * docs/openapi-operations.json into a temporary folder, then fails when
 *
 * 1. the generated code does not compile (tsc --strict, no error);
 * 2. a component schema is not declared exactly once, as `export type <Name>`;
 * 3. a named schema is emitted twice: a type literal anywhere in the generated types is, with its
 *    doc comments, the body of a component's declaration (an inline copy of `Order` in a route's
 *    response, the way `CreatePayin201` types come about);
 * 4. the document itself holds one unnamed object schema twice (the same properties written out
 *    in two places, not by $ref): a generator can only emit it twice; give it a title
 *    (openapi-components.ts makes a titled schema a component);
 * 5. the document writes one enum out (not by $ref) in more than one place, anywhere (paths,
 *    components, webhooks): each copy becomes a union of its own (orval emitted nine order-status
 *    types); give the TypeBox enum a title and use it everywhere. An enum is an `enum` of several
 *    values, or an `anyOf`/`oneOf` of single values (a TypeBox union of literals); an enum of one
 *    value (a const) is no vocabulary and may repeat;
 * 6. an operation's 2xx response with content has no example (media `example` or `examples`, or
 *    `examples` on its schema or the component it refers to): a reader and a mock server (Prism)
 *    have nothing to show for it.
 *
 * Rules 3, 4 and 5 compare structure, not names, so they hold whatever a generator calls its types.
 * The check prints what it compared, so a run that found nothing to compare is visible.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The compiler `npm run typecheck` uses (TypeScript 7), named by its path: `tsc` on the PATH may be either installed version. */
const TSC = path.join(ROOT, 'node_modules/typescript-7/bin/tsc');
/** The documents to check: the arguments (paths from the repository root), else both of ours. */
const DOCUMENTS = process.argv.length > 2 ? process.argv.slice(2) : ['docs/openapi.json', 'docs/openapi-operations.json'];

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `command` from the PATH, which `npm run` starts with node_modules/.bin. */
function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
}

/** Object schemas with properties written out (not a $ref) more than once in the document, by where they are (rule 4). */
export function unnamedDuplicates(document: unknown): string[][] {
  const seen = new Map<string, string[]>();
  const stable = (value: unknown): string =>
    JSON.stringify(value, (_key, inner: unknown) => (isObject(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner));
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${at}/${i}`));
    if (!isObject(node)) return;
    if (isObject(node.properties) && Object.keys(node.properties).length > 0) {
      const { description: _description, ...shape } = node;
      const key = stable(shape);
      seen.set(key, [...(seen.get(key) ?? []), at]);
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') visit(value, `${at}/${key}`);
  };
  visit(document, '#');
  return [...seen.values()].filter((places) => places.length > 1);
}

/** Keywords whose values are data, not schemas: an enum inside an example is no enum of the document. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum']);

/** The values a schema enumerates: its `enum`, or the single values of an `anyOf`/`oneOf` of them. */
function enumValues(schema: Json): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  const single = (member: unknown): unknown[] | undefined =>
    !isObject(member) ? undefined : 'const' in member ? [member.const] : Array.isArray(member.enum) && member.enum.length === 1 ? member.enum : undefined;
  const members = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  const values = members?.map(single);
  return values && values.length > 1 && values.every((value) => value !== undefined) ? values.flat() : undefined;
}

/**
 * Enums of more than one value written out (not by $ref) more than once in the document, by
 * where they are (rule 5). Two enums of the same values in another order are the same vocabulary.
 */
export function inlineEnumDuplicates(document: unknown): string[][] {
  const seen = new Map<string, string[]>();
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${at}/${i}`));
    if (!isObject(node)) return;
    const values = enumValues(node);
    if (values !== undefined && new Set(values.map((value) => JSON.stringify(value))).size > 1) {
      const key = JSON.stringify(values.map((value) => JSON.stringify(value)).sort());
      seen.set(key, [...(seen.get(key) ?? []), at]);
    }
    for (const [key, value] of Object.entries(node)) if (!DATA_KEYWORDS.has(key)) visit(value, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  };
  visit(document, '#');
  return [...seen.values()].filter((places) => places.length > 1);
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Operations' 2xx responses with content but no example, as `METHOD path status media-type`
 * (rule 6). A response with no content (204) needs none. An example may sit on the media type
 * (`example`, `examples`), on its schema, or on the component schema it refers to.
 */
export function missingSuccessExamples(document: unknown): string[] {
  const doc = isObject(document) ? document : {};
  const resolve = (node: unknown, kind: string): Json | undefined => {
    if (!isObject(node)) return undefined;
    const ref = typeof node.$ref === 'string' ? new RegExp(`^#/components/${kind}/(.+)$`).exec(node.$ref)?.[1] : undefined;
    if (ref === undefined) return node;
    const components = isObject(doc.components) && isObject(doc.components[kind]) ? doc.components[kind] : {};
    return resolve(components[ref.replaceAll('~1', '/').replaceAll('~0', '~')], kind);
  };
  const hasExample = (media: Json): boolean => {
    if (media.example !== undefined || (isObject(media.examples) && Object.keys(media.examples).length > 0)) return true;
    const schemas = [media.schema, resolve(media.schema, 'schemas')].filter(isObject);
    return schemas.some((schema) => schema.example !== undefined || (Array.isArray(schema.examples) && schema.examples.length > 0));
  };
  const missing: string[] = [];
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method) || !isObject(operation) || !isObject(operation.responses)) continue;
      for (const [status, value] of Object.entries(operation.responses)) {
        const response = resolve(value, 'responses');
        if (!/^2(\d\d|XX)$/.test(status) || !response || !isObject(response.content)) continue;
        for (const [mediaType, media] of Object.entries(response.content)) {
          if (isObject(media) && !hasExample(media)) missing.push(`${method.toUpperCase()} ${path} ${status} ${mediaType}`);
        }
      }
    }
  }
  return missing;
}

/** Problems of one generated types file against the document's component names (rules 2 and 3). */
export function generatedDuplicates(source: string, components: string[]): { problems: string[]; compared: number } {
  const file = ts.createSourceFile('types.gen.ts', source, ts.ScriptTarget.Latest, true);
  // The literal's text with its doc comments (a schema's descriptions): an inline copy of a named
  // schema carries them too, while an unrelated shape that happens to match (`{ address: string }`
  // as path parameters and as an answer) does not.
  const text = (node: ts.Node) => node.getText(file).replace(/\s+/g, ' ');
  const declarations = new Map<string, ts.TypeAliasDeclaration[]>();
  for (const statement of file.statements) {
    if (ts.isTypeAliasDeclaration(statement)) declarations.set(statement.name.text, [...(declarations.get(statement.name.text) ?? []), statement]);
  }
  const problems: string[] = [];
  const bodies = new Map<string, { name: string; node: ts.Node }>();
  for (const name of components) {
    const found = declarations.get(name) ?? [];
    if (found.length !== 1) problems.push(`${name}: declared ${found.length} times (want 1)`);
    const body = found[0]?.type;
    if (body && ts.isTypeLiteralNode(body) && body.members.length > 0) bodies.set(text(body), { name, node: body });
  }
  let compared = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isTypeLiteralNode(node)) {
      compared++;
      const same = bodies.get(text(node));
      if (same && same.node !== node) {
        const owner = node.parent && ts.findAncestor(node, ts.isTypeAliasDeclaration)?.name.text;
        problems.push(`${same.name}: emitted again inline, in ${owner ?? 'an anonymous type'}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { problems, compared };
}

async function main(): Promise<void> {
  const out = await mkdtemp(path.join(tmpdir(), 'openapi-generators-'));
  const problems: string[] = [];
  try {
    const outputs: string[] = [];
    for (const [i, document] of DOCUMENTS.entries()) {
      const contract = JSON.parse(await readFile(path.resolve(ROOT, document), 'utf8')) as { components?: { schemas?: Json } };
      for (const places of unnamedDuplicates(contract)) problems.push(`${document}: one object schema written out ${places.length} times, not by $ref (give it a title): ${places.join(', ')}`);
      const enums = inlineEnumDuplicates(contract);
      for (const places of enums) problems.push(`${document}: one enum written out ${places.length} times, not by $ref (give the TypeBox enum a title and use it everywhere): ${places.join(', ')}`);
      const unexampled = missingSuccessExamples(contract);
      problems.push(...unexampled.map((response) => `${document}: ${response}: a success response without an example`));
      console.log(`${document}: ${enums.length} enums written out more than once; ${unexampled.length} success responses without an example`);
      const output = path.join(out, `client-${i}`);
      run('openapi-ts', ['--input', path.resolve(ROOT, document), '--output', output, '--silent', '--no-log-file']);
      const components = Object.keys(contract.components?.schemas ?? {});
      const result = generatedDuplicates(await readFile(path.join(output, 'types.gen.ts'), 'utf8'), components);
      problems.push(...result.problems.map((problem) => `${document}: ${problem}`));
      console.log(`${document}: ${components.length} component schemas, ${result.compared} generated type literals compared`);
      outputs.push(output);
    }
    // The generated client uses fetch and URLSearchParams: the DOM library's types, as in a browser or Node.
    const tsconfig = path.join(out, 'tsconfig.json');
    const compilerOptions = { strict: true, noEmit: true, skipLibCheck: false, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [] };
    await writeFile(tsconfig, JSON.stringify({ compilerOptions, include: outputs.map((output) => `${output}/**/*.ts`) }));
    run(process.execPath, [TSC, '-p', tsconfig, '--singleThreaded']);
    console.log('generated clients compile (tsc --strict)');
  } finally {
    await rm(out, { recursive: true, force: true });
  }
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    console.error(`lint:openapi-generators: ${problems.length} problems`);
    process.exit(1);
  }
  console.log('lint:openapi-generators: every schema emitted once');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
