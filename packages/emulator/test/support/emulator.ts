import * as common from 'oci-common';
import type { AIServiceLanguageClient } from 'oci-ailanguage';
import type { DisasterRecoveryClient } from 'oci-disasterrecovery';
import { identityFromConfig, type SigningIdentity } from './signed-fetch';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src';
import { fastRetry, fastWaiter, ociTestClients } from '../../src/testing';

export { fastRetry, fastWaiter };

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

/**
 * The latest started test emulator: `newCompartmentId()` creates its compartments (through the
 * admin API, on demand: the emulator refuses compartments it did not create).
 */
let latest: { emulator: RunningEmulator; tenancyId: string } | undefined;
let compartments = 0;

/** A fresh compartment of the latest started test emulator's first tenancy. */
export async function newCompartmentId(): Promise<string> {
  if (!latest) throw new Error('no test emulator: start one with startTestEmulator() first');
  return (await latest.emulator.admin.createCompartment(latest.tenancyId, `test-${++compartments}`)).compartmentId;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({
    inMemory: true,
    transitionDelaySeconds: 0,
    trainingDurationSeconds: 0,
    ...options,
  });
  const identity = identityFromConfig(emulator.configFile);
  latest = { emulator, tenancyId: identity.tenancyId };
  const clients = ociTestClients(emulator);
  const admin = <T = unknown>(method: string, path: string, body?: unknown) =>
    emulator.admin.request<T>(method, path, body);
  return {
    emulator,
    url: emulator.url,
    identity,
    dr: (region) => clients.dr(region),
    language: (region) => clients.language(region),
    admin,
    advance: (seconds) => emulator.admin.advanceClock(seconds),
    async close() {
      clients.close();
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
