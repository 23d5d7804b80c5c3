/**
 * The sandbox PSP's DICT: who holds a PIX key, for the key lookup of the PixProvider port. A CPF or
 * CNPJ key is held by that document (DICT registers it only to its holder), so it needs no entry;
 * an EMAIL, PHONE or EVP key is held by whom `registerPixKey` (POST /sandbox/pix-keys) last named,
 * and is unknown (null) before. Registering a key again moves it, as a DICT portability claim does.
 */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { isValidCnpj, isValidCpf, normalizeDocument } from '../../lib/br-documents.ts';
import { validatePixKey } from '../../lib/pix-keys.ts';
import type { PixKeyHolder, PixKeyType } from './port.ts';
import type { SandboxPixKeyType } from './sandbox-tables.ts';

export interface SandboxPixKeyRegistration {
  /** In DICT form. */
  key: string;
  keyType: SandboxPixKeyType;
  holderDocument: string;
}

/** A registration the sandbox DICT refuses; `field` names the bad part. */
export class SandboxDictRefusal extends Error {
  readonly field: 'key' | 'keyType' | 'document';
  constructor(field: 'key' | 'keyType' | 'document', message: string) {
    super(message);
    this.field = field;
    this.name = 'SandboxDictRefusal';
  }
}

export function createSandboxDict(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    async lookupPixKey(key: string, keyType: PixKeyType): Promise<PixKeyHolder | null> {
      const checked = validatePixKey(keyType, key);
      if (!checked.ok) return null;
      if (keyType === 'CPF' || keyType === 'CNPJ') return { holderDocument: checked.normalized };
      const row = await db.selectFrom('sandbox_pix_keys').select('holder_document').where('key', '=', checked.normalized).where('key_type', '=', keyType).executeTakeFirst();
      return row ? { holderDocument: row.holder_document } : null;
    },

    /** Registers (or moves) an EMAIL, PHONE or EVP key to the holder of a CPF or CNPJ. */
    async registerPixKey(input: { key: string; keyType: PixKeyType; document: string }): Promise<SandboxPixKeyRegistration> {
      if (input.keyType === 'CPF' || input.keyType === 'CNPJ') {
        throw new SandboxDictRefusal('keyType', 'a CPF or CNPJ key is held by that document already; register EMAIL, PHONE or EVP keys');
      }
      const checked = validatePixKey(input.keyType, input.key);
      if (!checked.ok) throw new SandboxDictRefusal('key', checked.reason);
      const document = normalizeDocument(input.document);
      if (!isValidCpf(document) && !isValidCnpj(document)) throw new SandboxDictRefusal('document', 'must be a valid CPF or CNPJ');
      const row = { key: checked.normalized, key_type: input.keyType, holder_document: document, created_at: clock.now() };
      await db
        .insertInto('sandbox_pix_keys')
        .values(row)
        .onConflict((oc) => oc.column('key').doUpdateSet({ key_type: row.key_type, holder_document: row.holder_document, created_at: row.created_at }))
        .execute();
      return { key: row.key, keyType: row.key_type, holderDocument: row.holder_document };
    },
  };
}

export type SandboxDict = ReturnType<typeof createSandboxDict>;
