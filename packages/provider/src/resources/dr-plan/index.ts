// oci:DisasterRecovery/drPlan:DrPlan. Differences from pulumi-oci (Terraform) on purpose: an
// update applies name/tag changes AND every raised trigger (Refresh, then Verify), and sends
// UpdateDrPlanDetails, not a polymorphic body keyed on the plan type (TF 7.29+ regression).
import type * as dr from 'oci-disasterrecovery';
import { call, describeError, isOciError, messageOf, PartialFailure, ProviderError } from '../../errors';
import { nestTags, packageSchema, shapeObject } from '../../schema';
import type { Props } from '../../wire';
import { createIdempotently, deleteAndWait, readResource, retryToken, settle, type ResourceAccess } from '../ops';
import { tagFilter, type Failure, type OpContext, type ResourceModule, type UpdatePlan } from '../resource';
import { checkDefinedTags, definedTagsToSend, tagInputs } from '../tags';

const TOKEN = 'oci:DisasterRecovery/drPlan:DrPlan';
export const PLAN_TYPES = ['SWITCHOVER', 'FAILOVER', 'START_DRILL', 'STOP_DRILL'];
const READY = new Set(['ACTIVE', 'NEEDS_ATTENTION']);
const IN_PLACE = ['displayName', 'freeformTags', 'definedTags'];
const drPlanTriggers = ['refreshTrigger', 'verifyTrigger'];

type Plan = dr.models.DrPlan;

function toOutputs(plan: Plan, inputs: Props): Props {
  const spec = packageSchema().resources[TOKEN];
  const out = shapeObject(plan, spec, Object.keys(spec.inputProperties)) ?? {};
  for (const k of ['refreshTrigger', 'verifyTrigger', 'sourcePlanId']) {
    if (out[k] === undefined && inputs[k] !== undefined && inputs[k] !== null) out[k] = inputs[k];
  }
  return out;
}

/** DR plans as the shared steps reach them. */
const PLANS: ResourceAccess<Plan> = {
  getOperation: 'GetDrPlan',
  workRequests: (ctx) => ctx.clients.dr,
  get: async (ctx, id) => (await ctx.clients.dr.getDrPlan({ drPlanId: id })).drPlan,
  deleteWorkRequest: async (ctx, plan, id) => {
    const r = await call(ctx.subject, 'ListWorkRequests', () =>
      ctx.clients.dr.listWorkRequests({ compartmentId: plan.compartmentId, resourceId: id }),
    );
    // The latest one: an earlier delete may have failed before this one was sent.
    const deletes = r.workRequestSummaryCollection.items
      .filter((w) => w.operationType === 'DELETE_DR_PLAN')
      .sort((a, b) => new Date(b.timeAccepted).getTime() - new Date(a.timeAccepted).getTime());
    return deletes[0]?.id;
  },
};

function getPlan(ctx: OpContext, id: string): Promise<Plan | undefined> {
  return readResource(ctx, PLANS, id);
}

async function partial(ctx: OpContext, id: string, e: unknown, inputs: Props): Promise<never> {
  const plan = await getPlan(ctx, id).catch(() => undefined);
  const message = messageOf(e);
  throw new PartialFailure(message, id, plan ? toOutputs(plan, inputs) : { ...inputs });
}

