import { createAiLanguageService } from './ai-language';
import { createDisasterRecoveryService } from './disaster-recovery';
import type { EmulatedService, SandboxContext, ServiceDependencies } from './service';

/** One emulated OCI service as the composition root and the support-table generator see it. */
export interface ServiceRegistration<K extends string = string, TSandbox extends object = object> {
  /** Key of the service's ids in the sandbox (`GET /_ocikit/sandbox`). */
  key: K;
  /** Name in the README's support table. */
  name: string;
  create(deps: ServiceDependencies): EmulatedService<TSandbox>;
}

const register = <K extends string, TSandbox extends object>(registration: ServiceRegistration<K, TSandbox>) =>
  registration;

/**
 * Every emulated service. A new service is its folder under services/ (an `EmulatedService`:
 * routes plus its sandbox seed) and one line here: server.ts registers its routes and seeds its
 * sandbox, and coverage.ts lists its operations in the README's support table.
 */
export const SERVICES = [
  register({ key: 'disasterRecovery', name: 'Disaster Recovery', create: createDisasterRecoveryService }),
  register({ key: 'aiLanguage', name: 'AI Language', create: createAiLanguageService }),
] as const;

type Registered = (typeof SERVICES)[number];

/** The sandbox ids of every registered service, under its key. */
export type ServiceSandboxIds = {
  [S in Registered as S['key']]: ReturnType<ReturnType<S['create']>['seedSandbox']>;
};

/** What the sandbox seed created: where it put things, and each service's ids. */
export type SandboxIds = SandboxContext & ServiceSandboxIds;
