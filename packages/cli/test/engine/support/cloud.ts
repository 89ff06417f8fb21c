// A real emulator (sandbox seed, zero transition delay) with the official OCI SDK clients for
// checking effects (the shared set-up of @ocikit/emulator/testing), and the provider environment
// the app passes to the engine in embedded mode.
import type { AIServiceLanguageClient } from 'oci-ailanguage';
import type { DisasterRecoveryClient } from 'oci-disasterrecovery';
import { startEmulator, type RunningEmulator, type SandboxIds } from '@ocikit/emulator';
import { ociTestClients } from '@ocikit/emulator/testing';

export interface Cloud {
  emulator: RunningEmulator;
  sandbox: SandboxIds;
  providerEnv: Record<string, string>;
  dr(region: string): DisasterRecoveryClient;
  language(region: string): AIServiceLanguageClient;
  close(): Promise<void>;
}

export async function startCloud(options: { transitionDelaySeconds?: number } = {}): Promise<Cloud> {
  const emulator = await startEmulator({
    inMemory: true,
    seed: 'sandbox',
    transitionDelaySeconds: options.transitionDelaySeconds ?? 0,
    trainingDurationSeconds: 0,
  });
  const sandbox = emulator.sandbox!;
  const clients = ociTestClients(emulator);
  const { credentials } = clients;
  return {
    emulator,
    sandbox,
    providerEnv: {
      OCIKIT_ENDPOINT: emulator.url,
      OCI_REGION: sandbox.homeRegion,
      OCI_TENANCY_OCID: credentials.tenancyOcid,
      OCI_USER_OCID: credentials.userOcid,
      OCI_FINGERPRINT: credentials.fingerprint,
      OCI_PRIVATE_KEY_PATH: credentials.privateKeyPath,
    },
    dr: (region) => clients.dr(region),
    language: (region) => clients.language(region),
    async close() {
      clients.close();
      await emulator.close();
    },
  };
}
