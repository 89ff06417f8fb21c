import { isDefaultProvider } from '../engine/default-provider';
import type { EngineEvent, StepEventMetadata, StepEventStateMetadata } from '../engine/types';

const STEP_EVENTS = ['resourcePreEvent', 'resOutputsEvent', 'resOpFailedEvent'] as const;

/**
 * An engine event as `--json` prints it: in the shape of Pulumi's apitype.EngineEvent
 * (sdk/go/common/apitype/events.go), which is what scripts written for `pulumi up --json` parse.
 * Undefined for an event Pulumi does not print: a default provider's steps are internal
 * (display.go ShowEvents drops them).
 */
export function jsonEvent(event: EngineEvent): EngineEvent | undefined {
  const key = STEP_EVENTS.find((k) => event[k]);
  if (!key) return event;
  const step = event[key]!;
  const m = step.metadata;
  if (isDefaultProvider(m.urn)) return undefined;
  return { ...event, [key]: { ...step, metadata: jsonMetadata(m, key === 'resOutputsEvent') } };
}

/**
 * StepEventMetadata's JSON: `old`, `new` and `detailedDiff` always (null when there is none),
 * `keys`, `diffs` and `logical` only when set (omitempty). A refresh's result carries what it found
 * (RefreshStep.ResultOp, update.go OnResourceStepPost): same, update (drift) or delete (gone).
 */
function jsonMetadata(m: StepEventMetadata, result: boolean): StepEventMetadata {
  const op = result && m.op === 'refresh' ? (!m.new ? 'delete' : m.diffs?.length ? 'update' : 'same') : m.op;
  return {
    op,
    urn: m.urn,
    type: m.type,
    old: jsonState(m.old),
    new: jsonState(m.new),
    ...(m.keys?.length ? { keys: m.keys } : {}),
    ...(m.diffs?.length ? { diffs: m.diffs } : {}),
    // Not omitempty: null (no detailed diff) and {} (no changed property) say different things.
    detailedDiff: m.detailedDiff ?? null,
    ...(m.logical ? { logical: true } : {}),
    provider: m.provider,
  } as StepEventMetadata;
}

/** StepEventStateMetadata's JSON: its flags (custom, delete, protect, retainOnDelete) and initErrors only when set. */
function jsonState(s: StepEventStateMetadata | undefined): StepEventStateMetadata | null {
  if (!s) return null;
  return {
    type: s.type,
    urn: s.urn,
    ...(s.custom ? { custom: true } : {}),
    ...(s.delete ? { delete: true } : {}),
    id: s.id,
    parent: s.parent,
    ...(s.protect ? { protect: true } : {}),
    ...(s.retainOnDelete ? { retainOnDelete: true } : {}),
    inputs: s.inputs,
    outputs: s.outputs,
    provider: s.provider,
    ...(s.initErrors?.length ? { initErrors: s.initErrors } : {}),
  };
}
