import { v7 } from 'uuid';

/** Time-ordered UUID (v7): new rows land at the end of their primary-key index. */
export const newId = (): string => v7();

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
