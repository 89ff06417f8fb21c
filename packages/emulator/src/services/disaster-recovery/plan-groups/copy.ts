/** Copies of plan groups and steps that build objects without undefined keys. */
import { type DrPlanGroupRefreshStatus, type DrPlanGroupType, type DrPlanStepRefreshStatus } from '../enums';
import { PlanGroup, PlanStep, UserDefinedStep } from './model';

// ---------------------------------------------------------------------------------------------
// Copy helpers (build objects without undefined keys)
// ---------------------------------------------------------------------------------------------

function copyUserDefinedStep(uds: UserDefinedStep): UserDefinedStep {
  const copy: UserDefinedStep = { stepType: uds.stepType };
  if (uds.runOnInstanceId !== undefined) copy.runOnInstanceId = uds.runOnInstanceId;
  if (uds.runOnInstanceRegion !== undefined) copy.runOnInstanceRegion = uds.runOnInstanceRegion;
  if (uds.objectStorageScriptLocation !== undefined) {
    const { namespace, bucket, object } = uds.objectStorageScriptLocation;
    copy.objectStorageScriptLocation = { namespace, bucket, object };
  }
  if (uds.scriptCommand !== undefined) copy.scriptCommand = uds.scriptCommand;
  if (uds.runAsUser !== undefined) copy.runAsUser = uds.runAsUser;
  if (uds.functionId !== undefined) copy.functionId = uds.functionId;
  if (uds.functionRegion !== undefined) copy.functionRegion = uds.functionRegion;
  if (uds.requestBody !== undefined) copy.requestBody = uds.requestBody;
  return copy;
}

interface StepOverrides {
  id?: string;
  groupId?: string;
  /** `null` removes the label. */
  refreshStatus?: DrPlanStepRefreshStatus | null;
}

/** A deep copy of a step in canonical key order, with optional overrides. */
export function copyStep(step: PlanStep, overrides: StepOverrides = {}): PlanStep {
  const copy: PlanStep = {
    id: overrides.id ?? step.id,
    groupId: overrides.groupId ?? step.groupId,
    type: step.type,
    displayName: step.displayName,
    typeDisplayName: step.typeDisplayName,
    errorMode: step.errorMode,
    timeout: step.timeout,
    isEnabled: step.isEnabled,
  };
  if (step.memberId !== undefined) copy.memberId = step.memberId;
  const refreshStatus = overrides.refreshStatus === undefined ? step.refreshStatus : overrides.refreshStatus;
  if (refreshStatus) copy.refreshStatus = refreshStatus;
  if (step.userDefinedStep !== undefined) copy.userDefinedStep = copyUserDefinedStep(step.userDefinedStep);
  return orderStepKeys(copy);
}

const STEP_KEY_ORDER: ReadonlyArray<keyof PlanStep> = [
  'id',
  'groupId',
  'memberId',
  'type',
  'refreshStatus',
  'displayName',
  'typeDisplayName',
  'errorMode',
  'timeout',
  'isEnabled',
  'userDefinedStep',
];

/** The step with its keys in the model's order and no undefined keys (JSON output stays tidy). */
export function orderStepKeys(step: PlanStep): PlanStep {
  const out: Record<string, unknown> = {};
  for (const key of STEP_KEY_ORDER) if (step[key] !== undefined) out[key] = step[key];
  return out as unknown as PlanStep;
}

export function makeGroup(fields: {
  id: string;
  type: DrPlanGroupType;
  displayName: string;
  steps: PlanStep[];
  refreshStatus?: DrPlanGroupRefreshStatus | undefined;
  isPauseEnabled?: boolean | undefined;
}): PlanGroup {
  const group: PlanGroup = { id: fields.id, type: fields.type, displayName: fields.displayName, steps: fields.steps };
  if (fields.refreshStatus) group.refreshStatus = fields.refreshStatus;
  if (fields.type === 'USER_DEFINED_PAUSE') group.isPauseEnabled = fields.isPauseEnabled ?? true;
  return group;
}
