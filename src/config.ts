/**
 * Every setting of the service, read from the environment and validated once at start-up.
 * The variables are declared in config/schema.ts (type, default, constraints, meaning), read by
 * config/env.ts and shaped into Config by config/load.ts; nothing else reads process.env.
 */
export { ConfigError, loadConfig } from './config/load.ts';
export { DEFAULT_ALLOWED_PROGRAMS } from './config/schema.ts';
export {
  type Config,
  type LogLevel,
  type OrderSettings,
  type PixSettings,
  type Role,
  ROLES,
  type SandboxSettings,
  type WalletSettings,
  type WebhookSettings,
} from './config/types.ts';
