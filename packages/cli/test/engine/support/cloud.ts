// A real emulator (sandbox seed, zero transition delay) with the official OCI SDK clients for
// checking effects (the shared set-up of @ocikit/emulator/testing), and the provider environment
// the app passes to the engine in embedded mode.
import type { AIServiceLanguageClient } from 'oci-ailanguage';
import type { DisasterRecoveryClient, models as drModels } from 'oci-disasterrecovery';
import { startEmulator, type RunningEmulator, type SandboxIds } from '@ocikit/emulator';
import { ociTestClients } from '@ocikit/emulator/testing';

type DrPlanSummary = drModels.DrPlanSummary;

export interface Cloud {
  emulator: RunningEmulator;
  sandbox: SandboxIds;
  providerEnv: Record<string, string>;
  dr(region: string): DisasterRecoveryClient;
  language(region: string): AIServiceLanguageClient;
  /** The DR plans of the sandbox's STANDBY protection group that are not deleted or deleting. */
  livePlans(): Promise<DrPlanSummary[]>;
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
  const cloud: Cloud = {
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
    async livePlans() {
      const dr = cloud.dr(sandbox.disasterRecovery.standbyRegion);
      const res = await dr.listDrPlans({ drProtectionGroupId: sandbox.disasterRecovery.standbyProtectionGroupId });
      return res.drPlanCollection.items.filter(
        (p: DrPlanSummary) => !['DELETED', 'DELETING'].includes(p.lifecycleState),
      );
    },
    async close() {
      clients.close();
      await emulator.close();
    },
  };
  return cloud;
}
