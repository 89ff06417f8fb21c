// The official OCI SDK clients, built once per Configure. Loaded lazily so the plugin prints its
// port before paying for the OCI SDK.
import type { DisasterRecoveryClient } from 'oci-disasterrecovery';
import type { AIServiceLanguageClient } from 'oci-ailanguage';
import type { ProviderConfig, Credentials } from './config';
import { packageVersion } from './package-version';
import { KeyObjectRequestSigner } from './signer';
import { withNetworkReason } from './errors';

export const USER_AGENT = `ocikit-pulumi-resource-oci/${packageVersion()}`;

export interface Clients {
  region: string;
  dr: DisasterRecoveryClient;
  language: AIServiceLanguageClient;
  close(): void;
}

export function createClients(config: ProviderConfig, creds: Credentials): Clients {
  const common = require('oci-common') as typeof import('oci-common');
  const { DisasterRecoveryClient } = require('oci-disasterrecovery') as typeof import('oci-disasterrecovery');
  const { AIServiceLanguageClient } = require('oci-ailanguage') as typeof import('oci-ailanguage');
  // The SDK reads this per request and appends it to its own User-Agent.
  const ua = process.env.OCI_SDK_APPEND_USER_AGENT;
  if (!ua?.includes(USER_AGENT)) process.env.OCI_SDK_APPEND_USER_AGENT = ua ? `${ua} ${USER_AGENT}` : USER_AGENT;

  const region = creds.region;
  const auth = new common.SimpleAuthenticationDetailsProvider(
    creds.tenancy,
    creds.user,
    creds.fingerprint,
    creds.privateKey,
    creds.passphrase ?? null,
    knownRegion(common, region),
  );
  const retryConfiguration: typeof common.OciSdkDefaultRetryConfiguration = config.disableAutoRetries
    ? common.NoRetryConfigurationDetails
    : config.retryDurationSeconds !== undefined
      ? {
          // pulumi-oci's retryDurationSeconds: keep retrying retriable errors for that long.
          // (negative, as in Terraform: for as long as it takes; ten years stands for that)
          terminationStrategy: new common.MaxTimeTerminationStrategy(
            config.retryDurationSeconds < 0 ? 315_360_000 : Math.max(1, config.retryDurationSeconds),
          ),
          delayStrategy: new common.ExponentialBackoffDelayStrategy(30),
          retryCondition: common.OciSdkDefaultRetryConfiguration.retryCondition,
          backupBinaryBody: false,
        }
      : common.OciSdkDefaultRetryConfiguration;
  // No circuit breaker: a plan's worth of retriable errors (e.g. injected 503s) must not make
  // later, healthy calls fail with EOPENBREAKER; the retry budget above bounds the work instead.
  const clientConfiguration = {
    retryConfiguration,
    circuitBreaker: new common.CircuitBreaker({ disableClientCircuitBreaker: true } as never),
  };
  // The SDK's own HTTP client, signing with the key parsed once (see signer.ts), shared by both
  // clients. Given an httpClient the clients take no auth provider: their region is set below.
  const httpClient = new common.FetchHttpClient(new KeyObjectRequestSigner(auth, common), null);
  const send = httpClient.send.bind(httpClient);
  httpClient.send = (...args: Parameters<typeof send>) =>
    send(...args).catch((e: unknown) => {
      throw withNetworkReason(e);
    });
  const dr = new DisasterRecoveryClient({ httpClient }, clientConfiguration);
  const language = new AIServiceLanguageClient({ httpClient }, clientConfiguration);
  if (config.endpoint) {
    // ocikit convention: with an endpoint override, region R lives at `<endpoint>/r/<R>`
    // (the emulator serves every region, home included, under that prefix).
    const base = `${config.endpoint.replace(/\/+$/, '')}/r/${region}`;
    dr.endpoint = base;
    language.endpoint = base;
  } else {
    dr.regionId = region;
    language.regionId = region;
  }
  return {
    region,
    dr,
    language,
    close() {
      dr.close();
      language.close();
    },
  };
}

function knownRegion(common: typeof import('oci-common'), region: string): import('oci-common').Region | undefined {
  try {
    return common.Region.fromRegionId(region);
  } catch {
    return undefined;
  }
}
