/**
 * What CreateDrPlan generates from the members of the two protection groups. Generation is an
 * emulator recipe inferred from OCI's documented default group order: one BUILT_IN group per
 * action in the default order of the plan type, one step per member the action applies to, and a
 * first BUILT_IN_PRECHECK group holding the `<TYPE>_PRECHECK` of every built-in step that has one.
 */
import { newPlanElementId } from '../../../core/ids';
import { DR_PLAN_STEP_TYPES, type DrPlanStepType, type DrPlanType } from '../enums';
import {
  DEFAULT_STEP_ERROR_MODE,
  DEFAULT_STEP_TIMEOUT_SECONDS,
  PRECHECK_GROUP_DISPLAY_NAME,
  PlanGroup,
  PlanStep,
  ProtectionGroupMember,
  shortMemberId,
  typeDisplayNameOf,
} from './model';
import {
  BUILT_IN_GROUP_NAMES,
  BuiltInGroupKey,
  MEMBER_CONDITIONS,
  MemberSide,
  NONE,
  PLAN_GROUP_ORDER,
  PLAN_STEP_RULES,
  RulesByPlanType,
} from './rules';

// ---------------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------------

const PRECHECK_TYPES: ReadonlySet<string> = new Set(DR_PLAN_STEP_TYPES.filter((t) => t.endsWith('_PRECHECK')));

/** The `<TYPE>_PRECHECK` step type of a built-in step type, when the enum has one. */
export function precheckTypeOf(type: DrPlanStepType): DrPlanStepType | undefined {
  const candidate = `${type}_PRECHECK`;
  return PRECHECK_TYPES.has(candidate) ? (candidate as DrPlanStepType) : undefined;
}

function builtInStep(groupId: string, type: DrPlanStepType, memberId: string): PlanStep {
  const typeDisplayName = typeDisplayNameOf(type);
  return {
    id: newPlanElementId('step'),
    groupId,
    memberId,
    type,
    displayName: `${typeDisplayName} - ${shortMemberId(memberId)}`,
    typeDisplayName,
    errorMode: DEFAULT_STEP_ERROR_MODE,
    timeout: DEFAULT_STEP_TIMEOUT_SECONDS,
    isEnabled: true,
  };
}

export interface GeneratePlanGroupsArgs {
  planType: DrPlanType;
  /** Members of the plan's PRIMARY peer group. */
  primaryMembers: readonly ProtectionGroupMember[];
  /** Members of the plan's own (STANDBY) group. */
  standbyMembers: readonly ProtectionGroupMember[];
}

/**
 * The plan groups CreateDrPlan builds for a plan type from both groups' members: the precheck
 * group first, then one BUILT_IN group per action with at least one step, in
 * `PLAN_GROUP_ORDER`. Within a group, steps follow the primary's members, then the standby's,
 * each in member order. Members of a type the table does not know are ignored. No members on
 * either side → `[]`.
 */
export function generatePlanGroups(args: GeneratePlanGroupsArgs): PlanGroup[] {
  const { planType } = args;
  const stepsByGroup = new Map<BuiltInGroupKey | 'PRECHECK', Array<{ type: DrPlanStepType; memberId: string }>>();
  const sides: Array<[MemberSide, readonly ProtectionGroupMember[]]> = [
    ['primary', args.primaryMembers],
    ['standby', args.standbyMembers],
  ];
  for (const [side, members] of sides) {
    for (const member of members) {
      const rulesByPlan = (PLAN_STEP_RULES as Partial<Record<string, RulesByPlanType>>)[member.memberType];
      for (const rule of rulesByPlan?.[planType] ?? NONE) {
        if (rule.side !== side) continue;
        if (rule.when && !rule.when.every((condition) => MEMBER_CONDITIONS[condition](member))) continue;
        const list = stepsByGroup.get(rule.group) ?? [];
        list.push({ type: rule.stepType, memberId: member.memberId });
        stepsByGroup.set(rule.group, list);
      }
    }
  }

  const builtIn: PlanGroup[] = [];
  for (const key of PLAN_GROUP_ORDER[planType]) {
    const planned = stepsByGroup.get(key);
    if (!planned || planned.length === 0) continue;
    const id = newPlanElementId('group');
    builtIn.push({
      id,
      type: 'BUILT_IN',
      displayName: BUILT_IN_GROUP_NAMES[key],
      steps: planned.map((p) => builtInStep(id, p.type, p.memberId)),
    });
  }

  const precheckId = newPlanElementId('group');
  const prechecks: PlanStep[] = [];
  for (const group of builtIn) {
    for (const step of group.steps) {
      const precheck = precheckTypeOf(step.type);
      if (precheck && step.memberId) prechecks.push(builtInStep(precheckId, precheck, step.memberId));
    }
  }
  for (const p of stepsByGroup.get('PRECHECK') ?? []) prechecks.push(builtInStep(precheckId, p.type, p.memberId));

  if (prechecks.length === 0) return builtIn;
  return [
    { id: precheckId, type: 'BUILT_IN_PRECHECK', displayName: PRECHECK_GROUP_DISPLAY_NAME, steps: prechecks },
    ...builtIn,
  ];
}
