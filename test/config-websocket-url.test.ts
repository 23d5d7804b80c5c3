/** SOLANA_WS_URL's default (settings.ts chainWebsocketUrl): derived from SOLANA_RPC_URL as Solana's clients derive it. */
import { describe, expect, it } from 'vitest';
import { chainWebsocketUrl } from '../src/config/settings.ts';

describe('SOLANA_WS_URL', () => {
  it('unset: http→ws, https→wss, an explicit port + 1 (a validator: 8899 → 8900), path and query kept', () => {
    expect(chainWebsocketUrl(undefined, 'https://api.devnet.solana.com')).toBe('wss://api.devnet.solana.com/');
    expect(chainWebsocketUrl(undefined, 'http://127.0.0.1:8899')).toBe('ws://127.0.0.1:8900/');
    expect(chainWebsocketUrl(undefined, 'https://mainnet.example-rpc.com/?api-key=k')).toBe('wss://mainnet.example-rpc.com/?api-key=k');
  });

  it("given: as given; 'none' or no node: none", () => {
    expect(chainWebsocketUrl('wss://ws.example.com/key', 'https://rpc.example.com')).toBe('wss://ws.example.com/key');
    expect(chainWebsocketUrl('none', 'https://rpc.example.com')).toBeUndefined();
    expect(chainWebsocketUrl(undefined, undefined)).toBeUndefined();
  });
});
