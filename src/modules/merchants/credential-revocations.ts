/**
 * Credential revocations broadcast to every process (issue 38 item 7): a revoked API key (and the
 * bearer tokens it issued) or a disabled merchant is dropped from every process's credential cache
 * at once, not after the cache's TTL.
 *
 * The change is announced with `signalAfterCommit` in the transaction that makes it, so it leaves
 * only once that transaction has committed, and never when it rolls back, whoever opened it (this
 * module, or an approval whose transaction enables the merchant: approvals/actions.ts). The
 * composition root forwards committed signals to the notifications hub (services.ts), which runs
 * this process's subscriber at once and tells the other processes by PostgreSQL NOTIFY on its own
 * connection (in-process only on PGlite, one process). Announced earlier, a process could drop its
 * entry, read the row still uncommitted-old and cache it again for the TTL. A process whose LISTEN
 * connection was lost may have missed one, so the hub's resync clears its whole cache.
 */
import type { Db } from '../../db/database.ts';
import { signalAfterCommit } from '../../platform/commit-signals.ts';
import type { Notifications } from '../../platform/notifications.ts';
import type { CredentialCache } from './credential-cache.ts';

export const CREDENTIALS_CHANNEL = 'credentials_revoked';

/** What the cache needs of the hub: it only listens (what it announces goes through the commit signals). */
export type RevocationHub = Pick<Notifications, 'subscribe' | 'onResync'>;

/** Subscribes `cache` to the revocations; answers the announcers, called in the transaction that makes the change. */
export function credentialRevocations(hub: RevocationHub, cache: Pick<CredentialCache, 'forgetCredential' | 'forgetMerchant' | 'forgetAll'>) {
  hub.subscribe(CREDENTIALS_CHANNEL, (payload) => {
    const [kind, id] = payload.split(':');
    if (kind === 'credential' && id) cache.forgetCredential(id);
    else if (kind === 'merchant' && id) cache.forgetMerchant(id);
    else cache.forgetAll();
  });
  hub.onResync(() => cache.forgetAll());
  return {
    /** `trx`: the revoking transaction; every cache (this process's too) forgets once it commits. */
    credentialRevoked(trx: Db, credentialId: string): void {
      signalAfterCommit(trx, CREDENTIALS_CHANNEL, `credential:${credentialId}`);
    },
    /** `trx`: the transaction changing the merchant's status, possibly an approval's. */
    merchantChanged(trx: Db, merchantId: string): void {
      signalAfterCommit(trx, CREDENTIALS_CHANNEL, `merchant:${merchantId}`);
    },
  };
}
