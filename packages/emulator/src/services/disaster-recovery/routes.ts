import type { JSONSchema } from 'json-schema-to-ts';
import { defineOperation, type OperationDefinition, type ServiceRoutes } from '../../http/operation';
import { parsePage } from '../../http/pagination';
import { accepted, created, page, resource, summaryPage } from '../../http/responses';
import {
  definedTagsSchema,
  displayNameSchema,
  freeformTagsSchema,
  listQuerySchema,
  ocidSchema,
  sortOrderSchema,
} from '../common/resources';
import { entriesPage, type WorkRequests } from '../common/work-requests';
import {
  DR_PLAN_GROUP_TYPES,
  DR_PLAN_LIFECYCLE_STATES,
  DR_PLAN_LIFECYCLE_SUB_STATES,
  DR_PLAN_STEP_ERROR_MODES,
  DR_PLAN_TYPES,
  DR_PLAN_USER_DEFINED_STEP_TYPES,
  DR_PROTECTION_GROUP_LIFECYCLE_STATES,
  DR_PROTECTION_GROUP_LIFECYCLE_SUB_STATES,
  DR_PROTECTION_GROUP_MEMBER_TYPES,
  DR_PROTECTION_GROUP_ROLES,
  OPERATION_STATUSES,
} from './enums';
import type { DrPlans } from './plans';
import { BASE_PATH } from './resources';
import { MEMBER_PROPERTIES, MEMBER_REQUIRED, type DrProtectionGroups } from './protection-groups';

// ---------------------------------------------------------------------------------------------
// Request schemas (types, enums and required fields; the services check the rest)
// ---------------------------------------------------------------------------------------------

const enumOf = <const V extends readonly string[]>(values: V) => ({ type: 'string', enum: values }) as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;

/** `{"type":"DEFAULT"}`: the only subtype of the Refresh, Verify and Disassociate details. */
const defaultDetailsSchema = { type: 'object', required: ['type'], properties: { type: enumOf(['DEFAULT']) } } as const;

const logLocationSchema = {
  type: 'object',
  required: ['namespace', 'bucket'],
  properties: { namespace: nonEmpty, bucket: nonEmpty },
} as const;

/** A protection-group member, discriminated on `memberType`. */
const memberSchema = {
  type: 'object',
  required: ['memberId', 'memberType'],
  properties: { memberId: ocidSchema, memberType: enumOf(DR_PROTECTION_GROUP_MEMBER_TYPES) },
  allOf: DR_PROTECTION_GROUP_MEMBER_TYPES.map((memberType) => ({
    if: { required: ['memberType'], properties: { memberType: { const: memberType } } },
    then: { required: [...(MEMBER_REQUIRED[memberType] ?? [])], properties: MEMBER_PROPERTIES[memberType] },
  })),
} as const;

const membersSchema = { type: 'array', items: memberSchema } as const;

const associationSchema = {
  type: 'object',
  required: ['role'],
  properties: { peerId: ocidSchema, peerRegion: nonEmpty, role: enumOf(DR_PROTECTION_GROUP_ROLES) },
} as const;

const tags = { freeformTags: freeformTagsSchema, definedTags: definedTagsSchema };

const createProtectionGroupSchema = {
  type: 'object',
  required: ['compartmentId', 'displayName', 'logLocation'],
  properties: {
    compartmentId: ocidSchema,
    displayName: displayNameSchema,
    logLocation: logLocationSchema,
    association: associationSchema,
    members: membersSchema,
    ...tags,
  },
} as const;

/**
 * A body whose fields are all optional. The TypeScript SDK sends no body at all when the
 * details serialise to `{}`, so an absent body (which fastify validates as null) is an empty
 * update; a string, number, boolean or array is still refused.
 */
const optionalObject = <const P extends Record<string, JSONSchema>>(properties: P) =>
  ({
    not: { type: ['string', 'number', 'boolean', 'array'] },
    properties,
  }) as const;

const updateProtectionGroupSchema = optionalObject({
  displayName: displayNameSchema,
  logLocation: logLocationSchema,
  members: membersSchema,
  ...tags,
});

const stepSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    displayName: { type: 'string' },
    errorMode: enumOf(DR_PLAN_STEP_ERROR_MODES),
    timeout: { type: 'integer' },
    isEnabled: { type: 'boolean' },
    userDefinedStep: { type: 'object', properties: { stepType: enumOf(DR_PLAN_USER_DEFINED_STEP_TYPES) } },
  },
} as const;

