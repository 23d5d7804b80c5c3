import type { ApiPixSettings } from '../../../config.ts';

/** What the API Pix adapter reads of the configuration's ApiPixSettings (the webhook's own settings are the route's). */
export type ApiPixAdapterSettings = Pick<
  ApiPixSettings,
  'baseUrl' | 'tokenUrl' | 'payoutBaseUrl' | 'clientId' | 'clientSecret' | 'clientCertPem' | 'clientKeyPem' | 'caPem' | 'timeoutMs' | 'maxAttempts' | 'receivingKey' | 'callbackUrl'
>;
