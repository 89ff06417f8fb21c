/**
 * UpdateDrPlan's `planGroups`: parses the request's list (null members were already dropped by
 * the JSON parser, the one null-handling path) and applies it to the plan's groups.
 */
import { errors } from '../../../core/errors';
import { isOcid, newPlanElementId } from '../../../core/ids';
import { regionOfOcid } from '../../../core/regions';
import {
  DR_PLAN_GROUP_TYPES,
  DR_PLAN_STEP_ERROR_MODES,
  DR_PLAN_USER_DEFINED_STEP_TYPES,
  type DrPlanGroupType,
  type DrPlanStepErrorMode,
  type DrPlanStepType,
  isOneOf,
} from '../enums';
import { isBuiltInGroupType } from './clone-refresh-verify';
import { copyStep, makeGroup, orderStepKeys } from './copy';
import {
  DEFAULT_STEP_ERROR_MODE,
  DEFAULT_STEP_TIMEOUT_SECONDS,
  MAX_DISPLAY_NAME_LENGTH,
  PlanGroup,
  PlanStep,
  UserDefinedStep,
  typeDisplayNameOf,
} from './model';
import { isUserStepPrecheck, syncUserStepPrechecks } from './user-prechecks';

// ---------------------------------------------------------------------------------------------
// UpdateDrPlan: planGroups
// ---------------------------------------------------------------------------------------------

export interface PlanGroupsUpdateContext {
  /** The emulator's region, for user-defined steps whose instance or function OCID carries none. */
  region: string;
}

/**
 * The user-defined step kinds a user may create: all but the service's own automatic prechecks
 * (`*_PRECHECK` without `USER_DEFINED_CUSTOM`).
 */
const USER_CREATABLE_STEP_TYPES = DR_PLAN_USER_DEFINED_STEP_TYPES.filter(
  (type) => !type.endsWith('_PRECHECK') || type.endsWith('_USER_DEFINED_CUSTOM_PRECHECK'),
);

type JsonObject = Record<string, unknown>;

const invalid = (message: string) => errors.invalidParameter(message);

function asObject(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(`${path} must be a JSON object.`);
  return value as JsonObject;
}

/**
 * A field's value. JSON `null` never gets here: the request's JSON parser drops null members
 * (http/pipeline.ts), the emulator's one null-handling path, so a null reads as absent.
 */
function field(obj: JsonObject, key: string): unknown {
  return obj[key];
}

function optionalNonEmptyString(obj: JsonObject, key: string, path: string): string | undefined {
  const value = field(obj, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${path}.${key} must be a non-empty string.`);
  return value;
}

function optionalDisplayName(obj: JsonObject, path: string): string | undefined {
  const value = field(obj, 'displayName');
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_DISPLAY_NAME_LENGTH)
    throw invalid(`${path}.displayName must be a non-empty string of at most ${MAX_DISPLAY_NAME_LENGTH} characters.`);
  return value;
}

/** An optional free-text field: an empty string counts as absent (Terraform sends "" for unset ones). */
function optionalText(obj: JsonObject, key: string, path: string): string | undefined {
  const value = field(obj, key);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(`${path}.${key} must be a string.`);
  return value;
}

function requiredText(obj: JsonObject, key: string, path: string): string {
  const value = field(obj, key);
  if (value === undefined || value === '') throw errors.missingParameter(`${path}.${key}`);
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${path}.${key} must be a non-empty string.`);
  return value;
}

function requiredOcid(obj: JsonObject, key: string, path: string): string {
  const value = requiredText(obj, key, path);
  if (!isOcid(value)) throw invalid(`${path}.${key} must be an OCID.`);
  return value;
}

function optionalArray(obj: JsonObject, key: string, path: string): unknown[] | undefined {
  const value = field(obj, key);
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalid(`${path}.${key} must be an array.`);
  return value;
}

interface StepScalars {
  displayName?: string;
  errorMode?: DrPlanStepErrorMode;
  timeout?: number;
  isEnabled?: boolean;
}