/**
 * `UpdateDrPlanGroupDetails[]`. Field types are checked here; what the list means (id matching,
 * which groups may change how) is plan-groups' `applyPlanGroupsUpdate`. Fields the update
 * models do not have (`refreshStatus`, a step's `type`, `groupId`, …) are ignored, so a plan's
 * own planGroups round-trip.
 */
const planGroupsSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      displayName: { type: 'string' },
      type: enumOf(DR_PLAN_GROUP_TYPES),
      isPauseEnabled: { type: 'boolean' },
      steps: { type: 'array', items: stepSchema },
    },
  },
} as const;

const createPlanSchema = {
  type: 'object',
  required: ['displayName', 'type', 'drProtectionGroupId'],
  properties: {
    displayName: displayNameSchema,
    type: enumOf(DR_PLAN_TYPES),
    drProtectionGroupId: ocidSchema,
    sourcePlanId: ocidSchema,
    ...tags,
  },
} as const;

const updatePlanSchema = optionalObject({ displayName: displayNameSchema, planGroups: planGroupsSchema, ...tags });

const listPlansQuery = listQuerySchema(
  {
    drProtectionGroupId: nonEmpty,
    lifecycleState: enumOf(DR_PLAN_LIFECYCLE_STATES),
    lifecycleSubState: enumOf(DR_PLAN_LIFECYCLE_SUB_STATES),
    drPlanId: nonEmpty,
    drPlanType: enumOf(DR_PLAN_TYPES),
    displayName: nonEmpty,
  },
  ['drProtectionGroupId'],
);

const listProtectionGroupsQuery = listQuerySchema(
  {
    compartmentId: nonEmpty,
    lifecycleState: enumOf(DR_PROTECTION_GROUP_LIFECYCLE_STATES),
    lifecycleSubState: enumOf(DR_PROTECTION_GROUP_LIFECYCLE_SUB_STATES),
    role: enumOf(DR_PROTECTION_GROUP_ROLES),
    drProtectionGroupId: nonEmpty,
    displayName: nonEmpty,
  },
  ['compartmentId'],
);

/** Work-request lists sort by `timeAccepted` only. */
const workRequestPageQuery = <const P extends Record<string, JSONSchema>>(properties: P = {} as P) =>
  ({
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 1000 },
      page: nonEmpty,
      sortOrder: sortOrderSchema,
      sortBy: enumOf(['timeAccepted']),
      ...properties,
    },
  }) as const;

const listWorkRequestsQuery = workRequestPageQuery({
  compartmentId: nonEmpty,
  workRequestId: nonEmpty,
  status: enumOf(OPERATION_STATUSES),
  resourceId: nonEmpty,
});

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

export interface DisasterRecoveryRouteDependencies {
  groups: DrProtectionGroups;
  plans: DrPlans;
  workRequests: WorkRequests;
  homeRegion: string;
  isGone: ServiceRoutes['isGone'];
}

/**
 * The Disaster Recovery API (20220125). Routes only declare operations and translate between
 * HTTP and the services: the rules are in protection-groups.ts and plans.ts. Plan executions
 * and automatic DR configurations are declared without a handler, so they answer 501
 * MethodNotImplemented.
 */
