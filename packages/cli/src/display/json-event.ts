import { isDefaultProvider } from '../engine/default-provider';
import type { EngineEvent, StepEventMetadata, StepEventStateMetadata } from '../engine/types';

const STEP_EVENTS = ['resourcePreEvent', 'resOutputsEvent', 'resOpFailedEvent'] as const;

/**
 * An engine event as `--json` prints it: in the shape of Pulumi's apitype.EngineEvent
 * (sdk/go/common/apitype/events.go), which is what scripts written for `pulumi up --json` parse.
 * Undefined for an event Pulumi does not print: a default provider's steps are internal
 * (display.go ShowEvents drops them). `colour`: the colorization is not never (see
 * rawDiagnostic). `refresh`: the operation is a refresh (`ocikit refresh`, not `up --refresh`).
 */
export function jsonEvent(event: EngineEvent, colour = false, refresh = false): EngineEvent | undefined {
  const key = STEP_EVENTS.find((k) => event[k]);
  if (!key)
    return colour && event.diagnosticEvent
      ? { ...event, diagnosticEvent: rawDiagnostic(event.diagnosticEvent) }
      : event;
  const step = event[key]!;
  const m = step.metadata;
  if (isDefaultProvider(m.urn)) return undefined;
  return { ...event, [key]: { ...step, metadata: jsonMetadata(m, refresh && key === 'resOutputsEvent') } };
}

/**
 * StepEventMetadata's JSON: `old`, `new` and `detailedDiff` always (null when there is none),
 * `keys`, `diffs` and `logical` only when set (omitempty). The result of a refresh operation's
 * step carries what it found (RefreshStep.ResultOp, the engine's refreshResult, which the summary
 * counts too): same, update (drift, even from a Diff that names no key) or delete (gone). Only
 * there: Pulumi converts the op only when the whole operation is a refresh (pkg/engine/update.go
 * OnResourceStepPost: `acts.Opts.isRefresh`, set by engine.Refresh alone), so `up --refresh` and
 * `preview --refresh` keep `refresh`.
 */
function jsonMetadata(m: StepEventMetadata, result: boolean): StepEventMetadata {
  const op = result && m.op === 'refresh' ? (m.refreshResult ?? (m.new ? 'same' : 'delete')) : m.op;
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

const RESET = '<{%reset%}>';
/** colors.SpecDebug (reset), SpecWarning (fg 3) and SpecError (fg 1) in Pulumi's directives. */
const SEVERITY_COLOUR: Record<string, string> = { debug: RESET, warning: '<{%fg 3%}>', error: '<{%fg 1%}>' };

/**
 * A diagnostic as Pulumi's --json prints it when its colorization is not never: as the engine
 * made it (pkg/engine/events.go diagEvent: `color: raw`; eventSink.Stringify: the prefix in its
 * severity's colour directive then reset, the message between resets), for the reader to
 * colorize; logJSONEvent (pkg/backend/display/display.go) takes the directives out only for
 * never.
 */
function rawDiagnostic(d: NonNullable<EngineEvent['diagnosticEvent']>): NonNullable<EngineEvent['diagnosticEvent']> {
  return {
    ...d,
    ...(d.prefix ? { prefix: `${SEVERITY_COLOUR[d.severity] ?? ''}${d.prefix}${RESET}` } : {}),
    message: `${RESET}${d.message.replace(/\n$/, '')}${RESET}\n`,
    color: 'raw',
  };
}
