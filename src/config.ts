/**
 * Every setting of the service, read from the environment and validated once at start-up.
 * The variables are declared in config/schema.ts (type, default, constraints, meaning), read by
 * config/env.ts, arranged into Config by config/settings.ts (whose types derive from the schema)
 * and checked across variables by config/load.ts; nothing else reads process.env.
 */
export { ConfigError, loadConfig } from './config/load.ts';
export { DEFAULT_ALLOWED_PROGRAMS, ROLES } from './config/schema.ts';
export type {
  ApiPixSettings,
  Config,
  JwtSettings,
  LogLevel,
  OrderSettings,
  PixSettings,
  PriceSettings,
  ReconciliationSettings,
  Role,
  WalletSettings,
  WebhookSettings,
} from './config/settings.ts';
