/** The label of an in-flight stage (GET /ledger/balances `inFlight`), by order type and stage. */
import type { components } from '../../api/schema.ts';
import type { MessageKey } from '../../i18n/messages.ts';

export type InFlightStage = components['schemas']['InFlightStage'];

export const stageLabel = (stage: Pick<InFlightStage, 'type' | 'stage'>): MessageKey => `balances.stage.${stage.type}.${stage.stage}` as MessageKey;
