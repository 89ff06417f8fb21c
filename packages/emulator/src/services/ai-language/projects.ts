import { rfc3339 } from '../../core/clock';
import { newOcid } from '../../core/ids';
import type { RequestContext } from '../../http/operation';
import { generatedDisplayName, listPage, resourceKind } from './resources';
import { compact } from '../common/resources';
import type { CreateResourceDetails, ListQuery, UpdateResourceDetails } from './resources';
import type { AiLanguageDependencies } from './dependencies';
import type { Started } from '../common/work-requests';
import { activeWhenDone, LifecycleOperations } from './lifecycle-operations';
import type { ProjectBody } from './bodies';

export type { ProjectBody } from './bodies';

export type CreateProjectDetails = CreateResourceDetails;

export type UpdateProjectDetails = UpdateResourceDetails;

export interface ListProjectsQuery extends ListQuery {
  projectId?: string;
}

// A project's summary carries every field of the project.
export const projectKind = resourceKind<ProjectBody>('ai_language_projects', {}, (body) => body);

/**
 * AI Language projects: the containers of models and endpoints. Create, update and delete run
 * as work requests (CREATING/UPDATING/DELETING for the emulator's transition delay); a
 * compartment move is immediate and has no work request, as the API declares.
 */
export class Projects {
  private readonly lifecycle: LifecycleOperations<ProjectBody>;

  constructor(private readonly c: AiLanguageDependencies) {
    this.lifecycle = new LifecycleOperations(c, 'Project', c.projects);
  }

  create(ctx: RequestContext, details: CreateProjectDetails): Started<ProjectBody> {
    const now = this.c.clock.now();
    const id = newOcid('ailanguageproject', ctx.region);
    const work = this.lifecycle.startWork(ctx, 'CREATED', id, details.compartmentId);
    const body: ProjectBody = compact({
      id,
      displayName: details.displayName ?? generatedDisplayName('project', now),
      compartmentId: details.compartmentId,
      description: details.description,
      timeCreated: rfc3339(now),
      lifecycleState: 'CREATING' as const,
      freeformTags: details.freeformTags ?? {},
      definedTags: details.definedTags ?? {},
      systemTags: {},
    });
    this.c.projects.save({ id, region: ctx.region, body, transitions: [activeWhenDone(work)] });
    return { resource: body, workRequestId: work.id };
  }

  /** The project in the request's region, or 404. */
  get(ctx: RequestContext, projectId: string): ProjectBody {
    const { body } = this.lifecycle.find(ctx, projectId);
    return body;
  }

  list(ctx: RequestContext, query: ListProjectsQuery) {
    return listPage(this.c.projects, ctx, query, { id: query.projectId });
  }

  /** Name, description and tags. */
  update(
    ctx: RequestContext,
    projectId: string,
    details: UpdateProjectDetails,
    ifMatch?: string,
  ): { workRequestId?: string } {
    return this.lifecycle.update(ctx, projectId, details, ifMatch);
  }

  /** Refused (409) while models or endpoints of the project are not DELETED. */
  delete(ctx: RequestContext, projectId: string, ifMatch?: string): { workRequestId?: string } {
    return this.lifecycle.delete(ctx, projectId, ifMatch, [
      { what: 'model(s)', repository: this.c.models, where: { region: ctx.region, projectId } },
      { what: 'endpoint(s)', repository: this.c.endpoints, where: { region: ctx.region, projectId } },
    ]);
  }

  /** Moves the project at once; its models and endpoints stay where they are, as in OCI. */
  changeCompartment(ctx: RequestContext, projectId: string, compartmentId: string, ifMatch?: string): void {
    this.lifecycle.changeCompartment(ctx, projectId, compartmentId, ifMatch);
  }
}
