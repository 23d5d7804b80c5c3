/**
 * Receiver shapes: the record, its limits, and the bodies of create, update and KYC submission.
 * Field names follow the spec (Receiver, Receiver limits, PATCH /receivers/{id}) and DESIGN.md §10.
 */
import { Type } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { DecimalAmount, HumanName, HumanText, StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';
import { BRAZILIAN_STATES } from '../../lib/br-states.ts';

export const PERSON_TYPES = ['PF', 'PJ'] as const;
export const RECEIVER_STATUSES = ['PENDING', 'ACTIVE', 'SUSPENDED', 'BLOCKED'] as const;
export const KYC_STATUSES = ['PENDING', 'SUBMITTED', 'UNDER_REVIEW', 'APPROVED', 'REJECTED'] as const;
export const KYC_DOCUMENT_TYPES = ['ID_FRONT', 'ID_BACK', 'SELFIE', 'PROOF_OF_ADDRESS', 'ARTICLES_OF_INCORPORATION'] as const;

// Titled: each is one component of the OpenAPI document, which every record, body and filter
// refers to (http/openapi-components.ts), so a generator emits one type for it.
export const PersonTypeSchema = Type.Enum(PERSON_TYPES, { title: 'PersonType', description: 'Person type: PF (individual, CPF) or PJ (company, CNPJ). Immutable.' });
export const ReceiverStatusSchema = Type.Enum(RECEIVER_STATUSES, { title: 'ReceiverStatus', description: 'Receiver status; ACTIVE once KYC is approved' });
export const KycStatusSchema = Type.Enum(KYC_STATUSES, { title: 'KycStatus', description: 'KYC review status: PENDING (nothing submitted yet), SUBMITTED, UNDER_REVIEW, then APPROVED or REJECTED (a REJECTED receiver may submit again)' });
export const BrazilianStateSchema = Type.Enum(BRAZILIAN_STATES, { title: 'BrazilianState', description: 'Brazilian state (UF), two letters' });
export const DocumentTypeSchema = Type.Enum(['CPF', 'CNPJ'], { title: 'DocumentType', description: "CPF (an individual) or CNPJ (a company); a receiver's never changes" });
export const KycDocumentTypeSchema = Type.Enum(KYC_DOCUMENT_TYPES, { title: 'KycDocumentType' });

const DAILY_LIMIT_DESCRIPTION = 'Largest BRL total of orders per calendar day (America/Sao_Paulo); null for no limit';
/** Requests send the limit as a number or decimal text (DecimalAmount); records show it as a JSON number. */
const DailyLimitBrlInput = Type.Union(
  [DecimalAmount({ places: 2, minimum: '0', maximum: '10000000000000', description: 'BRL per calendar day' }), Type.Null()],
  { description: DAILY_LIMIT_DESCRIPTION },
);
const DailyLimitBrl = Type.Union([Type.Number({ minimum: 0, maximum: 1e13 }), Type.Null()], { description: `${DAILY_LIMIT_DESCRIPTION}. At most 2 decimals.` });
const DailyTransactionLimit = Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000 }), Type.Null()], {
  description: 'Largest number of orders per calendar day (America/Sao_Paulo); null for no limit',
});
const NightTransactionsEnabled = Type.Boolean({
  description: 'Whether orders may be created in the night period (20:00 to 06:00 America/Sao_Paulo)',
});

export const LimitsBody = StrictObject({
  dailyLimitBrl: DailyLimitBrlInput,
  dailyTransactionLimit: DailyTransactionLimit,
  nightTransactionsEnabled: NightTransactionsEnabled,
}, { title: 'ReceiverLimitsRequest' });

export const LimitsSchema = Type.Object(
  {
    receiverId: Uuid(),
    dailyLimitBrl: DailyLimitBrl,
    dailyTransactionLimit: DailyTransactionLimit,
    nightTransactionsEnabled: NightTransactionsEnabled,
    usageDay: Type.String({ format: 'date', description: 'The calendar day (America/Sao_Paulo) the usage below counts, YYYY-MM-DD: today' }),
    ordersToday: Type.Integer({
      minimum: 0,
      description: 'Orders counted against dailyTransactionLimit today: those created today, less those that failed before payment (the same count order creation checks)',
    }),
    usedTodayBrl: Type.Number({
      minimum: 0,
      description: 'BRL total counted against dailyLimitBrl today, at most 2 decimals (the same total order creation checks: an order is refused 422 LIMIT_EXCEEDED when its amount would pass the limit)',
    }),
  },
  { title: 'ReceiverLimits' },
);

/**
 * The editable contact and address fields (the spec's PATCH body), all optional. They are printed
 * on receipts and dashboards, so none may hide characters (HumanText).
 */
const contactFields = {
  phone: Type.Optional(HumanText({ minLength: 1, maxLength: 20 })),
  addressStreet: Type.Optional(HumanText({ minLength: 1, maxLength: 255 })),
  addressNumber: Type.Optional(HumanText({ minLength: 1, maxLength: 20 })),
  addressComplement: Type.Optional(HumanText({ minLength: 1, maxLength: 255 })),
  addressNeighborhood: Type.Optional(HumanText({ minLength: 1, maxLength: 255 })),
  addressCity: Type.Optional(HumanText({ minLength: 1, maxLength: 255 })),
  addressState: Type.Optional(BrazilianStateSchema),
  addressZipCode: Type.Optional(HumanText({ minLength: 1, maxLength: 10 })),
};
const Name = HumanName();
const Email = Type.String({ format: 'email', maxLength: 254 });

