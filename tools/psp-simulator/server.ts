/**
 * The PSP simulator's two listeners: the PSP API over mTLS (client certificate signed by the
 * simulator's CA required) with OAuth2 client credentials (`POST /oauth/token`), and a control
 * API over plain HTTP on loopback for tests and people (pay a charge, inject faults, read state).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { Problem, createApiPix, payerOf } from './api-pix.ts';
import { loadOrCreatePki } from './certificates.ts';
import { type Faults, emptyFaults, takeHttpFault } from './faults.ts';
import { createNotifier } from './notifier.ts';
import { openStore } from './store.ts';

export interface SimulatorOptions {
  /** State file, certificates. */
  dir: string;
  port?: number;
  controlPort?: number;
  clientId?: string;
  clientSecret?: string;
  tokenTtlSeconds?: number;
  /** How long refunds and sent PIX stay EM_PROCESSAMENTO. */
  settleDelayMs?: number;
  log?: (message: string) => void;
  /** Headers sent with every notification (the service's PIX_WEBHOOK_HEADER_NAME and _SECRET). */
  webhookHeaders?: Record<string, string>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body?: unknown, type = 'application/json') {
  if (body === undefined) return void response.writeHead(status).end();
  response.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
}

const problem = (p: Problem) => ({ type: p.type, title: p.title, status: p.status, ...(p.detail ? { detail: p.detail } : {}) });
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export async function startSimulator(options: SimulatorOptions) {
  const log = options.log ?? (() => {});
  const pki = await loadOrCreatePki(path.join(options.dir, 'pki'));
  const store = openStore(path.join(options.dir, 'state.json'));
  const faults: Faults = emptyFaults();
  const notifier = createNotifier({ faults, log, ...(options.webhookHeaders ? { headers: options.webhookHeaders } : {}) });
  const clientId = options.clientId ?? 'simulator-client';
  const clientSecret = options.clientSecret ?? 'simulator-client-secret-0123456789';
  const tokens = new Map<string, number>();
  const tokenTtl = options.tokenTtlSeconds ?? 3600;
  let tokensIssued = 0;

  const api = createHttpsServer({ key: pki.serverKeyPem, cert: pki.serverCertPem, ca: pki.caPem, requestCert: true, rejectUnauthorized: true }, (request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'https://localhost');
      const text = await readBody(request);
      const fault = takeHttpFault(faults, url.pathname);
      if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault?.status) {
        const title = fault.status === 429 ? 'Muitas requisições.' : 'Serviço indisponível.';
        return send(response, fault.status, { type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', title, status: fault.status }, 'application/problem+json');
      }
      if (url.pathname === '/oauth/token' && request.method === 'POST') {
        const [id, secret] = Buffer.from((request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
        const grant = text.includes('client_credentials');
        if (!grant || !sameText(id ?? '', clientId) || !sameText(secret ?? '', clientSecret)) return send(response, 401, { error: 'invalid_client' });
        const token = randomBytes(24).toString('base64url');
        tokens.set(token, Date.now() + tokenTtl * 1000);
        tokensIssued++;
        return send(response, 200, { access_token: token, token_type: 'Bearer', expires_in: tokenTtl, scope: 'cob.write cob.read pix.write pix.read webhook.write webhook.read pix.send' });
      }
      const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!((tokens.get(bearer) ?? 0) > Date.now())) {
        return send(response, 403, { type: 'https://pix.bcb.gov.br/api/v2/error/AcessoNegado', title: 'Acesso Negado', status: 403, detail: 'token ausente, inválido ou expirado.' }, 'application/problem+json');
      }
      try {
        const body = text ? JSON.parse(text) : undefined;
        const reply = routes.route(request.method ?? 'GET', url.pathname, url.searchParams, body);
        if (!reply) return send(response, 404, { type: 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado', title: 'Não Encontrado', status: 404 }, 'application/problem+json');
        send(response, reply.status, reply.body);
      } catch (error) {
        if (error instanceof Problem) return send(response, error.status, problem(error), 'application/problem+json');
        if (error instanceof SyntaxError) return send(response, 400, { type: 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida', title: 'Requisição inválida.', status: 400 }, 'application/problem+json');
        log(`error: ${(error as Error).stack}`);
        send(response, 503, { type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', title: 'Serviço indisponível.', status: 503 }, 'application/problem+json');
      }
    })();
  });
  await new Promise<void>((resolve) => api.listen(options.port ?? 0, '127.0.0.1', resolve));
  const apiPort = (api.address() as AddressInfo).port;
  const routes = createApiPix({ store, faults, notifier, host: `localhost:${apiPort}`, settleDelayMs: options.settleDelayMs ?? 100, log });

  const control = createHttpServer((request, response) => {
    void (async () => {
      const body = JSON.parse((await readBody(request)) || '{}');
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (request.method === 'POST' && url.pathname === '/control/pay') {
        const charge = body.txid ? store.state.charges[body.txid] : routes.findByCode(body.pixCopiaECola ?? '');
        if (!charge) return send(response, 404, { error: 'no such charge' });
        // `pagador` {nome, cpf | cnpj}: who pays (default the charge's devedor); null: the payer is not reported.
        if (body.pagador !== undefined && body.pagador !== null && !payerOf(body.pagador)) return send(response, 400, { error: 'pagador needs nome and exactly one of cpf or cnpj' });
        const pix = routes.pay(charge, body.valor, body.pagador === null ? null : payerOf(body.pagador));
        return send(response, 200, { endToEndId: pix.endToEndId, txid: pix.txid, valor: pix.valor });
      }
      if (request.method === 'POST' && url.pathname === '/control/pay-static') {
        // A static code (a standing charge) paid: {pixCopiaECola, valor? (required for an open amount), pagador? {nome, cpf | cnpj}}.
        if (typeof body.pixCopiaECola !== 'string') return send(response, 400, { error: 'pixCopiaECola is required' });
        if (body.pagador !== undefined && body.pagador !== null && !payerOf(body.pagador)) return send(response, 400, { error: 'pagador needs nome and exactly one of cpf or cnpj' });
        const pix = routes.payStatic(body.pixCopiaECola, body.valor, payerOf(body.pagador));
        return send(response, 200, { endToEndId: pix.endToEndId, txid: pix.txid, valor: pix.valor });
      }
      if (request.method === 'POST' && url.pathname === '/control/faults') {
        faults.webhook.push(...(body.webhook ?? []));
        faults.http.push(...(body.http ?? []));
        faults.refunds.push(...(body.refunds ?? []));
        if (typeof body.devolucoesAsObject === 'boolean') faults.devolucoesAsObject = body.devolucoesAsObject;
        return send(response, 200, faults);
      }
      if (request.method === 'POST' && url.pathname === '/control/pix-keys') {
        // Registers (or moves) a key to a holder, for the key lookup (api-pix.ts lookupKey).
        if (typeof body.chave !== 'string' || (typeof body.cpf !== 'string') === (typeof body.cnpj !== 'string')) {
          return send(response, 400, { error: 'chave and exactly one of cpf or cnpj are required' });
        }
        store.state.keys[body.chave] = { ...(body.cpf ? { cpf: body.cpf } : { cnpj: body.cnpj }), nome: String(body.nome ?? '') };
        store.save();
        return send(response, 200, { chave: body.chave, titular: store.state.keys[body.chave] });
      }
      if (request.method === 'POST' && url.pathname === '/control/infractions') {
        // The payer's PSP opens a MED claim on a received PIX: {endToEndId, motivo?, valor?, prazoHoras?}.
        return send(response, 200, routes.openInfraction(String(body.endToEndId), body));
      }
      if (request.method === 'POST' && url.pathname === '/control/infractions/decide') {
        // The receiving PSP decides it: {idInfracao, status: ACEITA | REJEITADA | CANCELADA}.
        if (!['ACEITA', 'REJEITADA', 'CANCELADA'].includes(body.status)) return send(response, 400, { error: 'status must be ACEITA, REJEITADA or CANCELADA' });
        return send(response, 200, routes.decideInfraction(String(body.idInfracao), body.status));
      }
      if (request.method === 'POST' && url.pathname === '/control/idle') {
        await notifier.idle();
        return send(response, 200, {});
      }
      if (request.method === 'GET' && url.pathname === '/control/state') return send(response, 200, { ...store.state, tokensIssued });
      send(response, 404, { error: 'no such control route' });
    })().catch((error: Error) => send(response, 400, { error: error.message }));
  });
  await new Promise<void>((resolve) => control.listen(options.controlPort ?? 0, '127.0.0.1', resolve));
  const controlPort = (control.address() as AddressInfo).port;

  return {
    apiUrl: `https://localhost:${apiPort}`,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    clientId,
    clientSecret,
    certificates: pki.paths,
    async close() {
      await Promise.all([new Promise((resolve) => api.close(resolve)), new Promise((resolve) => control.close(resolve))]);
      api.closeAllConnections();
    },
  };
}