async function runAction(ctx: OpContext, id: string, action: 'Refresh' | 'Verify'): Promise<void> {
  const operation = `${action}DrPlan`;
  let wrId: string | undefined;
  try {
    const r =
      action === 'Refresh'
        ? await ctx.clients.dr.refreshDrPlan({
            drPlanId: id,
            refreshDrPlanDetails: { type: 'DEFAULT' },
            opcRetryToken: retryToken(),
          })
        : await ctx.clients.dr.verifyDrPlan({
            drPlanId: id,
            verifyDrPlanDetails: { type: 'DEFAULT' },
            opcRetryToken: retryToken(),
          });
    wrId = r.opcWorkRequestId;
  } catch (e) {
    if (isOciError(e) && e.statusCode === 409) {
      const plan = await getPlan(ctx, id).catch(() => undefined);
      const where = plan
        ? ` (the plan is ${plan.lifecycleState}${plan.lifecycleSubState ? ` / ${plan.lifecycleSubState}` : ''})`
        : '';
      throw new ProviderError(`${describeError(ctx.subject, operation, e)}${where}`);
    }
    throw new ProviderError(describeError(ctx.subject, operation, e));
  }
  ctx.progress(`${action.toLowerCase()} started`);
  await settle(ctx, PLANS, { operation, workRequestId: wrId, id, transient: 'UPDATING' });
}

/**
 * The outputs of a plan this provider created record an unset trigger as 0, Terraform's value for
 * an unset integer, so that setting it later (0 → 1) runs the action as it does with pulumi-oci.
 * An imported plan has no recorded counter: there the first value is only the baseline.
 */
function withTriggerBaseline(inputs: Props): Props {
  const out = { ...inputs };
  for (const k of drPlanTriggers) if (out[k] === undefined || out[k] === null) out[k] = 0;
  return out;
}

function raised(oldV: unknown, newV: unknown): boolean {
  return typeof oldV === 'number' && typeof newV === 'number' && newV > oldV;
}

