import { Repository } from '../../core/repository';
import type { EmulatedService, ServiceDependencies } from '../service';
import { goneAmong } from '../common/lifecycle-policy';
import { WorkRequests } from '../common/work-requests';
import type { AiLanguageDependencies } from './dependencies';
import { endpointKind, Endpoints, type EndpointBody } from './endpoints';
import { InferenceActions } from './inference-actions';
import { modelKind, Models, type ModelBody } from './models';
import { projectKind, Projects, type ProjectBody } from './projects';
import { aiLanguageRoutes } from './routes';
import { seedAiLanguageSandbox, type AiLanguageSandboxIds } from './sandbox';
import { LanguageWorkRequests } from './work-requests';

export type { AiLanguageSandboxIds } from './sandbox';

/**
 * The AI Language service (API 20221001): projects, models (pre-trained and custom-trained),
 * endpoints, work requests, and batch inference through endpoints.
 */
export function createAiLanguageService(deps: ServiceDependencies): EmulatedService<AiLanguageSandboxIds> {
  const { store, clock, settings, objects } = deps;
  const workRequests = new WorkRequests(store, clock, {
    table: 'ai_language_work_requests',
    ocidType: 'ailanguageworkrequest',
    transitionDelayMs: settings.transitionDelayMs,
    detailsField: 'lifecycleDetails',
  });
  const context: AiLanguageDependencies = {
    clock,
    settings,
    objects,
    projects: new Repository<ProjectBody>(store, projectKind, clock),
    models: new Repository<ModelBody>(store, modelKind, clock),
    endpoints: new Repository<EndpointBody>(store, endpointKind, clock),
    workRequests,
  };
  workRequests.registerKind(context.projects);
  workRequests.registerKind(context.models);
  workRequests.registerKind(context.endpoints);

  const endpoints = new Endpoints(context);
  return {
    routes: aiLanguageRoutes({
      projects: new Projects(context),
      models: new Models(context),
      endpoints,
      workRequests: new LanguageWorkRequests(workRequests),
      inference: new InferenceActions(context, endpoints),
      isGone: goneAmong([context.projects, context.models, context.endpoints]),
    }),
    seedSandbox: (sandbox) => seedAiLanguageSandbox(context, sandbox),
  };
}
