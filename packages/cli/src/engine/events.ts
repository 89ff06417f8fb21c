// Engine events in the shape of Pulumi's apitype.EngineEvent, numbered in emission order.
import { maskSecrets, stripSecrets, type Props } from './values';
import type { EngineEvent, OpType, StepEventMetadata, StepEventStateMetadata } from './types';
import type { ResourceState } from './state';

export type EventPayload = Omit<EngineEvent, 'sequence' | 'timestamp'>;

export class EventSink {
  private sequence = 0;
  /** `showSecrets`: secrets go out as their values (`--show-secrets`), else as `[secret]`. */
  constructor(
    private readonly onEvent: (e: EngineEvent) => void,
    private readonly options: { showSecrets?: boolean; debug?: boolean } = {},
  ) {}

  /** `--debug`: the program's debug messages are events too (else dropped, as Pulumi's engine drops them). */
  get debug(): boolean {
    return Boolean(this.options.debug);
  }

  emit(payload: EventPayload): void {
    const event = {
      sequence: this.sequence++,
      timestamp: Math.floor(Date.now() / 1000),
      ...this.filtered(payload),
    } as EngineEvent;
    try {
      this.onEvent(event);
    } catch {
      // A display error must not break the deployment.
    }
  }

  /** A step event's states as they may be shown: secrets masked, or revealed with `showSecrets`. */
  private filtered(payload: EventPayload): EventPayload {
    const key = (['resourcePreEvent', 'resOutputsEvent', 'resOpFailedEvent'] as const).find((k) => payload[k]);
    if (!key) return payload;
    const step = payload[key]!;
    const show = this.options.showSecrets ? stripSecrets : maskSecrets;
    const metadata = {
      ...step.metadata,
      old: shownState(step.metadata.old, show),
      new: shownState(step.metadata.new, show),
    };
    return { ...payload, [key]: { ...step, metadata } };
  }

  diag(
    severity: 'debug' | 'info' | 'info#err' | 'warning' | 'error',
    message: string,
    urn?: string,
    ephemeral?: boolean,
  ): void {
    const text = message.endsWith('\n') ? message : `${message}\n`;
    // Pulumi's sink (diag.Stringify) prefixes every severity but info with its name.
    const prefix = severity === 'info' || severity === 'info#err' ? undefined : `${severity}: `;
    this.emit({
      diagnosticEvent: {
        urn,
        ...(prefix ? { prefix } : {}),
        message: text,
        color: 'never',
        severity,
        ...(ephemeral ? { ephemeral } : {}),
      },
    });
  }
}

/** A resource's state for a step event, its values as they are (EventSink.emit filters them). */
export function stateMetadata(r: ResourceState | undefined): StepEventStateMetadata | undefined {
  if (!r) return undefined;
  return {
    type: r.type,
    urn: r.urn,
    custom: r.custom,
    delete: r.delete,
    id: r.id ?? '',
    parent: r.parent ?? '',
    protect: r.protect,
    retainOnDelete: r.retainOnDelete,
    inputs: r.inputs,
    outputs: r.outputs,
    provider: r.provider ?? '',
    initErrors: r.initErrors,
  };
}

/**
 * A state with its secrets filtered by `show`. Outputs (16 KB for a DrPlan) are filtered only if
 * someone reads them (--json prints them, the diff view never does): two events per step would
 * otherwise copy every output twice.
 */
function shownState(
  state: StepEventStateMetadata | undefined,
  show: (v: unknown) => unknown,
): StepEventStateMetadata | undefined {
  if (!state) return undefined;
  const raw = state.outputs;
  const shown: StepEventStateMetadata = { ...state, inputs: show(state.inputs) as Props };
  let outputs: Props | undefined;
  Object.defineProperty(shown, 'outputs', {
    enumerable: true,
    configurable: true,
    get: () => (outputs ??= show(raw) as Props),
    set: (v: Props) => (outputs = v),
  });
  return shown;
}

/**
 * Pulumi's Step.Logical: every step but a replacement's create and delete (create-replacement,
 * delete-replaced) and a refresh.
 */
const LOGICAL: ReadonlySet<OpType> = new Set<OpType>([
  'same',
  'create',
  'update',
  'replace',
  'read',
  'import',
  'delete',
  'discard',
]);

export function stepMetadata(
  op: OpType,
  urn: string,
  type: string,
  old: ResourceState | undefined,
  next: ResourceState | undefined,
  extra: Partial<StepEventMetadata> = {},
): StepEventMetadata {
  return {
    op,
    urn,
    type,
    old: stateMetadata(old),
    new: stateMetadata(next),
    provider: next?.provider ?? old?.provider ?? '',
    ...(LOGICAL.has(op) ? { logical: true } : {}),
    ...extra,
  };
}
