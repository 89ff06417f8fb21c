// A real emulator (sandbox seed, zero transition delay) with the official OCI SDK clients for
// checking effects, and the provider environment the app passes to the engine in embedded mode.
import * as common from 'oci-common';
import { AIServiceLanguageClient } from 'oci-ailanguage';
import { DisasterRecoveryClient, type models as drModels } from 'oci-disasterrecovery';

type DrPlanSummary = drModels.DrPlanSummary;
import { startEmulator, type RunningEmulator, type SandboxIds } from '@ocikit/emulator';

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
  const file = common.ConfigFileReader.parseFileFromPath(emulator.configFile, 'DEFAULT');
  const sandbox = emulator.sandbox!;
  const providerEnv = {
    OCIKIT_ENDPOINT: emulator.url,
    OCI_REGION: sandbox.homeRegion,
    OCI_TENANCY_OCID: file.get('tenancy')!,
    OCI_USER_OCID: file.get('user')!,
    OCI_FINGERPRINT: file.get('fingerprint')!,
    OCI_PRIVATE_KEY_PATH: file.get('key_file')!,
  };
  const auth = new common.ConfigFileAuthenticationDetailsProvider(emulator.configFile, 'DEFAULT');
  const conf = {
    retryConfiguration: {
      terminationStrategy: new common.MaxAttemptsTerminationStrategy(3),
      delayStrategy: new common.FixedTimeDelayStrategy(0.01),
    },
    circuitBreaker: new common.CircuitBreaker({ disableClientCircuitBreaker: true } as never),
  };
  const clients: Array<{ close(): void }> = [];
  const cloud: Cloud = {
    emulator,
    sandbox,
    providerEnv,
    dr(region) {
      const c = new DisasterRecoveryClient({ authenticationDetailsProvider: auth }, conf);
      c.endpoint = `${emulator.url}/r/${region}`;
      clients.push(c);
      return c;
    },
    language(region) {
      const c = new AIServiceLanguageClient({ authenticationDetailsProvider: auth }, conf);
      c.endpoint = `${emulator.url}/r/${region}`;
      clients.push(c);
      return c;
    },
    async livePlans() {
      const dr = cloud.dr(sandbox.disasterRecovery.standbyRegion);
      const res = await dr.listDrPlans({ drProtectionGroupId: sandbox.disasterRecovery.standbyProtectionGroupId });
      return res.drPlanCollection.items.filter(
        (p: DrPlanSummary) => !['DELETED', 'DELETING'].includes(p.lifecycleState),
      );
    },
    async close() {
      clients.forEach((c) => c.close());
      await emulator.close();
    },
  };
  return cloud;
}
