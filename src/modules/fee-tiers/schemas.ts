/**
 * Fee tier shapes (spec, "Fee tier"). Percentages are FRACTIONS (0.005 = 0.5 %). Amounts and
 * rates arrive as JSON numbers or decimal text, read exactly as sent (DecimalAmount); records
 * show JSON numbers. The band rules (and each rate's maximum) are checked in bands.ts.
 */
import { Type } from 'typebox';
import { DecimalAmount, OrderTypeField, StrictObject, Uuid } from '../../http/schemas.ts';
import { MAX_VOLUME_BRL, MERCHANT_FEE_DECIMALS, PLATFORM_FEE_DECIMALS, VOLUME_DECIMALS } from './bands.ts';

export const OrderTypeSchema = OrderTypeField;

export const OrderTypeParams = StrictObject({ orderType: OrderTypeSchema });
export const FeeTierQuery = StrictObject({
  orderType: Type.Optional(Type.With(OrderTypeField, { description: 'Only the tiers of this order type (PAYIN or PAYOUT)' })),
});
export const AdminFeeTierQuery = FeeTierQuery;

const Amount = (description: string) => Type.Number({ minimum: 0, maximum: Number(MAX_VOLUME_BRL), description: `${description}; BRL, at most 2 decimals` });
const MinVolumeBrl = Amount("Lower bound of the volume band (inclusive): the merchant's BRL volume of that order type in the calendar month");
const MaxVolumeBrl = Type.Union([Amount('Upper bound of the volume band (exclusive)'), Type.Null()], {
  description: 'Upper bound of the volume band (exclusive), BRL; null means no upper bound (only the last tier)',
});
const PlatformFeePercentage = (extra = '') =>
  Type.Number({ minimum: 0, description: `Platform fee as a FRACTION (0.005 = 0.5 %)${extra}` });
const MerchantFeePercentage = Type.Number({
  minimum: 0,
  description: "The merchant's own fee as a FRACTION (0.01 = 1 %), from 0 to the platform's maximum (0.1 by default), at most 6 decimals",
});
const MinVolumeBrlInput = DecimalAmount({ places: VOLUME_DECIMALS, minimum: '0', maximum: MAX_VOLUME_BRL, description: "Lower bound of the volume band (inclusive), BRL" });
const MaxVolumeBrlInput = Type.Union(
  [DecimalAmount({ places: VOLUME_DECIMALS, minimum: '0', maximum: MAX_VOLUME_BRL, description: 'Upper bound of the volume band (exclusive), BRL' }), Type.Null()],
  { description: 'Upper bound of the volume band (exclusive), BRL; null means no upper bound (only the last tier)' },
);
/** A fraction; its own maximum (below 1, or the platform's maximum merchant fee) is checked in bands.ts. */
const RateInput = (places: number, description: string) => DecimalAmount({ places, minimum: '0', maximum: '1', description });
const TotalFeePercentage = Type.Number({ description: 'platformFeePercentage + merchantFeePercentage, a FRACTION (0.015 = 1.5 %)' });

const tierFields = {
  id: Uuid(),
  minVolumeBrl: MinVolumeBrl,
  maxVolumeBrl: MaxVolumeBrl,
  platformFeePercentage: PlatformFeePercentage("; fixed by the platform, the merchant cannot set it: the platform's rate in force at minVolumeBrl when the tier was written"),
  merchantFeePercentage: MerchantFeePercentage,
  totalFeePercentage: TotalFeePercentage,
};

export const FeeTierSchema = Type.Object(
  { id: tierFields.id, orderType: OrderTypeSchema, ...withoutId(tierFields) },
  { title: 'FeeTier', description: 'A volume band of the merchant. Percentages are fractions (0.005 = 0.5 %).' },
);
export const FeeTierList = Type.Array(FeeTierSchema);

export const ReplacedFeeTiers = Type.Object(
  {
    success: Type.Boolean(),
    tiers: Type.Array(Type.Object(tierFields, { title: 'ReplacedFeeTier' }), { description: 'The new tiers, by minVolumeBrl' }),
  },
  { title: 'ReplacedFeeTiers' },
);

export const MerchantFeeTiersBody = Type.Array(
  StrictObject(
    {
      minVolumeBrl: MinVolumeBrlInput,
      maxVolumeBrl: MaxVolumeBrlInput,
      merchantFeePercentage: RateInput(MERCHANT_FEE_DECIMALS, "The merchant's own fee as a FRACTION (0.01 = 1 %), up to the platform's maximum"),
    },
    { title: 'MerchantFeeTierInput', description: 'platformFeePercentage cannot be sent: it is set by the platform (400 VALIDATION_ERROR)' },
  ),
  { title: 'ReplaceFeeTiersRequest', description: 'The complete new set of tiers of the order type, by minVolumeBrl. Percentages are fractions (0.01 = 1 %).' },
);

const platformTierFields = {
  id: Uuid(),
  minVolumeBrl: MinVolumeBrl,
  maxVolumeBrl: MaxVolumeBrl,
  platformFeePercentage: PlatformFeePercentage(),
};

export const PlatformFeeTierSchema = Type.Object(
  { id: platformTierFields.id, orderType: OrderTypeSchema, ...withoutId(platformTierFields) },
  { title: 'PlatformFeeTier', description: 'A band of the platform schedule. Percentages are fractions (0.005 = 0.5 %).' },
);
export const PlatformFeeTierList = Type.Array(PlatformFeeTierSchema);

export const ReplacedPlatformFeeTiers = Type.Object(
  {
    success: Type.Boolean(),
    tiers: Type.Array(Type.Object(platformTierFields, { title: 'ReplacedPlatformFeeTier' }), { description: 'The new schedule, by minVolumeBrl' }),
  },
  { title: 'ReplacedPlatformFeeTiers' },
);

export const PlatformFeeTiersBody = Type.Array(
  StrictObject(
    { minVolumeBrl: MinVolumeBrlInput, maxVolumeBrl: MaxVolumeBrlInput, platformFeePercentage: RateInput(PLATFORM_FEE_DECIMALS, 'Platform fee as a FRACTION (0.005 = 0.5 %), below 1') },
    { title: 'PlatformFeeTierInput' },
  ),
  { title: 'ReplacePlatformFeeTiersRequest', description: 'The complete new platform schedule of the order type. Percentages are fractions (0.005 = 0.5 %).' },
);

function withoutId<T extends { id: unknown }>({ id: _id, ...rest }: T): Omit<T, 'id'> {
  return rest;
}
