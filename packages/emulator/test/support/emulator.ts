import * as common from 'oci-common';
import { AIServiceLanguageClient } from 'oci-ailanguage';
import { DisasterRecoveryClient } from 'oci-disasterrecovery';
import { identityFromConfig, type SigningIdentity } from './signed-fetch';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src';

/**
 * Boundary-test harness: a real emulator on an ephemeral loopback port and the official OCI SDK
 * clients pointed at it with credentials from the emulator's own config file. Retries are kept
 * (few and fast) so tests see what a real client sees; the circuit breaker is off so one test's
 * errors cannot trip another's calls.
 */
export interface TestEmulator {
  emulator: RunningEmulator;
  url: string;
  /** The emulator's first tenancy, user and key (from its config file), for raw signed requests. */
  identity: SigningIdentity;
  /** Disaster Recovery client for the home region (or `/r/<region>` when given). */
  dr(region?: string): DisasterRecoveryClient;
  /** AI Language client for the home region (or `/r/<region>` when given). */
  language(region?: string): AIServiceLanguageClient;
  /** Calls the `/_ocikit` admin API. */
  admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Moves the emulator's clock forward. */
  advance(seconds: number): Promise<void>;
  close(): Promise<void>;
}

export const fastRetry: common.RetryConfiguration = {
  terminationStrategy: new common.MaxAttemptsTerminationStrategy(3),
  delayStrategy: new common.FixedTimeDelayStrategy(0.01),
};

/** Waiter settings that poll every 10 ms, for at most `attempts` polls. */
export const fastWaiter = (attempts = 200): common.WaiterConfiguration => ({
  terminationStrategy: new common.MaxAttemptsTerminationStrategy(attempts),
  delayStrategy: new common.FixedTimeDelayStrategy(0.01),
});

/**
 * Compartments of the latest test emulator's first tenancy, created through the admin API at
 * start, so tests can take a fresh one synchronously (`newCompartmentId()`): the emulator refuses
 * compartments it did not create.
 */
let compartmentPool: string[] = [];

/** A fresh compartment of the latest started test emulator's first tenancy. */
export function newCompartmentId(): string {
  const id = compartmentPool.pop();
  if (!id) throw new Error('no test compartments left: start a test emulator first (or raise the pool size)');
  return id;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({
    inMemory: true,
    transitionDelaySeconds: 0,
    trainingDurationSeconds: 0,
    ...options,
  });
  const identity = identityFromConfig(emulator.configFile);
  compartmentPool = (
    await Promise.all(
      Array.from({ length: 48 }, (_, i) => emulator.admin.createCompartment(identity.tenancyId, `test-${i}`)),
    )
  ).map((c) => c.compartmentId);
  const provider = new common.ConfigFileAuthenticationDetailsProvider(emulator.configFile, 'DEFAULT');
  const clientConfiguration = {
    retryConfiguration: fastRetry,
    circuitBreaker: new common.CircuitBreaker({ disableClientCircuitBreaker: true } as ConstructorParameters<
      typeof common.CircuitBreaker
    >[0]),
  };
  const endpoint = (region?: string) => (region ? `${emulator.url}/r/${region}` : emulator.url);
  const clients: Array<{ close(): void }> = [];
  const track = <T extends { close(): void }>(client: T): T => {
    clients.push(client);
    return client;
  };
  const admin = <T = unknown>(method: string, path: string, body?: unknown) =>
    emulator.admin.request<T>(method, path, body);
  return {
    emulator,
    url: emulator.url,
    identity,
    dr(region) {
      const client = track(
        new DisasterRecoveryClient({ authenticationDetailsProvider: provider }, clientConfiguration),
      );
      client.endpoint = endpoint(region);
      return client;
    },
    language(region) {
      const client = track(
        new AIServiceLanguageClient({ authenticationDetailsProvider: provider }, clientConfiguration),
      );
      client.endpoint = endpoint(region);
      return client;
    },
    admin,
    advance: (seconds) => emulator.admin.advanceClock(seconds),
    async close() {
      clients.forEach((c) => c.close());
      await emulator.close();
    },
  };
}

/** Runs `call` and returns the OciError it throws (fails the test when it succeeds). */
export async function ociError(call: () => Promise<unknown>): Promise<common.OciError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof common.OciError) return error;
    throw error;
  }
  throw new Error('expected the call to fail with an OciError');
}