export const drPlan: ResourceModule = {
  token: TOKEN,
  kind: 'DrPlan',
  defaultTimeoutMs: 20 * 60_000,
  computedInputs: ['sourcePlanId', 'freeformTags', 'definedTags'],
  triggers: drPlanTriggers,
  unreported: ['refreshTrigger', 'verifyTrigger', 'sourcePlanId'],
  stables: [
    'drProtectionGroupId',
    'type',
    'sourcePlanId',
    'compartmentId',
    'peerDrProtectionGroupId',
    'peerRegion',
    'timeCreated',
  ],
  computedOutputs: [
    'compartmentId',
    'lifeCycleDetails',
    'lifecycleSubState',
    'peerDrProtectionGroupId',
    'peerRegion',
    'planGroups',
    'state',
    'systemTags',
    'timeCreated',
    'timeUpdated',
  ],
  defaults: (inputs) => inputs,
  validate(inputs): Failure[] {
    const failures: Failure[] = [];
    const t = inputs.type;
    if (typeof t === 'string' && !PLAN_TYPES.includes(t) && !t.startsWith('04da6b54')) {
      failures.push({
        property: 'type',
        reason: `type "${t}" is not a DR plan type: use one of ${PLAN_TYPES.join(', ')}`,
      });
    }
    failures.push(...checkDefinedTags(inputs.definedTags));
    return failures;
  },

  async create(ctx, inputs) {
    let id: string | undefined;
    try {
      const plan = await createIdempotently(ctx, inputs, {
        send: async (opcRetryToken) => {
          const r = await call(ctx.subject, 'CreateDrPlan', () =>
            ctx.clients.dr.createDrPlan({
              createDrPlanDetails: {
                displayName: inputs.displayName as string,
                type: inputs.type as dr.models.DrPlanType,
                drProtectionGroupId: inputs.drProtectionGroupId as string,
                sourcePlanId: inputs.sourcePlanId as string | undefined,
                freeformTags: inputs.freeformTags as Record<string, string> | undefined,
                definedTags: inputs.definedTags ? nestTags(inputs.definedTags as Record<string, string>) : undefined,
              },
              opcRetryToken,
            }),
          );
          return { id: r.drPlan.id, workRequestId: r.opcWorkRequestId };
        },
        settle: (planId, wrId) =>
          settle(ctx, PLANS, {
            operation: 'CreateDrPlan',
            workRequestId: wrId,
            id: planId,
            transient: 'CREATING',
            ready: (p) => READY.has(p.lifecycleState),
          }),
        onCreated: (planId) => (id = planId),
      });
      if (!plan) throw new ProviderError(`${ctx.subject}: the plan disappeared while it was being created`);
      if (!READY.has(plan.lifecycleState)) {
        throw new ProviderError(
          `${ctx.subject}: the plan ended ${plan.lifecycleState}${plan.lifeCycleDetails ? `: ${plan.lifeCycleDetails}` : ''}, not ACTIVE`,
        );
      }
      return { id: plan.id, outputs: toOutputs(plan, withTriggerBaseline(inputs)) };
    } catch (e) {
      if (id === undefined) throw e;
      return partial(ctx, id, e, withTriggerBaseline(inputs));
    }
  },

  async read(ctx, id) {
    const plan = await getPlan(ctx, id);
    if (!plan || plan.lifecycleState === 'DELETED') return undefined;
    return toOutputs(plan, {});
  },

  async update(ctx, p: UpdatePlan) {
    const { id, news, olds, oldInputs, changed } = p;
    const applied: Props = { ...news };
    const oldOf = (k: string): unknown => olds[k] ?? oldInputs[k];
    const doRefresh = raised(oldOf('refreshTrigger'), news.refreshTrigger);
    const doVerify = raised(oldOf('verifyTrigger'), news.verifyTrigger);
    // Until an action has run, its counter stays at the old value in the outputs, so a failed
    // action is attempted again on the next update.
    if (doRefresh) applied.refreshTrigger = oldOf('refreshTrigger');
    if (doVerify) applied.verifyTrigger = oldOf('verifyTrigger');
    // A trigger removed from the program keeps its recorded counter (setting it again must raise it).
    for (const k of drPlanTriggers) {
      const recorded = oldOf(k);
      if ((applied[k] === undefined || applied[k] === null) && typeof recorded === 'number') applied[k] = recorded;
    }
    let touched = false;
    try {
      if (changed.some((k) => IN_PLACE.includes(k))) {
        const current = olds.definedTags as Record<string, string> | undefined;
        const r = await call(ctx.subject, 'UpdateDrPlan', () =>
          ctx.clients.dr.updateDrPlan({
            drPlanId: id,
            // Only what changed: tags OCI or others set are left alone when only the name changes.
            updateDrPlanDetails: {
              displayName: news.displayName as string,
              ...(changed.includes('freeformTags')
                ? { freeformTags: (news.freeformTags as Record<string, string> | undefined) ?? {} }
                : {}),
              ...(changed.includes('definedTags')
                ? {
                    definedTags: definedTagsToSend(
                      news.definedTags as Record<string, string>,
                      current,
                      tagFilter(ctx.config),
                    ),
                  }
                : {}),
            },
          }),
        );
        touched = true;
        await settle(ctx, PLANS, {
          operation: 'UpdateDrPlan',
          workRequestId: r.opcWorkRequestId,
          id,
          transient: 'UPDATING',
        });
      }
      if (doRefresh) {
        touched = true;
        await runAction(ctx, id, 'Refresh');
        applied.refreshTrigger = news.refreshTrigger;
      }
      if (doVerify) {
        touched = true;
        await runAction(ctx, id, 'Verify');
        applied.verifyTrigger = news.verifyTrigger;
      }
    } catch (e) {
      if (!touched) throw e;
      return partial(ctx, id, e, applied);
    }
    const plan = await getPlan(ctx, id);
    if (!plan) throw new ProviderError(`${ctx.subject}: the plan was deleted during the update`);
    return toOutputs(plan, applied);
  },

  async delete(ctx, id) {
    await deleteAndWait(ctx, PLANS, {
      operation: 'DeleteDrPlan',
      id,
      del: () => ctx.clients.dr.deleteDrPlan({ drPlanId: id }),
    });
  },

  inputsFromOutputs(o) {
    const inputs: Props = tagInputs(o);
    for (const k of ['displayName', 'drProtectionGroupId', 'type', 'sourcePlanId'])
      if (o[k] !== undefined) inputs[k] = o[k];
    return inputs;
  },
};
