/**
 * The SDK's one error model and its wallet-ownership helper against a started service: an
 * operation reached through `client.api` throws the same typed errors as the resources, and
 * `receivers.proveWalletOwnership` proves a wallet with a real `@solana/kit` key pair signer.
 */
import { randomUUID } from 'node:crypto';
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, type ExchangeClient, ExchangeApiError, ExchangeError } from '../../sdk/src/index.ts';
import { base58 } from '../../sdk/src/wallet-ownership.ts';
import { randomCpf } from '../helpers/documents.ts';
import { type SdkService, startSdkService } from './service.ts';
import { START_WAIT_MS } from '../helpers/processes.ts';

describe('SDK: one error model, and wallet ownership proven with an @solana/kit signer', () => {
  let svc: SdkService;
  let client: ExchangeClient;
  let receiverId: string;

  beforeAll(async () => {
    svc = await startSdkService();
    const { apiKey, apiSecret } = await svc.createMerchant('Wallet Merchant');
    client = createExchangeClient({ baseUrl: svc.baseUrl, auth: { apiKey, apiSecret }, retry: { baseDelayMs: 10 } });
    const receiver = await client.receivers.create({ type: 'PF', document: randomCpf(), name: 'Bia Costa', email: 'bia@example.com' });
    receiverId = receiver.id;
  }, START_WAIT_MS + 60_000);

  afterAll(async () => {
    await svc?.stop();
  });

  it('throws ExchangeApiError from client.api too: status, code, details, requestId', async () => {
    const error = await client.api
      .POST('/receivers/{id}/wallet-ownership/proofs', { params: { path: { id: receiverId } }, body: { challengeId: randomUUID(), signature: '1'.repeat(64) } })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((error as ExchangeApiError).requestId).toMatch(/\S/);

    // A body the schema refuses: 400 with a detail per field, thrown, never answered as `error`.
    const invalid = await client.api
      .POST('/receivers/{id}/wallet-ownership/challenges', { params: { path: { id: receiverId } }, body: { walletAddress: 'short' } })
      .catch((err: unknown) => err);
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(Object.keys((invalid as ExchangeApiError).details).join(' ')).toContain('walletAddress');

    // A success answers its data, typed, with no error branch.
    const { data, response } = await client.api.GET('/receivers/{id}', { params: { path: { id: receiverId } } });
    expect(response.status).toBe(200);
    expect(data.id).toBe(receiverId);
  });

  it('proves a wallet: challenge, the kit signer signs the SIWS message, proof', async () => {
    const signer = await generateKeyPairSigner();
    const proof = await client.receivers.proveWalletOwnership(receiverId, signer);
    expect(proof).toMatchObject({ receiverId, walletAddress: signer.address, method: 'SIWS_ED25519' });
    expect(proof.message).toContain(signer.address);
    const proven = await client.receivers.provenWallets(receiverId);
    expect(proven.data).toEqual(expect.arrayContaining([expect.objectContaining({ walletAddress: signer.address, method: 'SIWS_ED25519', proofId: proof.id })]));
  });

  it('replays both steps under the same idempotency key', async () => {
    const signer = await generateKeyPairSigner();
    const idempotencyKey = randomUUID();
    const first = await client.receivers.proveWalletOwnership(receiverId, signer, { idempotencyKey });
    const again = await client.receivers.proveWalletOwnership(receiverId, signer, { idempotencyKey });
    expect(again.id).toBe(first.id);
  });

  it("refuses another wallet's signature with a typed 422, and a signer that does not sign", async () => {
    const [wallet, impostor] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    const challenge = await client.receivers.createWalletChallenge(receiverId, wallet.address);
    const [signed] = await impostor.signMessages([{ content: new TextEncoder().encode(challenge.message), signatures: {} }]);
    const refused = await client.receivers
      .submitWalletProof(receiverId, { challengeId: challenge.challengeId, signature: base58(signed![impostor.address]!) })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ExchangeApiError);
    const code = (refused as ExchangeApiError).code;
    expect(code).toBe('WALLET_SIGNATURE_INVALID');

    const silent = { address: wallet.address, signMessages: async () => [{}] };
    await expect(client.receivers.proveWalletOwnership(receiverId, silent)).rejects.toThrow(ExchangeError);
  });

  it('encodes base58 as the service decodes it (leading zero bytes as 1s)', () => {
    expect(base58(new Uint8Array([0, 0, 1]))).toBe('112');
    expect(base58(new Uint8Array([0xff, 0xff]))).toBe('LUv');
    expect(base58(new TextEncoder().encode('hello world'))).toBe('StV1DL6CwTryKyV');
  });
});
