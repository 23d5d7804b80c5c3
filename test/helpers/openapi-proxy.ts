/**
 * An OpenAPI-validating proxy for the API Pix conformance tests: the adapter talks to it over
 * mTLS as it would to the PSP, it forwards every request to the PSP simulator over mTLS, and it
 * checks each request and answer against Banco Central's openapi.yaml (path and method
 * documented, required query parameters, request body, status documented, answer body), keeping
 * every violation. Prism (`prism proxy --errors`) does the same, but it cannot present a client
 * certificate to an mTLS upstream nor accept one from the adapter; see docs/architecture/pix-provider.md.
 */
import { readFileSync } from 'node:fs';
import { createServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { parse } from 'yaml';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => void;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ProxyOptions {
  specPath: string;
  /** The simulator's API origin, e.g. https://localhost:8443. */
  upstream: string;
  /** The spec's paths sit under this prefix upstream (e.g. /v2). */
  basePath: string;
  pki: { caPem: string; serverCertPem: string; serverKeyPem: string; clientCertPem: string; clientKeyPem: string };
  /** Paths passed through unchecked (OAuth2's token endpoint is not an operation of the document). */
  unchecked?: string[];
}

/**
 * Errata of openapi.yaml 2.9.0, each an exact error the document makes every correct answer
 * fail (docs/architecture/pix-provider.md lists them): `PixConsultados` (GET /pix) requires a property `cobs`
 * that it does not define; the list it defines is `pix`.
 */
function isErratum(template: string, method: string, error: { keyword: string; instancePath: string; params: Json }): boolean {
  return template === '/pix' && method === 'GET' && error.keyword === 'required' && error.instancePath === '' && error.params.missingProperty === 'cobs';
}

/**
 * The other erratum: 14 patterns are written as JavaScript regex literals, e.g. PessoaFisica's
 * `cpf` "/^\d{11}$/", which as JSON Schema (an ECMA-262 pattern) demands the slashes, so no CPF
 * can ever match and every `devedor` with a CPF would fail. Read them as the regex they quote.
 */
function withoutRegexLiteralSlashes(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  const object = node as Json;
  if (typeof object.pattern === 'string' && /^\/.+\/$/.test(object.pattern)) object.pattern = object.pattern.slice(1, -1);
  Object.values(object).forEach(withoutRegexLiteralSlashes);
}

export async function startOpenApiProxy(options: ProxyOptions) {
  const doc = parse(readFileSync(options.specPath, 'utf8')) as Json;
  withoutRegexLiteralSlashes(doc);
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) ajv.addFormat(format, true);
  ajv.addSchema(doc, 'openapi');
  const compiled = new Map<string, ValidateFunction>();
  const validator = (pointer: string) => {
    let fn = compiled.get(pointer);
    if (!fn) compiled.set(pointer, (fn = ajv.compile({ $ref: `openapi#${pointer}` })));
    return fn;
  };
  const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');
  /** Follows $ref of an OpenAPI object (not a schema), returning it and its JSON pointer. */
  const deref = (value: Json, pointer: string): { value: Json; pointer: string } =>
    value?.$ref ? deref(value.$ref.slice(1).split('/').slice(1).reduce((o: Json, k: string) => o[k.replaceAll('~1', '/').replaceAll('~0', '~')], doc), value.$ref.slice(1)) : { value, pointer };
  const templates = Object.keys(doc.paths).map((template) => ({ template, regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

  const violations: string[] = [];
  const checked = { requests: 0, responses: 0 };
  /** Every request checked, as sent: a test can assert what the adapter put in it. */
  const requests: Array<{ method: string; path: string; body: Json | undefined }> = [];

  function check(method: string, path: string, query: URLSearchParams, body: string, status: number, responseBody: string, contentType: string) {
    const where = `${method} ${path}`;
    const found = templates.find((t) => t.regex.test(path));
    const operationPointer = found && `/paths/${escape(found.template)}/${method.toLowerCase()}`;
    const operation = found && doc.paths[found.template][method.toLowerCase()];
    if (!operation) return void violations.push(`${where}: no such operation in the document`);
    checked.requests++;
    requests.push({ method, path, body: body ? JSON.parse(body) : undefined });
    const parameters = [...(doc.paths[found.template].parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) => deref(p, '').value);
    for (const parameter of parameters) {
      if (parameter.in === 'query' && parameter.required && !query.has(parameter.name)) violations.push(`${where}: query parameter ${parameter.name} is required`);
    }
    if (operation.requestBody) {
      const requestBody = deref(operation.requestBody, `${operationPointer}/requestBody`);
      const validate = validator(`${requestBody.pointer}/content/application~1json/schema`);
      if (!validate(body ? JSON.parse(body) : undefined)) violations.push(`${where} request: ${ajv.errorsText(validate.errors)}`);
    }
    const response = operation.responses[String(status)];
    if (!response) return void violations.push(`${where}: status ${status} is not documented`);
    checked.responses++;
    const resolved = deref(response, `${operationPointer}/responses/${status}`);
    const type = contentType.split(';')[0]!.trim();
    if (!resolved.value.content) return;
    if (!resolved.value.content[type]) return void violations.push(`${where}: ${status} answered ${type || 'no content type'}`);
    const validate = validator(`${resolved.pointer}/content/${escape(type)}/schema`);
    if (validate(responseBody ? JSON.parse(responseBody) : undefined)) return;
    const errors = (validate.errors ?? []).filter((error) => !isErratum(found.template, method, error));
    if (errors.length > 0) violations.push(`${where} ${status} answer: ${ajv.errorsText(errors)}`);
  }

  const server = createServer({ key: options.pki.serverKeyPem, cert: options.pki.serverCertPem, ca: options.pki.caPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', options.upstream);
      const upstream = httpsRequest(
        url,
        { method: req.method, headers: { ...req.headers, host: url.host }, cert: options.pki.clientCertPem, key: options.pki.clientKeyPem, ca: options.pki.caPem },
        (up) => {
          const answer: Buffer[] = [];
          up.on('data', (chunk: Buffer) => answer.push(chunk));
          up.on('end', () => {
            const text = Buffer.concat(answer).toString('utf8');
            const path = url.pathname;
            if (!(options.unchecked ?? []).includes(path)) {
              try {
                check(req.method ?? 'GET', path.startsWith(options.basePath) ? path.slice(options.basePath.length) : path, url.searchParams, body, up.statusCode ?? 0, text, String(up.headers['content-type'] ?? ''));
              } catch (error) {
                violations.push(`${req.method} ${path}: ${(error as Error).message}`);
              }
            }
            res.writeHead(up.statusCode ?? 502, up.headers).end(text);
          });
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    violations,
    checked,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
