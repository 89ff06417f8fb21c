/**
 * The service's own prechecks of user-defined steps. OCI adds one automatic precheck to the
 * built-in precheck group for every RUN_LOCAL_SCRIPT, RUN_OBJECTSTORE_SCRIPT and INVOKE_FUNCTION
 * step a user defines (`RUN_LOCAL_SCRIPT_PRECHECK`, …); users cannot add, delete or customise
 * these (OCI's Terraform docs for `plan_groups.steps.user_defined_step.step_type`).
 *
 * Where OCI's documentation is silent the emulator decides (README "Known differences"):
 * - One precheck per such step, `type` USER_DEFINED_PRECHECK, `userDefinedStep` `{stepType}` only
 *   (the read model carries nothing else), no `memberId` (user steps have none).
 * - Its id is derived from the user step's id, which is the link: no hidden state, and a
 *   clone (new step ids) gets new prechecks.
 * - Its displayName is "<precheck type label> - <user step displayName>", and it is enabled
 *   exactly when its user step is (the precheck of a step that will not run checks nothing).
 *   errorMode and timeout are the defaults. All four follow the user step; none can be edited.
 * - Custom precheck steps (`*_USER_DEFINED_CUSTOM_PRECHECK`) get none: they are prechecks.
 * - The prechecks follow the built-in ones, in the plan order of their user steps. A precheck
 *   group is created first in the plan when a plan without one gets such a step, and a
 *   precheck group left with no step at all is removed (generation never makes an empty one).
 * - A refresh that labels a user step STEP_DELETED labels its precheck too (OCI's refresh doc:
 *   "user-defined steps bound to a removed member, and their prechecks"); verify removes both.
 */
import { derivedPlanElementId, newPlanElementId } from '../../../core/ids';
import { type DrPlanGroupRefreshStatus, type DrPlanUserDefinedStepType } from '../enums';
import { makeGroup } from './copy';
import {
  DEFAULT_STEP_ERROR_MODE,
  DEFAULT_STEP_TIMEOUT_SECONDS,
  MAX_DISPLAY_NAME_LENGTH,
  PRECHECK_GROUP_DISPLAY_NAME,
  PlanGroup,
  PlanStep,
  typeDisplayNameOf,
} from './model';

const PRECHECK_OF: Partial<Record<DrPlanUserDefinedStepType, DrPlanUserDefinedStepType>> = {
  RUN_LOCAL_SCRIPT: 'RUN_LOCAL_SCRIPT_PRECHECK',
  RUN_OBJECTSTORE_SCRIPT: 'RUN_OBJECTSTORE_SCRIPT_PRECHECK',
  INVOKE_FUNCTION: 'INVOKE_FUNCTION_PRECHECK',
};

/** Whether a step is one of the service's prechecks of a user-defined step. */
export const isUserStepPrecheck = (step: Pick<PlanStep, 'type'>): boolean => step.type === 'USER_DEFINED_PRECHECK';

/** The id of the precheck the service keeps for a user-defined step. */
export const userStepPrecheckId = (userStepId: string): string => derivedPlanElementId('step', userStepId);

function precheckOf(step: PlanStep, groupId: string, stepType: DrPlanUserDefinedStepType): PlanStep {
  const precheck: PlanStep = {
    id: userStepPrecheckId(step.id),
    groupId,
    type: 'USER_DEFINED_PRECHECK',
    displayName: `${typeDisplayNameOf(stepType)} - ${step.displayName}`.slice(0, MAX_DISPLAY_NAME_LENGTH),
    typeDisplayName: typeDisplayNameOf('USER_DEFINED_PRECHECK'),
    errorMode: DEFAULT_STEP_ERROR_MODE,
    timeout: DEFAULT_STEP_TIMEOUT_SECONDS,
    isEnabled: step.isEnabled,
    userDefinedStep: { stepType },
  };
  if (step.refreshStatus === 'STEP_DELETED') precheck.refreshStatus = 'STEP_DELETED';
  // Key order as the other steps (copy.ts STEP_KEY_ORDER): refreshStatus after type.
  const { id, groupId: gid, type, refreshStatus, ...rest } = precheck;
  return refreshStatus ? { id, groupId: gid, type, refreshStatus, ...rest } : { id, groupId: gid, type, ...rest };
}

/**
 * The groups with the built-in precheck group holding exactly the prechecks of the plan's
 * current user-defined steps (see the module comment). Idempotent; every other group is
 * returned as is.
 */
export function syncUserStepPrechecks(groups: readonly PlanGroup[]): PlanGroup[] {
  const at = groups.findIndex((group) => group.type === 'BUILT_IN_PRECHECK');
  const existing = at >= 0 ? groups[at] : undefined;
  const groupId = existing?.id ?? newPlanElementId('group');
  const prechecks: PlanStep[] = [];
  for (const group of groups) {
    if (group.type !== 'USER_DEFINED') continue;
    for (const step of group.steps) {
      const stepType = step.userDefinedStep && PRECHECK_OF[step.userDefinedStep.stepType];
      if (stepType) prechecks.push(precheckOf(step, groupId, stepType));
    }
  }
  if (!existing && prechecks.length === 0) return [...groups];

  const steps = [...(existing?.steps.filter((step) => !isUserStepPrecheck(step)) ?? []), ...prechecks];
  const out = [...groups];
  if (steps.length === 0) {
    out.splice(at, 1);
    return out;
  }
  const group = makeGroup({
    id: groupId,
    type: 'BUILT_IN_PRECHECK',
    displayName: existing?.displayName ?? PRECHECK_GROUP_DISPLAY_NAME,
    steps,
    refreshStatus: groupLabel(existing?.refreshStatus, steps, prechecks),
  });
  if (existing) out[at] = group;
  else out.unshift(group);
  return out;
}

/**
 * The precheck group's refresh label once its user prechecks follow their steps: deleted when
 * every step is, modified when a precheck was labelled deleted, otherwise what the refresh said.
 */
function groupLabel(
  current: DrPlanGroupRefreshStatus | undefined,
  steps: readonly PlanStep[],
  prechecks: readonly PlanStep[],
): DrPlanGroupRefreshStatus | undefined {
  if (steps.every((step) => step.refreshStatus === 'STEP_DELETED')) return 'GROUP_DELETED';
  if (current === 'GROUP_DELETED') return 'GROUP_MODIFIED';
  if (current === undefined && prechecks.some((step) => step.refreshStatus === 'STEP_DELETED')) return 'GROUP_MODIFIED';
  return current;
}
