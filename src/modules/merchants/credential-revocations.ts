/**
 * Credential revocations broadcast to every process (issue 38 item 7): a revoked API key (and the
 * bearer tokens it issued) or a disabled merchant is dropped from every process's credential cache
 * at once, not after the cache's TTL. The change is published after its commit on the
 * notifications hub (src/platform/notifications.ts: this process's subscribers at once, the others
 * by PostgreSQL NOTIFY on the hub's own connection; in-process on PGlite, one process). A process
 * whose LISTEN connection was lost may have missed one, so the hub's resync clears its whole cache.
 */
import type { Notifications } from '../../platform/notifications.ts';
import type { CredentialCache } from './credential-cache.ts';

export const CREDENTIALS_CHANNEL = 'credentials_revoked';

export type RevocationHub = Pick<Notifications, 'publish' | 'subscribe' | 'onResync'>;

/** Subscribes `cache` to the revocations; answers the publishers, called after each commit. */
export function credentialRevocations(hub: RevocationHub | undefined, cache: Pick<CredentialCache, 'forgetCredential' | 'forgetMerchant' | 'forgetAll'>) {
  hub?.subscribe(CREDENTIALS_CHANNEL, (payload) => {
    const [kind, id] = payload.split(':');
    if (kind === 'credential' && id) cache.forgetCredential(id);
    else if (kind === 'merchant' && id) cache.forgetMerchant(id);
    else cache.forgetAll();
  });
  hub?.onResync(() => cache.forgetAll());
  return {
    /** After the commit: forgetting earlier could let a concurrent request cache the old row again. */
    credentialRevoked(credentialId: string): void {
      cache.forgetCredential(credentialId);
      hub?.publish(CREDENTIALS_CHANNEL, `credential:${credentialId}`);
    },
    merchantChanged(merchantId: string): void {
      cache.forgetMerchant(merchantId);
      hub?.publish(CREDENTIALS_CHANNEL, `merchant:${merchantId}`);
    },
  };
}
