import type { Clock } from '../core/clock';
import type { Credentials } from '../core/credentials';
import type { EmulatorSettings } from '../core/settings';
import type { ServiceRoutes } from '../http/operation';
import type { Store } from '../store/store';
import type { ObjectStore } from './common/objects';

/** What the composition root hands every service. */
export interface ServiceDependencies {
  store: Store;
  clock: Clock;
  settings: EmulatorSettings;
  credentials: Credentials;
  objects: ObjectStore;
}

/** Where the sandbox seed puts things. */
export interface SandboxContext {
  tenancyId: string;
  compartmentId: string;
  homeRegion: string;
  peerRegion: string;
}

/** An emulated OCI service: its routes plus its part of the sandbox seed. */
export interface EmulatedService<TSandbox extends object> {
  routes: ServiceRoutes;
  /** Creates the service's sandbox resources, already ACTIVE, and returns their ids. */
  seedSandbox(context: SandboxContext): TSandbox;
}
