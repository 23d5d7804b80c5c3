/** SQL of the PSP's confirmation of notifications (pix-confirmation.ts): the refusals' record. */
import type { PixNotification } from '../../../adapters/pix/port.ts';
import type { Db } from '../../../db/database.ts';
import { newId } from '../../../lib/ids.ts';

export const pixConfirmationRepo = {
  async recordRejection(
    db: Db,
    rejection: { receivedAt: Date; requestId: string; kind: PixNotification['kind']; reference: string; notification: PixNotification; reason: string },
  ): Promise<void> {
    await db
      .insertInto('pix_notification_rejections')
      .values({
        id: newId(),
        received_at: rejection.receivedAt,
        request_id: rejection.requestId,
        kind: rejection.kind,
        reference: rejection.reference,
        notification: JSON.stringify(rejection.notification),
        reason: rejection.reason,
      })
      .execute();
  },
};
