/**
 * DR plan groups and steps: what CreateDrPlan generates from the members of the two protection
 * groups, what a clone copies, what Refresh and Verify do to them, and how UpdateDrPlan's
 * `planGroups` list is applied. Pure functions over wire-shaped data: no HTTP, no storage.
 *
 * Every object returned here is stored as JSON and served as is, so optional fields are left
 * out when empty (never `null`, never an `undefined` key).
 *
 * Generation is an emulator recipe inferred from OCI's documented default group order: one BUILT_IN group
 * per action in the documented default order of the plan type, one step per member the action
 * applies to, and a first BUILT_IN_PRECHECK group holding the `<TYPE>_PRECHECK` of every
 * built-in step that has one. Which member types yield which steps, on which side of the DR
 * pair, is the data table `PLAN_STEP_RULES`; the group order is `PLAN_GROUP_ORDER`.
 */
export {
  DEFAULT_STEP_ERROR_MODE,
  DEFAULT_STEP_TIMEOUT_SECONDS,
  ObjectStorageScriptLocation,
  PRECHECK_GROUP_DISPLAY_NAME,
  PlanGroup,
  PlanStep,
  ProtectionGroupMember,
  UserDefinedStep,
  shortMemberId,
  typeDisplayNameOf,
} from './model';
export {
  BUILT_IN_GROUP_NAMES,
  BuiltInGroupKey,
  MemberCondition,
  MemberSide,
  PLAN_GROUP_ORDER,
  PLAN_STEP_RULES,
  PlanStepRule,
} from './rules';
export { GeneratePlanGroupsArgs, generatePlanGroups, precheckTypeOf } from './generate';
export { RefreshPlanGroupsContext, clonePlanGroups, refreshPlanGroups, verifyPlanGroups } from './clone-refresh-verify';
export { PlanGroupsUpdateContext, applyPlanGroupsUpdate } from './update';
export { isUserStepPrecheck, syncUserStepPrechecks, userStepPrecheckId } from './user-prechecks';
