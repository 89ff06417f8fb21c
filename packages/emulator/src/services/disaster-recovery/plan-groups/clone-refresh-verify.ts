/** What a clone copies and what Refresh and Verify do to a plan's groups. Pure functions. */
import { newPlanElementId } from '../../../core/ids';
import { type DrPlanGroupRefreshStatus, type DrPlanGroupType, type DrPlanStepType } from '../enums';
import { copyStep, makeGroup } from './copy';
import { PlanGroup, PlanStep } from './model';
import { syncUserStepPrechecks } from './user-prechecks';

// ---------------------------------------------------------------------------------------------
// Clone and verify
// ---------------------------------------------------------------------------------------------

/**
 * A deep copy for a plan cloned through `sourcePlanId`: fresh group and step ids (each step's
 * `groupId` re-pointed), refresh labels dropped, everything else kept as is.
 */
export function clonePlanGroups(groups: readonly PlanGroup[]): PlanGroup[] {
  // The prechecks of user steps are tied to the steps' ids: the clone gets its own.
  return syncUserStepPrechecks(
    groups.map((group) => {
      const id = newPlanElementId('group');
      return makeGroup({
        id,
        type: group.type,
        displayName: group.displayName,
        isPauseEnabled: group.isPauseEnabled,
        steps: group.steps.map((step) =>
          copyStep(step, { id: newPlanElementId('step'), groupId: id, refreshStatus: null }),
        ),
      });
    }),
  );
}

/** Verify: drop everything labelled deleted, keep the rest, clear all labels. */
export function verifyPlanGroups(groups: readonly PlanGroup[]): PlanGroup[] {
  return syncUserStepPrechecks(
    groups
      .filter((group) => group.refreshStatus !== 'GROUP_DELETED')
      .map((group) =>
        makeGroup({
          id: group.id,
          type: group.type,
          displayName: group.displayName,
          isPauseEnabled: group.isPauseEnabled,
          steps: group.steps
            .filter((step) => step.refreshStatus !== 'STEP_DELETED')
            .map((step) => copyStep(step, { refreshStatus: null })),
        }),
      ),
  );
}

// ---------------------------------------------------------------------------------------------
// Refresh
// ---------------------------------------------------------------------------------------------

export interface RefreshPlanGroupsContext {
  /**
   * The current members of both protection groups. A user-defined step that runs on an
   * instance which was a member (some step of the current plan acted on it) and is no longer
   * one is labelled STEP_DELETED. Defaults to the members the regenerated steps act on.
   */
  memberIds?: ReadonlySet<string>;
}

export const isBuiltInGroupType = (type: DrPlanGroupType): boolean =>
  type === 'BUILT_IN' || type === 'BUILT_IN_PRECHECK';
const isUserStepType = (type: DrPlanStepType): boolean => type.startsWith('USER_DEFINED');
const groupKey = (group: Pick<PlanGroup, 'type' | 'displayName'>): string => `${group.type}\u0000${group.displayName}`;
const stepKey = (step: Pick<PlanStep, 'type' | 'memberId'>): string => `${step.type}\u0000${step.memberId ?? ''}`;

/**
 * Refresh: bring the plan's built-in groups and steps in line with `regenerated`
 * (what `generatePlanGroups` builds from the protection groups' members now) and label the
 * differences, keeping everything the user did:
 *
 * - Groups match by type + displayName, steps within a group by type + memberId. Matched steps
 *   keep their id and the user's displayName, errorMode, timeout and isEnabled.
 * - New steps in an existing group: STEP_ADDED (group GROUP_MODIFIED). Vanished steps stay,
 *   labelled STEP_DELETED (group GROUP_MODIFIED). A group whose built-in steps all vanished:
 *   GROUP_DELETED. New groups: GROUP_ADDED with all steps STEP_ADDED, inserted after the group
 *   that precedes them in the default order (a new precheck group goes first).
 * - User-defined groups stay where the user put them. Their steps that run on an instance
 *   which used to be a member and is not any more are labelled STEP_DELETED (GROUP_MODIFIED).
 * - Labels are relative to the last verified plan: refreshing again before a verify keeps an
 *   earlier STEP_ADDED/GROUP_ADDED on what is still there, drops added things that vanished
 *   again, and clears STEP_DELETED/GROUP_DELETED on things that came back.
 * - A USER_DEFINED_PAUSE group that ends up first or last among the groups not labelled
 *   deleted is moved inward by one place (when there are at least three such groups).
 */
