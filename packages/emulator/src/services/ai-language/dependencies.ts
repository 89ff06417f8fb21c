import type { Clock } from '../../core/clock';
import type { Repository } from '../../core/repository';
import type { EmulatorSettings } from '../../core/settings';
import type { ObjectStore } from '../common/objects';
import type { WorkRequests } from '../common/work-requests';
import type { EndpointBody, ModelBody, ProjectBody } from './bodies';

/** What the AI Language services share: storage of each kind, its work requests, the clock and settings. */
export interface AiLanguageDependencies {
  clock: Clock;
  settings: EmulatorSettings;
  objects: ObjectStore;
  projects: Repository<ProjectBody>;
  models: Repository<ModelBody>;
  endpoints: Repository<EndpointBody>;
  workRequests: WorkRequests;
}
