/**
 * An id as people read it: the merchant's own external id where the thing has one, else the whole
 * id in monospace (wrapping where the column is narrow), the full id in its title either way. Never
 * its first 8 characters: ids are UUID v7, whose first 8 are the creation time's high bits, the
 * same for every order made within about a minute.
 */
export const idLabel = (id: string, externalId?: string | null): string => externalId ?? id;

export function EntityId({ id, externalId }: { id: string; externalId?: string | null }) {
  if (externalId) return <span title={id} style={{ overflowWrap: 'anywhere' }}>{externalId}</span>;
  return <span className="entity-id" title={id}>{id}</span>;
}
