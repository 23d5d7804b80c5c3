/** What the API Pix adapter needs (the configuration's ApiPixSettings has this shape; adapters do not import config). */
export interface ApiPixAdapterSettings {
  /** API Pix base, up to and without /cob. */
  baseUrl: string;
  tokenUrl: string;
  /** Efí's PIX-out API base (PUT /v3/gn/pix/{idEnvio}). */
  payoutBaseUrl: string;
  clientId: string;
  clientSecret: string;
  clientCertPem: string;
  clientKeyPem: string;
  caPem: string | undefined;
  timeoutMs: number;
  maxAttempts: number;
  receivingKey: string;
  callbackUrl: string;
}
