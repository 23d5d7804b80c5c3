/**
 * What the lookup-tables job asks of a chain (decision 0056): one treasury transaction that
 * appends receivers' token accounts to a lookup table (creating the table first when none is
 * given), prepared (signed, nothing sent), sent again as the same bytes, and its status by the
 * PAYIN transfers' rule (port.ts) but at `finalized`: a batch loads only addresses the chain can
 * no longer take back. Then the table's addresses as the chain holds them.
 */
import type { PreparedTransfer, TransferState } from './port.ts';

export interface PreparedExtension extends PreparedTransfer {
  /** The table appended to: the one given, or the one the transaction creates. */
  table: string;
}

export interface LookupTableChain {
  /** The treasury's address: the tables' authority and the extensions' payer. */
  readonly authority: string;
  prepareExtension(table: string | undefined, addresses: readonly string[]): Promise<PreparedExtension>;
  sendExtension(prepared: PreparedTransfer): Promise<void>;
  /** Costs are the treasury's: the fee, and the rent the table's new bytes hold. */
  getExtensionStatus(prepared: PreparedTransfer): Promise<TransferState>;
  /** The table's addresses, finalized; undefined when no such table exists. */
  tableAddresses(table: string): Promise<string[] | undefined>;
}
