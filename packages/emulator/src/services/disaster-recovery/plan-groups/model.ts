/**
 * DR plan groups and steps as the API serves them (OCI's JSON field names), their defaults and
 * the labels generated names are made of. Every object is stored as JSON and served as is, so
 * optional fields are left out when empty (never `null`, never an `undefined` key).
 */
import {
  type DrPlanGroupRefreshStatus,
  type DrPlanGroupType,
  type DrPlanStepErrorMode,
  type DrPlanStepRefreshStatus,
  type DrPlanStepType,
  type DrPlanUserDefinedStepType,
} from '../enums';

// ---------------------------------------------------------------------------------------------
// Wire types (OCI's JSON field names)
// ---------------------------------------------------------------------------------------------

/** A protection-group member as stored (`DrProtectionGroupMember` and its subtypes). */
export interface ProtectionGroupMember {
  memberId: string;
  memberType: string;
  [k: string]: unknown;
}

export interface ObjectStorageScriptLocation {
  namespace: string;
  bucket: string;
  object: string;
}

/** `DrPlanUserDefinedStep`, discriminated on `stepType`. */
export interface UserDefinedStep {
  stepType: DrPlanUserDefinedStepType;
  runOnInstanceId?: string;
  runOnInstanceRegion?: string;
  objectStorageScriptLocation?: ObjectStorageScriptLocation;
  scriptCommand?: string;
  runAsUser?: string;
  functionId?: string;
  functionRegion?: string;
  requestBody?: string;
}

/** `DrPlanStep`. */
export interface PlanStep {
  id: string;
  groupId: string;
  memberId?: string;
  type: DrPlanStepType;
  refreshStatus?: DrPlanStepRefreshStatus;
  displayName: string;
  typeDisplayName: string;
  errorMode: DrPlanStepErrorMode;
  timeout: number;
  isEnabled: boolean;
  userDefinedStep?: UserDefinedStep;
}

/** `DrPlanGroup`. `isPauseEnabled` is present only on USER_DEFINED_PAUSE groups. */
export interface PlanGroup {
  id: string;
  type: DrPlanGroupType;
  displayName: string;
  steps: PlanStep[];
  refreshStatus?: DrPlanGroupRefreshStatus;
  isPauseEnabled?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------------------------

export const DEFAULT_STEP_TIMEOUT_SECONDS = 3600;
export const DEFAULT_STEP_ERROR_MODE: DrPlanStepErrorMode = 'STOP_ON_ERROR';
export const PRECHECK_GROUP_DISPLAY_NAME = 'Prechecks - Built In';
export const MAX_DISPLAY_NAME_LENGTH = 255;

// ---------------------------------------------------------------------------------------------
// Labels
// ---------------------------------------------------------------------------------------------

const WORD_LABELS: Readonly<Record<string, string>> = { OKE: 'OKE', MYSQL: 'MySQL', DB: 'DB', TO: 'to' };

/** A human label for an enum value: `DATABASE_SWITCHOVER` → "Database Switchover". */
export function typeDisplayNameOf(type: string): string {
  return type
    .split('_')
    .filter((word) => word !== '')
    .map((word) => WORD_LABELS[word] ?? word.charAt(0) + word.slice(1).toLowerCase())
    .join(' ');
}

/** The tail of an OCID, short enough for a display name (`ocid1.instance.oc1.iad.amaa…xyz` → last 8 characters). */
export function shortMemberId(memberId: string): string {
  const unique = memberId.split('.').pop() ?? memberId;
  return unique.length > 8 ? unique.slice(-8) : unique;
}