function readStepScalars(obj: JsonObject, path: string): StepScalars {
  const scalars: StepScalars = {};
  const displayName = optionalDisplayName(obj, path);
  if (displayName !== undefined) scalars.displayName = displayName;
  const errorMode = field(obj, 'errorMode');
  if (errorMode !== undefined) {
    if (!isOneOf(DR_PLAN_STEP_ERROR_MODES, errorMode))
      throw invalid(`${path}.errorMode must be one of ${DR_PLAN_STEP_ERROR_MODES.join(', ')}.`);
    scalars.errorMode = errorMode;
  }
  const timeout = field(obj, 'timeout');
  if (timeout !== undefined) {
    if (typeof timeout !== 'number' || !Number.isSafeInteger(timeout) || timeout <= 0)
      throw invalid(`${path}.timeout must be a positive integer (seconds).`);
    scalars.timeout = timeout;
  }
  const isEnabled = field(obj, 'isEnabled');
  if (isEnabled !== undefined) {
    if (typeof isEnabled !== 'boolean') throw invalid(`${path}.isEnabled must be a boolean.`);
    scalars.isEnabled = isEnabled;
  }
  return scalars;
}

function withScalars(step: PlanStep, scalars: StepScalars): PlanStep {
  const copy = copyStep(step);
  if (scalars.displayName !== undefined) copy.displayName = scalars.displayName;
  if (scalars.errorMode !== undefined) copy.errorMode = scalars.errorMode;
  if (scalars.timeout !== undefined) copy.timeout = scalars.timeout;
  if (scalars.isEnabled !== undefined) copy.isEnabled = scalars.isEnabled;
  return copy;
}

/**
 * The region of an instance or function a step references: unchanged while the reference is,
 * otherwise the one its OCID names (or the emulator's own when the OCID names none).
 */
function referencedRegion(
  id: string,
  previousId: string | undefined,
  previousRegion: string | undefined,
  ctx: PlanGroupsUpdateContext,
): string {
  return previousId === id && previousRegion ? previousRegion : (regionOfOcid(id) ?? ctx.region);
}

/**
 * Parses an `Update…StepDetails` user-defined step (the whole object replaces the step's
 * current one). The `…Region` fields are not part of the update models: the region stays as
 * it was when the instance or function is unchanged, and is otherwise taken from the OCID
 * (or the emulator's region when the OCID carries none).
 */
function parseUserDefinedStep(
  raw: unknown,
  path: string,
  previous: UserDefinedStep | undefined,
  ctx: PlanGroupsUpdateContext,
): UserDefinedStep {
  const obj = asObject(raw, path);
  const stepType = field(obj, 'stepType');
  if (stepType === undefined || stepType === '') throw errors.missingParameter(`${path}.stepType`);
  if (!isOneOf(USER_CREATABLE_STEP_TYPES, stepType))
    throw invalid(`${path}.stepType must be one of ${USER_CREATABLE_STEP_TYPES.join(', ')}.`);

  if (stepType.startsWith('INVOKE_FUNCTION')) {
    const functionId = requiredOcid(obj, 'functionId', path);
    const uds: UserDefinedStep = {
      stepType,
      functionId,
      functionRegion: referencedRegion(functionId, previous?.functionId, previous?.functionRegion, ctx),
    };
    const requestBody = optionalText(obj, 'requestBody', path);
    if (requestBody !== undefined) uds.requestBody = requestBody;
    return uds;
  }

  const runOnInstanceId = requiredOcid(obj, 'runOnInstanceId', path);
  const uds: UserDefinedStep = {
    stepType,
    runOnInstanceId,
    runOnInstanceRegion: referencedRegion(
      runOnInstanceId,
      previous?.runOnInstanceId,
      previous?.runOnInstanceRegion,
      ctx,
    ),
  };
  if (stepType.startsWith('RUN_OBJECTSTORE_SCRIPT')) {
    const locationPath = `${path}.objectStorageScriptLocation`;
    const rawLocation = field(obj, 'objectStorageScriptLocation');
    if (rawLocation === undefined) throw errors.missingParameter(locationPath);
    const location = asObject(rawLocation, locationPath);
    uds.objectStorageScriptLocation = {
      namespace: requiredText(location, 'namespace', locationPath),
      bucket: requiredText(location, 'bucket', locationPath),
      object: requiredText(location, 'object', locationPath),
    };
    const scriptCommand = optionalText(obj, 'scriptCommand', path);
    if (scriptCommand !== undefined) uds.scriptCommand = scriptCommand;
  } else {
    uds.scriptCommand = requiredText(obj, 'scriptCommand', path);
  }
  const runAsUser = optionalText(obj, 'runAsUser', path);
  if (runAsUser !== undefined) uds.runAsUser = runAsUser;
  return uds;
}

