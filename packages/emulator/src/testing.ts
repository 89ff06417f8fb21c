/**
 * `@ocikit/emulator/testing`: the one OCI test-client set-up for tests that drive a running
 * emulator with the official OCI SDK clients (the emulator's, the provider's and the CLI's
 * tests). Test-only: it needs `oci-common`, `oci-disasterrecovery` and `oci-ailanguage`
 * (2.139.1) installed by the package that uses it, and the emulator's main entry never loads it.
 *
 *   const clients = ociTestClients(emulator);        // credentials from the emulator's config file
 *   const dr = clients.dr('us-phoenix-1');           // endpoint <url>/r/us-phoenix-1
 *   await dr.createWaiters(fastWaiter()).forWorkRequest({ workRequestId });
 *   clients.close();
 */
import * as common from 'oci-common';
import { AIServiceLanguageClient } from 'oci-ailanguage';
import { DisasterRecoveryClient } from 'oci-disasterrecovery';

/** Three attempts, 10 ms apart: tests see the retries a real client makes, quickly. */
export const fastRetry: common.RetryConfiguration = {
  terminationStrategy: new common.MaxAttemptsTerminationStrategy(3),
  delayStrategy: new common.FixedTimeDelayStrategy(0.01),
};

/** Waiter settings that poll every 10 ms, for at most `attempts` polls. */
export const fastWaiter = (attempts = 200): common.WaiterConfiguration => ({
  terminationStrategy: new common.MaxAttemptsTerminationStrategy(attempts),
  delayStrategy: new common.FixedTimeDelayStrategy(0.01),
});

/** What of a running emulator the clients need (a `RunningEmulator` fits). */
export interface EmulatorEndpoint {
  url: string;
  /** The OCI config file the emulator wrote (profile DEFAULT). */
  configFile: string;
}

/** The first tenancy's user and key, as the emulator's config file names them. */
export interface TestCredentials {
  tenancyOcid: string;
  userOcid: string;
  fingerprint: string;
  privateKeyPath: string;
}

export interface OciTestClientsOptions {
  /** Region of `dr()`/`language()` called without one; unset: the emulator's root URL (its home region). */
  defaultRegion?: string;
}

export interface OciTestClients {
  credentials: TestCredentials;
  authenticationDetailsProvider: common.ConfigFileAuthenticationDetailsProvider;
  /** Fast retries, and no circuit breaker, so one test's errors cannot trip another's calls. */
  clientConfiguration: common.ClientConfiguration;
  /** `<url>/r/<region>`, or the root URL when no region is given and no default is set. */
  endpoint(region?: string): string;
  dr(region?: string): DisasterRecoveryClient;
  language(region?: string): AIServiceLanguageClient;
  /** Closes every client made here. */
  close(): void;
}

/** The official SDK clients pointed at an emulator, signed with the key of its config file. */
export function ociTestClients(emulator: EmulatorEndpoint, options: OciTestClientsOptions = {}): OciTestClients {
  const file = common.ConfigFileReader.parseFileFromPath(emulator.configFile, 'DEFAULT');
  const credentials: TestCredentials = {
    tenancyOcid: file.get('tenancy')!,
    userOcid: file.get('user')!,
    fingerprint: file.get('fingerprint')!,
    privateKeyPath: file.get('key_file')!,
  };
  const authenticationDetailsProvider = new common.ConfigFileAuthenticationDetailsProvider(
    emulator.configFile,
    'DEFAULT',
  );
  const clientConfiguration: common.ClientConfiguration = {
    retryConfiguration: fastRetry,
    circuitBreaker: new common.CircuitBreaker({ disableClientCircuitBreaker: true } as ConstructorParameters<
      typeof common.CircuitBreaker
    >[0]),
  };
  const endpoint = (region = options.defaultRegion) => (region ? `${emulator.url}/r/${region}` : emulator.url);
  const clients: Array<{ close(): void }> = [];
  const make = <T extends { endpoint: string; close(): void }>(client: T, region: string | undefined): T => {
    client.endpoint = endpoint(region);
    clients.push(client);
    return client;
  };
  return {
    credentials,
    authenticationDetailsProvider,
    clientConfiguration,
    endpoint,
    dr: (region) => make(new DisasterRecoveryClient({ authenticationDetailsProvider }, clientConfiguration), region),
    language: (region) =>
      make(new AIServiceLanguageClient({ authenticationDetailsProvider }, clientConfiguration), region),
    close() {
      clients.splice(0).forEach((client) => client.close());
    },
  };
}