export function refreshPlanGroups(
  current: readonly PlanGroup[],
  regenerated: readonly PlanGroup[],
  ctx: RefreshPlanGroupsContext = {},
): PlanGroup[] {
  const formerMemberIds = new Set<string>();
  for (const group of current) for (const step of group.steps) if (step.memberId) formerMemberIds.add(step.memberId);
  const memberIds =
    ctx.memberIds ??
    new Set(regenerated.flatMap((group) => group.steps.flatMap((step) => (step.memberId ? [step.memberId] : []))));

  const regeneratedByKey = new Map(regenerated.filter((g) => isBuiltInGroupType(g.type)).map((g) => [groupKey(g), g]));
  const matched = new Map<string, PlanGroup>(); // groupKey → group in the result
  const out: PlanGroup[] = [];

  for (const group of current) {
    if (!isBuiltInGroupType(group.type)) {
      out.push(refreshUserGroup(group, formerMemberIds, memberIds));
      continue;
    }
    const fresh = regeneratedByKey.get(groupKey(group));
    const refreshed = refreshBuiltInGroup(group, fresh);
    if (!refreshed) continue; // an added group, never verified, whose steps all vanished again
    if (fresh) matched.set(groupKey(group), refreshed);
    out.push(refreshed);
  }

  // Insert the new groups at their default position relative to their neighbours.
  let previous: PlanGroup | undefined;
  regenerated.forEach((fresh, index) => {
    const existing = matched.get(groupKey(fresh));
    if (existing) {
      previous = existing;
      return;
    }
    const added = makeGroup({
      id: fresh.id,
      type: fresh.type,
      displayName: fresh.displayName,
      refreshStatus: 'GROUP_ADDED',
      steps: fresh.steps.map((step) => copyStep(step, { groupId: fresh.id, refreshStatus: 'STEP_ADDED' })),
    });
    let at: number;
    if (fresh.type === 'BUILT_IN_PRECHECK') at = 0;
    else if (previous) at = out.indexOf(previous) + 1;
    else {
      const next = regenerated.slice(index + 1).find((g) => matched.has(groupKey(g)));
      at = next ? out.indexOf(matched.get(groupKey(next))!) : out.length;
    }
    out.splice(at, 0, added);
    previous = added;
  });

  movePauseGroupsInward(out);
  // The prechecks of user steps follow their steps' labels (STEP_DELETED with the step).
  return syncUserStepPrechecks(out);
}

function refreshBuiltInGroup(group: PlanGroup, fresh: PlanGroup | undefined): PlanGroup | undefined {
  const pool = new Map<string, PlanStep[]>();
  for (const step of fresh?.steps ?? []) {
    const list = pool.get(stepKey(step)) ?? [];
    list.push(step);
    pool.set(stepKey(step), list);
  }
  const steps: PlanStep[] = [];
  let live = 0;
  let changed = false;
  for (const step of group.steps) {
    if (isUserStepType(step.type)) {
      // The precheck of a user step: it lives while its step does (user-prechecks.ts labels it).
      steps.push(copyStep(step));
      live += 1;
      continue;
    }
    const candidates = pool.get(stepKey(step));
    if (candidates && candidates.length > 0) {
      candidates.shift();
      live += 1;
      if (step.refreshStatus === 'STEP_ADDED') changed = true;
      steps.push(copyStep(step, { refreshStatus: step.refreshStatus === 'STEP_ADDED' ? 'STEP_ADDED' : null }));
    } else if (step.refreshStatus !== 'STEP_ADDED') {
      changed = true;
      steps.push(copyStep(step, { refreshStatus: 'STEP_DELETED' }));
    }
    // else: added by an earlier refresh, never verified, gone again → dropped.
  }
  for (const step of fresh?.steps ?? []) {
    const candidates = pool.get(stepKey(step));
    if (candidates && candidates[0] === step) {
      candidates.shift();
      live += 1;
      changed = true;
      steps.push(copyStep(step, { id: newPlanElementId('step'), groupId: group.id, refreshStatus: 'STEP_ADDED' }));
    }
  }

  let refreshStatus: DrPlanGroupRefreshStatus | undefined;
  if (live === 0) {
    if (group.refreshStatus === 'GROUP_ADDED') return undefined;
    refreshStatus = 'GROUP_DELETED';
  } else if (group.refreshStatus === 'GROUP_ADDED') refreshStatus = 'GROUP_ADDED';
  else if (changed) refreshStatus = 'GROUP_MODIFIED';
  return makeGroup({ id: group.id, type: group.type, displayName: group.displayName, steps, refreshStatus });
}

function refreshUserGroup(
  group: PlanGroup,
  formerMemberIds: ReadonlySet<string>,
  memberIds: ReadonlySet<string>,
): PlanGroup {
  let changed = false;
  const steps = group.steps.map((step) => {
    const instanceId = step.userDefinedStep?.runOnInstanceId;
    const orphaned = instanceId !== undefined && formerMemberIds.has(instanceId) && !memberIds.has(instanceId);
    if (orphaned) changed = true;
    return copyStep(step, { refreshStatus: orphaned ? 'STEP_DELETED' : null });
  });
  return makeGroup({
    id: group.id,
    type: group.type,
    displayName: group.displayName,
    isPauseEnabled: group.isPauseEnabled,
    steps,
    refreshStatus: changed ? 'GROUP_MODIFIED' : undefined,
  });
}

function movePauseGroupsInward(groups: PlanGroup[]): void {
  const live = () => groups.filter((g) => g.refreshStatus !== 'GROUP_DELETED');
  let visible = live();
  if (visible.length < 3) return;
  if (visible[0].type === 'USER_DEFINED_PAUSE') {
    const pause = visible[0];
    groups.splice(groups.indexOf(pause), 1);
    groups.splice(groups.indexOf(visible[1]) + 1, 0, pause);
    visible = live();
  }
  const last = visible[visible.length - 1];
  if (last.type === 'USER_DEFINED_PAUSE') {
    groups.splice(groups.indexOf(last), 1);
    groups.splice(groups.indexOf(visible[visible.length - 2]), 0, last);
  }
}