function stepTypeForUserDefined(uds: UserDefinedStep): DrPlanStepType {
  return uds.stepType.endsWith('_USER_DEFINED_CUSTOM_PRECHECK') ? 'USER_DEFINED_CUSTOM_PRECHECK' : 'USER_DEFINED';
}

/** Lists step entries, checking each is an object and that no id repeats within the group. */
function readStepEntries(rawSteps: unknown[], path: string): Array<{ obj: JsonObject; path: string; id?: string }> {
  const seen = new Set<string>();
  return rawSteps.map((raw, j) => {
    const stepPath = `${path}.steps[${j}]`;
    const obj = asObject(raw, stepPath);
    const id = optionalNonEmptyString(obj, 'id', stepPath);
    if (id !== undefined) {
      if (seen.has(id)) throw invalid(`${stepPath}.id '${id}' is listed more than once in ${path}.steps.`);
      seen.add(id);
    }
    return id === undefined ? { obj, path: stepPath } : { obj, path: stepPath, id };
  });
}

/** A listed service precheck of a user step: what the request says, checked once the prechecks follow their steps. */
interface ListedPrecheck {
  path: string;
  before: PlanStep;
  scalars: StepScalars;
}

function updateBuiltInSteps(
  group: PlanGroup,
  rawSteps: unknown[] | undefined,
  path: string,
  listedPrechecks: ListedPrecheck[],
): PlanStep[] {
  if (rawSteps === undefined) return group.steps.map((step) => copyStep(step));
  const byId = new Map(group.steps.map((step) => [step.id, step]));
  const updates = new Map<string, PlanStep>();
  for (const entry of readStepEntries(rawSteps, path)) {
    if (entry.id === undefined)
      throw invalid(
        `${entry.path}.id is required: steps cannot be added to a ${group.type} group (only to USER_DEFINED groups).`,
      );
    const existing = byId.get(entry.id);
    if (!existing)
      throw invalid(`${entry.path}.id '${entry.id}' does not match any step of group '${group.displayName}'.`);
    const rawUds = field(entry.obj, 'userDefinedStep');
    if (rawUds !== undefined) {
      const requestedType = asObject(rawUds, `${entry.path}.userDefinedStep`).stepType;
      if (!existing.userDefinedStep || requestedType !== existing.userDefinedStep.stepType)
        throw invalid(`${entry.path}.userDefinedStep cannot be changed on a step of a ${group.type} group.`);
    }
    const scalars = readStepScalars(entry.obj, entry.path);
    if (isUserStepPrecheck(existing)) listedPrechecks.push({ path: entry.path, before: existing, scalars });
    else updates.set(entry.id, withScalars(existing, scalars));
  }
  // Membership is the service's: omitted steps stay, and the order stays the service's (the
  // steps of a group run in parallel).
  return group.steps.map((step) => updates.get(step.id) ?? copyStep(step));
}

function updateUserDefinedSteps(
  groupId: string,
  groupLabel: string,
  currentSteps: readonly PlanStep[],
  rawSteps: unknown[],
  path: string,
  ctx: PlanGroupsUpdateContext,
): PlanStep[] {
  const byId = new Map(currentSteps.map((step) => [step.id, step]));
  return readStepEntries(rawSteps, path).map((entry) => {
    const scalars = readStepScalars(entry.obj, entry.path);
    const rawUds = field(entry.obj, 'userDefinedStep');
    if (entry.id !== undefined) {
      const existing = byId.get(entry.id);
      if (!existing) throw invalid(`${entry.path}.id '${entry.id}' does not match any step of group '${groupLabel}'.`);
      const step = withScalars(existing, scalars);
      if (rawUds !== undefined) {
        const uds = parseUserDefinedStep(rawUds, `${entry.path}.userDefinedStep`, existing.userDefinedStep, ctx);
        step.userDefinedStep = uds;
        step.type = stepTypeForUserDefined(uds);
        step.typeDisplayName = typeDisplayNameOf(step.type);
      }
      return orderStepKeys(step);
    }
    if (rawUds === undefined) throw errors.missingParameter(`${entry.path}.userDefinedStep`);
    const uds = parseUserDefinedStep(rawUds, `${entry.path}.userDefinedStep`, undefined, ctx);
    const type = stepTypeForUserDefined(uds);
    return orderStepKeys({
      id: newPlanElementId('step'),
      groupId,
      type,
      displayName: scalars.displayName ?? typeDisplayNameOf(uds.stepType),
      typeDisplayName: typeDisplayNameOf(type),
      errorMode: scalars.errorMode ?? DEFAULT_STEP_ERROR_MODE,
      timeout: scalars.timeout ?? DEFAULT_STEP_TIMEOUT_SECONDS,
      isEnabled: scalars.isEnabled ?? true,
      userDefinedStep: uds,
    });
  });
}