export function disasterRecoveryRoutes(deps: DisasterRecoveryRouteDependencies): ServiceRoutes {
  const { groups, plans, workRequests } = deps;

  const operations: OperationDefinition[] = [
    // DR protection groups
    defineOperation({
      name: 'CreateDrProtectionGroup',
      method: 'POST',
      path: '/drProtectionGroups',
      schema: { body: createProtectionGroupSchema },
      retryToken: true,
      handler: ({ ctx, body }) => {
        const started = groups.create(ctx, body);
        return created(ctx, started, `${BASE_PATH}/drProtectionGroups/${started.resource.id}`);
      },
    }),
    defineOperation({
      name: 'GetDrProtectionGroup',
      method: 'GET',
      path: '/drProtectionGroups/:drProtectionGroupId',
      handler: ({ ctx, params }) => resource(groups.get(ctx, params.drProtectionGroupId)),
    }),
    defineOperation({
      name: 'ListDrProtectionGroups',
      method: 'GET',
      path: '/drProtectionGroups',
      schema: { querystring: listProtectionGroupsQuery },
      handler: ({ ctx, query }) => summaryPage(groups.list(ctx, query)),
    }),
    defineOperation({
      name: 'UpdateDrProtectionGroup',
      method: 'PUT',
      path: '/drProtectionGroups/:drProtectionGroupId',
      schema: { body: updateProtectionGroupSchema },
      handler: ({ ctx, params, body, ifMatch }) =>
        accepted(groups.update(ctx, params.drProtectionGroupId, body ?? {}, ifMatch)),
    }),
    defineOperation({
      name: 'DeleteDrProtectionGroup',
      method: 'DELETE',
      path: '/drProtectionGroups/:drProtectionGroupId',
      handler: ({ ctx, params, ifMatch }) => accepted(groups.delete(ctx, params.drProtectionGroupId, ifMatch)),
    }),
    defineOperation({
      name: 'AssociateDrProtectionGroup',
      method: 'POST',
      path: '/drProtectionGroups/:drProtectionGroupId/actions/associate',
      schema: { body: associationSchema },
      retryToken: true,
      handler: ({ ctx, params, body, ifMatch }) =>
        accepted(groups.associate(ctx, params.drProtectionGroupId, body, ifMatch)),
    }),
    defineOperation({
      name: 'DisassociateDrProtectionGroup',
      method: 'POST',
      path: '/drProtectionGroups/:drProtectionGroupId/actions/disassociate',
      schema: { body: defaultDetailsSchema },
      retryToken: true,
      handler: ({ ctx, params, ifMatch }) => accepted(groups.disassociate(ctx, params.drProtectionGroupId, ifMatch)),
    }),
    defineOperation({
      name: 'UpdateDrProtectionGroupRole',
      method: 'POST',
      path: '/drProtectionGroups/:drProtectionGroupId/actions/updateRole',
      schema: { body: { type: 'object', required: ['role'], properties: { role: enumOf(DR_PROTECTION_GROUP_ROLES) } } },
      retryToken: true,
      handler: ({ ctx, params, body, ifMatch }) =>
        accepted(groups.updateRole(ctx, params.drProtectionGroupId, body.role, ifMatch)),
    }),
    defineOperation({
      name: 'ChangeDrProtectionGroupCompartment',
      method: 'POST',
      path: '/drProtectionGroups/:drProtectionGroupId/actions/changeCompartment',
      schema: { body: { type: 'object', required: ['compartmentId'], properties: { compartmentId: ocidSchema } } },
      retryToken: true,
      handler: ({ ctx, params, body, ifMatch }) =>
        accepted(groups.changeCompartment(ctx, params.drProtectionGroupId, body.compartmentId, ifMatch)),
    }),

    // DR plans
    defineOperation({
      name: 'CreateDrPlan',
      method: 'POST',
      path: '/drPlans',
      schema: { body: createPlanSchema },
      retryToken: true,
      handler: ({ ctx, body }) => {
        const started = plans.create(ctx, body);
        return created(ctx, started, `${BASE_PATH}/drPlans/${started.resource.id}`);
      },
    }),
    defineOperation({
      name: 'GetDrPlan',
      method: 'GET',
      path: '/drPlans/:drPlanId',
      handler: ({ ctx, params }) => resource(plans.get(ctx, params.drPlanId)),
    }),
    defineOperation({
      name: 'ListDrPlans',
      method: 'GET',
      path: '/drPlans',
      schema: { querystring: listPlansQuery },
      handler: ({ ctx, query }) => summaryPage(plans.list(ctx, query)),
    }),
    defineOperation({
      name: 'UpdateDrPlan',
      method: 'PUT',
      path: '/drPlans/:drPlanId',
      schema: { body: updatePlanSchema },
      handler: ({ ctx, params, body, ifMatch }) => accepted(plans.update(ctx, params.drPlanId, body ?? {}, ifMatch)),
    }),
    {
      // No work-request header: OCI's DeleteDrPlan has none (the SDK's DeleteDrPlanResponse has no opcWorkRequestId).
      name: 'DeleteDrPlan',
      method: 'DELETE',
      path: '/drPlans/:drPlanId',
      handler: ({ ctx, params, ifMatch }) => {
        plans.delete(ctx, params.drPlanId, ifMatch);
        return { status: 204 };
      },
    },
    defineOperation({
      name: 'RefreshDrPlan',
      method: 'POST',
      path: '/drPlans/:drPlanId/actions/refresh',
      schema: { body: defaultDetailsSchema },
      retryToken: true,
      handler: ({ ctx, params, ifMatch }) => accepted(plans.refresh(ctx, params.drPlanId, ifMatch)),
    }),
    defineOperation({
      name: 'VerifyDrPlan',
      method: 'POST',
      path: '/drPlans/:drPlanId/actions/verify',
      schema: { body: defaultDetailsSchema },
      retryToken: true,
      handler: ({ ctx, params, ifMatch }) => accepted(plans.verify(ctx, params.drPlanId, ifMatch)),
    }),

    // Work requests
    defineOperation({
      name: 'GetWorkRequest',
      method: 'GET',
      path: '/workRequests/:workRequestId',
      handler: ({ ctx, params }) => {
        const entity = workRequests.get(params.workRequestId, ctx.region);
        const answer = resource(entity.body);
        const retryAfter = workRequests.retryAfterSeconds(entity);
        return retryAfter === undefined
          ? answer
          : { ...answer, headers: { ...answer.headers, 'retry-after': String(retryAfter) } };
      },
    }),
    defineOperation({
      name: 'ListWorkRequests',
      method: 'GET',
      path: '/workRequests',
      schema: { querystring: listWorkRequestsQuery },
      handler: ({ ctx, query }) => page(workRequests.list(ctx.region, query, parsePage(query))),
    }),
    defineOperation({
      name: 'ListWorkRequestErrors',
      method: 'GET',
      path: '/workRequests/:workRequestId/errors',
      schema: { querystring: workRequestPageQuery() },
      handler: ({ ctx, params, query }) =>
        page(entriesPage(workRequests.errors(params.workRequestId, ctx.region), query, 'DESC')),
    }),
    defineOperation({
      name: 'ListWorkRequestLogs',
      method: 'GET',
      path: '/workRequests/:workRequestId/logs',
      schema: { querystring: workRequestPageQuery() },
      handler: ({ ctx, params, query }) =>
        page(entriesPage(workRequests.logs(params.workRequestId, ctx.region), query, 'DESC')),
    }),
    defineOperation({
      name: 'CancelWorkRequest',
      method: 'DELETE',
      path: '/workRequests/:workRequestId',
      handler: ({ ctx, params, ifMatch }) => {
        workRequests.cancel(params.workRequestId, ctx.region, ifMatch);
        return { status: 202 };
      },
    }),

    // Not emulated: answered with 501 MethodNotImplemented.
    { name: 'CreateDrPlanExecution', method: 'POST', path: '/drPlanExecutions' },
    { name: 'ListDrPlanExecutions', method: 'GET', path: '/drPlanExecutions' },
    { name: 'GetDrPlanExecution', method: 'GET', path: '/drPlanExecutions/:drPlanExecutionId' },
    { name: 'UpdateDrPlanExecution', method: 'PUT', path: '/drPlanExecutions/:drPlanExecutionId' },
    { name: 'DeleteDrPlanExecution', method: 'DELETE', path: '/drPlanExecutions/:drPlanExecutionId' },
    { name: 'CancelDrPlanExecution', method: 'POST', path: '/drPlanExecutions/:drPlanExecutionId/actions/cancel' },
    { name: 'PauseDrPlanExecution', method: 'POST', path: '/drPlanExecutions/:drPlanExecutionId/actions/pause' },
    { name: 'ResumeDrPlanExecution', method: 'POST', path: '/drPlanExecutions/:drPlanExecutionId/actions/resume' },
    { name: 'RetryDrPlanExecution', method: 'POST', path: '/drPlanExecutions/:drPlanExecutionId/actions/retry' },
    { name: 'IgnoreDrPlanExecution', method: 'POST', path: '/drPlanExecutions/:drPlanExecutionId/actions/ignore' },
    { name: 'CreateAutomaticDrConfiguration', method: 'POST', path: '/automaticDrConfigurations' },
    { name: 'ListAutomaticDrConfigurations', method: 'GET', path: '/automaticDrConfigurations' },
    defineOperation({
      name: 'GetAutomaticDrConfiguration',
      method: 'GET',
      path: '/automaticDrConfigurations/:automaticDrConfigurationId',
    }),
    defineOperation({
      name: 'UpdateAutomaticDrConfiguration',
      method: 'PUT',
      path: '/automaticDrConfigurations/:automaticDrConfigurationId',
    }),
    defineOperation({
      name: 'DeleteAutomaticDrConfiguration',
      method: 'DELETE',
      path: '/automaticDrConfigurations/:automaticDrConfigurationId',
    }),
  ];

  return { basePath: BASE_PATH, operations, isGone: deps.isGone };
}
