// Engine events in the shape of Pulumi's apitype.EngineEvent, numbered in emission order.
import { maskSecrets, type Props } from './values';
import type { EngineEvent, OpType, StepEventMetadata, StepEventStateMetadata } from './types';
import type { ResourceState } from './state';

export type EventPayload = Omit<EngineEvent, 'sequence' | 'timestamp'>;

export class EventSink {
  private sequence = 0;
  constructor(private readonly onEvent: (e: EngineEvent) => void) {}

  emit(payload: EventPayload): void {
    const event = { sequence: this.sequence++, timestamp: Math.floor(Date.now() / 1000), ...payload } as EngineEvent;
    try {
      this.onEvent(event);
    } catch {
      // A display error must not break the deployment.
    }
  }

  diag(
    severity: 'debug' | 'info' | 'info#err' | 'warning' | 'error',
    message: string,
    urn?: string,
    ephemeral?: boolean,
  ): void {
    const text = message.endsWith('\n') ? message : `${message}\n`;
    this.emit({
      diagnosticEvent: { urn, message: text, color: 'never', severity, ...(ephemeral ? { ephemeral } : {}) },
    });
  }
}

export function stateMetadata(r: ResourceState | undefined): StepEventStateMetadata | undefined {
  if (!r) return undefined;
  const meta: StepEventStateMetadata = {
    type: r.type,
    urn: r.urn,
    custom: r.custom,
    delete: r.delete,
    id: r.id ?? '',
    parent: r.parent ?? '',
    protect: r.protect,
    retainOnDelete: r.retainOnDelete,
    inputs: maskSecrets(r.inputs) as Props,
    outputs: {},
    provider: r.provider ?? '',
    initErrors: r.initErrors,
  };
  // Outputs (16 KB for a DrPlan) are masked only if someone reads them (--json prints them, the
  // diff view never does): two events per step would otherwise copy every output twice.
  let outputs: Props | undefined;
  Object.defineProperty(meta, 'outputs', {
    enumerable: true,
    configurable: true,
    get: () => (outputs ??= maskSecrets(r.outputs) as Props),
    set: (v: Props) => (outputs = v),
  });
  return meta;
}

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
    ...extra,
  };
}
