import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { QuoteBody, QuoteSchema } from './schemas.ts';
import type { QuotesService } from './service.ts';

export function registerQuoteRoutes(app: App, quotes: Pick<QuotesService, 'quote'>): void {
  app.post(
    '/quotes',
    {
      config: { idempotent: { mode: 'in-transaction' } },
      schema: {
        tags: ['Quote'],
        summary: 'Quote a PAYIN or PAYOUT',
        description:
          'Send exactly one of amountBrl or amountCrypto. PAYIN: amountBrl is what the customer pays, amountCrypto what the receiver should get. PAYOUT: amountCrypto is the deposit, amountBrl the net BRL the PIX should pay. The answer carries the rate, both amounts and every fee (percent numbers), valid until expiresAt (30 s by default); an order that names it gets exactly these figures. No current price (the price source is unreachable, or its last price is older than the maximum age): 503 PRICE_UNAVAILABLE, retry later.',
        body: QuoteBody,
        response: { 201: QuoteSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await quotes.quote(merchantIdOf(request), request.body, request.idempotency)),
  );
}
