import type {
  DrProtectionGroupLifecycleState,
  DrProtectionGroupLifecycleSubState,
  DrProtectionGroupRole,
} from './enums';
import type { ProtectionGroupMember } from './plan-groups';

/**
 * What the Disaster Recovery modules share, kept in a leaf module so that protection groups and
 * plans, which call each other, never import each other's types.
 */

/** The API version every Disaster Recovery path starts with. */
export const BASE_PATH = '/20220125';

export type Tags = Record<string, string>;
export type DefinedTags = Record<string, Record<string, unknown>>;

/** `DrProtectionGroup` exactly as the API serves it. */
export interface DrProtectionGroupBody {
  id: string;
  compartmentId: string;
  displayName: string;
  role: DrProtectionGroupRole;
  peerId?: string;
  peerRegion?: string;
  logLocation?: { namespace: string; bucket: string; object?: string };
  members?: ProtectionGroupMember[];
  timeCreated: string;
  timeUpdated: string;
  lifecycleState: DrProtectionGroupLifecycleState;
  lifeCycleDetails?: string;
  lifecycleSubState?: DrProtectionGroupLifecycleSubState;
  freeformTags?: Tags;
  definedTags?: DefinedTags;
  systemTags?: DefinedTags;
}
