/**
 * What an operator without `kyc.review` sees of a receiver in the back office's paged reads (the
 * KYC queue, GET /admin/receivers/{id}): the document masked as DICT masks it (`***.456.789-**`),
 * the email, phone and street address hidden (issue 38 item 5). Reviewing needs them; watching the
 * queue does not, and those reads are not recorded page by page. The KYC file
 * (GET /admin/receivers/{id}/kyc) shows them whole, and every opening of it is recorded. Who reads
 * masked, and how a value is masked, is the back office's one rule (operators/personal-data-reads.ts).
 */
import { hide, maskedDocument } from '../operators/personal-data-reads.ts';
import type { Receiver } from './service.ts';

export function maskReceiver(receiver: Receiver): Receiver {
  return {
    ...receiver,
    document: maskedDocument(receiver.document),
    email: hide(receiver.email),
    phone: hide(receiver.phone),
    addressStreet: hide(receiver.addressStreet),
    addressNumber: hide(receiver.addressNumber),
    addressComplement: hide(receiver.addressComplement),
    addressZipCode: hide(receiver.addressZipCode),
  };
}