function readPauseFlag(obj: JsonObject, path: string, type: DrPlanGroupType): boolean | undefined {
  const value = field(obj, 'isPauseEnabled');
  if (value === undefined) return undefined;
  if (type !== 'USER_DEFINED_PAUSE')
    throw invalid(`${path}.isPauseEnabled is only allowed on USER_DEFINED_PAUSE groups.`);
  if (typeof value !== 'boolean') throw invalid(`${path}.isPauseEnabled must be a boolean.`);
  return value;
}

function checkPauseSteps(rawSteps: unknown[] | undefined, path: string): void {
  if (rawSteps !== undefined && rawSteps.length > 0)
    throw invalid(`${path}.steps must be empty for a USER_DEFINED_PAUSE group.`);
}

function readGroupType(obj: JsonObject, path: string): DrPlanGroupType | undefined {
  const type = field(obj, 'type');
  if (type === undefined) return undefined;
  if (!isOneOf(DR_PLAN_GROUP_TYPES, type))
    throw invalid(`${path}.type must be one of ${DR_PLAN_GROUP_TYPES.join(', ')}.`);
  return type;
}

function updateExistingGroup(
  group: PlanGroup,
  obj: JsonObject,
  path: string,
  ctx: PlanGroupsUpdateContext,
  listedPrechecks: ListedPrecheck[],
): PlanGroup {
  const type = readGroupType(obj, path);
  if (type !== undefined && type !== group.type)
    throw invalid(`${path}.type cannot be changed (from ${group.type} to ${type}).`);
  const displayName = optionalDisplayName(obj, path);
  if (displayName !== undefined && displayName !== group.displayName && isBuiltInGroupType(group.type))
    throw invalid(`${path}.displayName of a ${group.type} group cannot be changed.`);
  const isPauseEnabled = readPauseFlag(obj, path, group.type);
  const rawSteps = optionalArray(obj, 'steps', path);

  let steps: PlanStep[];
  if (isBuiltInGroupType(group.type)) steps = updateBuiltInSteps(group, rawSteps, path, listedPrechecks);
  else if (group.type === 'USER_DEFINED_PAUSE') {
    checkPauseSteps(rawSteps, path);
    steps = group.steps.map((step) => copyStep(step));
  } else if (rawSteps === undefined) steps = group.steps.map((step) => copyStep(step));
  else steps = updateUserDefinedSteps(group.id, displayName ?? group.displayName, group.steps, rawSteps, path, ctx);

  return makeGroup({
    id: group.id,
    type: group.type,
    displayName: displayName ?? group.displayName,
    steps,
    refreshStatus: group.refreshStatus,
    isPauseEnabled: isPauseEnabled ?? group.isPauseEnabled,
  });
}

function createGroup(obj: JsonObject, path: string, ctx: PlanGroupsUpdateContext): PlanGroup {
  const type = readGroupType(obj, path);
  if (type === undefined) throw errors.missingParameter(`${path}.type`);
  if (isBuiltInGroupType(type))
    throw invalid(
      `${path}.type ${type} cannot be created: new groups must be USER_DEFINED or USER_DEFINED_PAUSE (an entry without an id is a new group).`,
    );
  const displayName = optionalDisplayName(obj, path);
  if (displayName === undefined) throw errors.missingParameter(`${path}.displayName`);
  const isPauseEnabled = readPauseFlag(obj, path, type);
  const rawSteps = optionalArray(obj, 'steps', path);
  const id = newPlanElementId('group');
  if (type === 'USER_DEFINED_PAUSE') {
    checkPauseSteps(rawSteps, path);
    return makeGroup({ id, type, displayName, steps: [], isPauseEnabled: isPauseEnabled ?? true });
  }
  return makeGroup({
    id,
    type,
    displayName,
    steps: updateUserDefinedSteps(id, displayName, [], rawSteps ?? [], path, ctx),
  });
}