export const CreateReceiverBody = StrictObject({
  type: PersonTypeSchema,
  document: Type.String({
    minLength: 1,
    maxLength: 32,
    description: 'CPF for PF, CNPJ (numeric or alphanumeric) for PJ; digits or formatted; check digits verified. Immutable.',
  }),
  name: Name,
  email: Email,
  ...contactFields,
  walletAddress: Type.Optional(Type.String({ minLength: 32, maxLength: 44, description: "The receiver's own Solana address (base58)" })),
  createManagedWallet: Type.Optional(
    Type.Boolean({ description: 'Create a platform-managed wallet for the receiver (needed by the wallet sign endpoints). Excludes walletAddress.' }),
  ),
  limits: Type.Optional(
    StrictObject({
      dailyLimitBrl: Type.Optional(DailyLimitBrlInput),
      dailyTransactionLimit: Type.Optional(DailyTransactionLimit),
      nightTransactionsEnabled: Type.Optional(NightTransactionsEnabled),
    }),
  ),
}, { title: 'CreateReceiverRequest' });

/** Fields whose presence in an update is refused with a message saying they are immutable. */
export const IMMUTABLE_RECEIVER_FIELDS = ['document', 'type', 'documentType'] as const;

export const UpdateReceiverBody = StrictObject({
  name: Type.Optional(Name),
  email: Type.Optional(Email),
  ...contactFields,
  // Listed so that sending them is answered "immutable" rather than "unknown property".
  document: Type.Optional(Type.Unknown({ description: 'Immutable: sending it is a 400' })),
  type: Type.Optional(Type.Unknown({ description: 'Immutable: sending it is a 400' })),
  documentType: Type.Optional(Type.Unknown({ description: 'Immutable: sending it is a 400' })),
}, { title: 'UpdateReceiverRequest' });

export const ReceiverSchema = Type.Object(
  {
    id: Uuid(),
    merchantId: Uuid('Owning merchant'),
    type: PersonTypeSchema,
    documentType: DocumentTypeSchema,
    document: Type.String({ description: 'Normalised document number (bare, uppercase). Immutable.' }),
    name: Type.String(),
    email: Type.String(),
    phone: Type.Union([Type.String(), Type.Null()]),
    addressStreet: Type.Union([Type.String(), Type.Null()]),
    addressNumber: Type.Union([Type.String(), Type.Null()]),
    addressComplement: Type.Union([Type.String(), Type.Null()]),
    addressNeighborhood: Type.Union([Type.String(), Type.Null()]),
    addressCity: Type.Union([Type.String(), Type.Null()]),
    addressState: Type.Union([Type.String(), Type.Null()]),
    addressZipCode: Type.Union([Type.String(), Type.Null()]),
    status: ReceiverStatusSchema,
    kycStatus: KycStatusSchema,
    kycRejectionReason: Type.Union([Type.String(), Type.Null()], { description: 'Reason of the last KYC rejection, until the next decision' }),
    kycSubmittedAt: Type.Union([Timestamp(), Type.Null()]),
    kycReviewedAt: Type.Union([Timestamp(), Type.Null()]),
    walletAddress: Type.Union([Type.String(), Type.Null()], { description: "Chain address of the receiver's wallet (own or managed)" }),
    hasManagedWallet: Type.Boolean({ description: 'Whether the platform holds a managed wallet for this receiver' }),
    limits: Type.Object({
      dailyLimitBrl: DailyLimitBrl,
      dailyTransactionLimit: DailyTransactionLimit,
      nightTransactionsEnabled: NightTransactionsEnabled,
    }),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  },
  { $id: 'Receiver', title: 'Receiver' },
);

export const ReceiverListQuery = StrictObject({
  ...PageQuery,
  status: Type.Optional(ReceiverStatusSchema),
  kycStatus: Type.Optional(KycStatusSchema),
  type: Type.Optional(PersonTypeSchema),
});

export const KycSubmissionBody = StrictObject({
  birthDate: Type.Optional(Type.String({ format: 'date', description: 'PF only: YYYY-MM-DD' })),
  incorporationDate: Type.Optional(Type.String({ format: 'date', description: 'PJ only: YYYY-MM-DD' })),
  motherName: Type.Optional(HumanName('PF only')),
  documents: Type.Array(
    StrictObject({
      type: KycDocumentTypeSchema,
      reference: Type.String({ minLength: 1, maxLength: 500, description: "The merchant's storage reference of the file" }),
    }),
    { minItems: 1, maxItems: 20 },
  ),
}, { title: 'SubmitKycRequest' });

export const KycSubmissionResult = Type.Object(
  {
    receiverId: Uuid(),
    kycStatus: KycStatusSchema,
    kycSubmittedAt: Timestamp(),
    previousRejectionReason: Type.Union([Type.String(), Type.Null()], {
      description: 'The reason of the last rejection, shown at this submission (null if there was none)',
    }),
  },
  { title: 'KycSubmissionResult' },
);

export const KycRejectBody = StrictObject({
  reason: Type.String({ minLength: 1, maxLength: 1000, description: 'Shown to the receiver at the next submission' }),
}, { title: 'RejectKycRequest' });

export const SandboxKycBody = StrictObject({
  decision: Type.Enum(['APPROVE', 'REJECT']),
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'Required when rejecting' })),
}, { title: 'SandboxKycDecisionRequest' });
