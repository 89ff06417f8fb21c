import { rfc3339 } from '../../core/clock';
import { errors } from '../../core/errors';
import { assertIfMatch, etagOf } from '../../core/etag';
import { newOcid } from '../../core/ids';
import type { Entity } from '../../core/lifecycle';
import type { RequestContext } from '../../http/operation';
import { paginate, parsePage } from '../../http/pagination';
import type { KindDefinition } from '../../store/store';
import { deletionTransitions, listOrder } from '../common/resources';
import {
  assertChangeable,
  assertNoLiveChildren,
  compact,
  whereOf,
  entityUri,
  generatedDisplayName,
  type AiLanguageContext,
  type DefinedTags,
  type FreeformTags,
  type ResourceBody,
} from './context';
import { ENTITY_TYPES, type LifecycleState } from './enums';

/** `Project`; `ProjectSummary` has the same fields. */
export type ProjectBody = ResourceBody;

export interface CreateProjectDetails {
  compartmentId: string;
  displayName?: string;
  description?: string;
  freeformTags?: FreeformTags;
  definedTags?: DefinedTags;
}

export type UpdateProjectDetails = Omit<Partial<CreateProjectDetails>, 'compartmentId'>;

export interface ListProjectsQuery {
  compartmentId: string;
  projectId?: string;
  lifecycleState?: LifecycleState;
  displayName?: string;
  limit?: number;
  page?: string;
  sortOrder?: 'ASC' | 'DESC';
  sortBy?: 'timeCreated' | 'displayName';
}

export const PROJECT_KIND: KindDefinition = {
  name: 'ai_language_projects',
  columns: {
    compartmentId: { type: 'TEXT', value: (e: Entity<ProjectBody>) => e.body.compartmentId },
    lifecycleState: { type: 'TEXT', value: (e: Entity<ProjectBody>) => e.body.lifecycleState },
    displayName: { type: 'TEXT', value: (e: Entity<ProjectBody>) => e.body.displayName },
    timeCreated: { type: 'TEXT', value: (e: Entity<ProjectBody>) => e.body.timeCreated },
  },
};

/** A project and its etag, as Create and Get answer. */
export interface ProjectWithEtag {
  project: ProjectBody;
  etag: string;
}

/**
 * AI Language projects: the containers of models and endpoints. Create, update and delete run
 * as work requests (CREATING/UPDATING/DELETING for the emulator's transition delay); a
 * compartment move is immediate and has no work request, as the API declares.
 */
export class Projects {
  constructor(private readonly c: AiLanguageContext) {}

  create(ctx: RequestContext, details: CreateProjectDetails): ProjectWithEtag & { workRequestId: string } {
    const now = this.c.clock.now();
    const id = newOcid('ailanguageproject', ctx.region);
    const work = this.c.workRequests.start({
      region: ctx.region,
      operationType: 'CREATE_PROJECT',
      compartmentId: details.compartmentId,
      resources: [{ entityType: ENTITY_TYPES.project, identifier: id, entityUri: entityUri('projects', id), action: 'CREATED' }],
    });
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
    this.c.projects.save({
      id,
      region: ctx.region,
      body,
      transitions: [
        { at: work.finishesAt, set: { lifecycleState: 'ACTIVE', timeUpdated: rfc3339(work.finishesAt) }, workRequestId: work.id },
      ],
    });
    return { project: body, etag: etagOf(body), workRequestId: work.id };
  }

  /** The project in the request's region, or 404. */
  find(ctx: RequestContext, projectId: string): Entity<ProjectBody> {
    const entity = this.c.projects.find(projectId, ctx.region);
    if (!entity) throw errors.notAuthorizedOrNotFound(`project ${projectId}`);
    return entity;
  }

  get(ctx: RequestContext, projectId: string): ProjectWithEtag {
    const { body } = this.find(ctx, projectId);
    return { project: body, etag: etagOf(body) };
  }

  list(ctx: RequestContext, query: ListProjectsQuery) {
    const where = whereOf({
      region: ctx.region,
      compartmentId: query.compartmentId,
      id: query.projectId,
      lifecycleState: query.lifecycleState,
      displayName: query.displayName,
    });
    return paginate(parsePage(query), (limit, offset) =>
      this.c.projects.list({ where, orderBy: listOrder(query), limit, offset }).map((e) => e.body),
    );
  }

  update(ctx: RequestContext, projectId: string, details: UpdateProjectDetails, ifMatch?: string): { workRequestId: string } {
    const entity = this.find(ctx, projectId);
    assertIfMatch(ifMatch, entity.body);
    assertChangeable('Project', entity.body, 'UpdateProject');
    const now = this.c.clock.now();
    const work = this.c.workRequests.start({
      region: ctx.region,
      operationType: 'UPDATE_PROJECT',
      compartmentId: entity.body.compartmentId,
      resources: [{ entityType: ENTITY_TYPES.project, identifier: projectId, entityUri: entityUri('projects', projectId), action: 'UPDATED' }],
    });
    this.c.projects.save({
      ...entity,
      body: compact({
        ...entity.body,
        displayName: details.displayName ?? entity.body.displayName,
        description: details.description ?? entity.body.description,
        freeformTags: details.freeformTags ?? entity.body.freeformTags,
        definedTags: details.definedTags ?? entity.body.definedTags,
        lifecycleState: 'UPDATING' as const,
        timeUpdated: rfc3339(now),
      }),
      transitions: [
        ...entity.transitions,
        { at: work.finishesAt, set: { lifecycleState: 'ACTIVE', timeUpdated: rfc3339(work.finishesAt) }, workRequestId: work.id },
      ],
    });
    return { workRequestId: work.id };
  }

  /** Refused (409) while models or endpoints of the project are not DELETED. */
  delete(ctx: RequestContext, projectId: string, ifMatch?: string): { workRequestId: string } {
    const entity = this.find(ctx, projectId);
    assertIfMatch(ifMatch, entity.body);
    assertChangeable('Project', entity.body, 'DeleteProject', { allowFailed: true });
    assertNoLiveChildren(`Project ${projectId}`, [
      { what: 'model(s)', repository: this.c.models, where: { region: ctx.region, projectId } },
      { what: 'endpoint(s)', repository: this.c.endpoints, where: { region: ctx.region, projectId } },
    ]);
    const now = this.c.clock.now();
    const work = this.c.workRequests.start({
      region: ctx.region,
      operationType: 'DELETE_PROJECT',
      compartmentId: entity.body.compartmentId,
      resources: [{ entityType: ENTITY_TYPES.project, identifier: projectId, entityUri: entityUri('projects', projectId), action: 'DELETED' }],
    });
    this.c.projects.save({
      ...entity,
      body: { ...entity.body, lifecycleState: 'DELETING', timeUpdated: rfc3339(now) },
      transitions: deletionTransitions(now, this.c.settings, work.id),
    });
    return { workRequestId: work.id };
  }

  /**
   * Moves the project at once. The API gives this operation no work request and no
   * `OperationType`, so there is nothing to track: the project stays ACTIVE. Its models and
   * endpoints stay where they are, as in OCI.
   */
  changeCompartment(ctx: RequestContext, projectId: string, compartmentId: string, ifMatch?: string): void {
    const entity = this.find(ctx, projectId);
    assertIfMatch(ifMatch, entity.body);
    assertChangeable('Project', entity.body, 'ChangeProjectCompartment');
    if (entity.body.compartmentId === compartmentId) return;
    this.c.projects.save({ ...entity, body: { ...entity.body, compartmentId, timeUpdated: rfc3339(this.c.clock.now()) } });
  }
}