/**
 * UpdateDrPlan's `planGroups` (`UpdateDrPlanGroupDetails[]`, which terraform-provider-oci sends back whole from its state): the full, ordered list of the plan's
 * groups. Returns the plan's new groups or throws an OciServiceError (400) naming the JSON path
 * of the first problem.
 *
 * - An entry with an `id` is that existing group: its type cannot change; BUILT_IN and
 *   BUILT_IN_PRECHECK groups keep their name and step membership (listed steps, by id, may
 *   change displayName, errorMode, timeout and isEnabled; omitted ones stay unchanged).
 * - An entry without an `id` is a new USER_DEFINED or USER_DEFINED_PAUSE group.
 * - Every BUILT_IN / BUILT_IN_PRECHECK group must be listed; user-defined groups left out are
 *   deleted.
 * - A user-defined group's `steps`, when given, is its full ordered list: entries with an id
 *   are its existing steps, entries without are new steps, which need a `userDefinedStep`.
 * - Omitted fields keep their current values (an absent `isPauseEnabled` included); read-only
 *   fields (`groupId`, `memberId`, `type` of steps, `typeDisplayName`, `refreshStatus`, the
 *   user-defined step's regions) are ignored, so the plan's own `planGroups` as GET returns
 *   them, or as Terraform sends them back, apply as a no-op.
 */
export function applyPlanGroupsUpdate(
  current: readonly PlanGroup[],
  requested: unknown,
  ctx: PlanGroupsUpdateContext,
): PlanGroup[] {
  if (!Array.isArray(requested)) throw invalid('planGroups must be an array of plan groups.');
  const byId = new Map(current.map((group) => [group.id, group]));
  const listed = new Set<string>();
  const listedPrechecks: ListedPrecheck[] = [];
  const result = requested.map((raw, i) => {
    const path = `planGroups[${i}]`;
    const obj = asObject(raw, path);
    const id = optionalNonEmptyString(obj, 'id', path);
    if (id === undefined) return createGroup(obj, path, ctx);
    const existing = byId.get(id);
    if (!existing) throw invalid(`${path}.id '${id}' does not match any group of this DR plan.`);
    if (listed.has(id)) throw invalid(`${path}.id '${id}' is listed more than once in planGroups.`);
    listed.add(id);
    return updateExistingGroup(existing, obj, path, ctx, listedPrechecks);
  });
  for (const group of current) {
    if (isBuiltInGroupType(group.type) && !listed.has(group.id))
      throw invalid(
        `planGroups must list the ${group.type} group '${group.displayName}' (id ${group.id}): built-in groups cannot be removed.`,
      );
  }
  const synced = syncUserStepPrechecks(result);
  checkPrecheckEdits(synced, listedPrechecks);
  return synced;
}

const SCALAR_KEYS = ['displayName', 'errorMode', 'timeout', 'isEnabled'] as const;

/**
 * The service's prechecks of user steps cannot be edited: a listed one may carry the values it
 * had before this update (a GET sent back, possibly with its user step changed in the same
 * request) or the values it has after (they follow the user step); anything else is a 400.
 */
function checkPrecheckEdits(groups: readonly PlanGroup[], listed: readonly ListedPrecheck[]): void {
  if (listed.length === 0) return;
  const after = new Map(groups.flatMap((group) => group.steps).map((step) => [step.id, step]));
  for (const { path, before, scalars } of listed) {
    const now = after.get(before.id);
    for (const key of SCALAR_KEYS) {
      const value = scalars[key];
      if (value === undefined || value === before[key] || value === now?.[key]) continue;
      throw invalid(
        `${path}.${key} cannot be changed: step '${before.displayName}' is a precheck the service adds for a ` +
          `user-defined step (${before.userDefinedStep?.stepType}); it follows that step and cannot be edited.`,
      );
    }
  }
}
