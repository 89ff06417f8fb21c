// The state a step records of a resource, as Pulumi's steps build it (pkg/resource/deploy/step.go):
// outputs that keep secret what the inputs and additionalSecretOutputs make secret, a create's
// result and its partial failure (made, not initialised); and a hook's view of the old state.
import { goTimeJson } from '../go-json';
import type { HookArgs } from './hooks';
import { InitFailedError } from './provider-host';
import type { ResourceState } from './state';
import { isSecret, makeSecret, type Props } from './values';

/** A resource's outputs, secrets kept secret. */
export function withSecrets(reg: { additionalSecretOutputs?: string[] }, inputs: Props, outputs: Props): Props {
  const out: Props = { ...outputs };
  // Secretness of top-level inputs carries over to outputs of the same name, and
  // additionalSecretOutputs are always secret (Pulumi's output processing).
  for (const [k, v] of Object.entries(inputs))
    if (isSecret(v) && k in out && !isSecret(out[k])) out[k] = makeSecret(out[k]);
  for (const k of reg.additionalSecretOutputs ?? []) if (k in out && !isSecret(out[k])) out[k] = makeSecret(out[k]);
  return out;
}

/**
 * The state of a resource a create made: its id and outputs, secrets kept secret, and its created
 * and modified times both the moment the provider answered, as Pulumi's CreateStep.Apply sets
 * them (one `now` after Create returns); the draft's `created` was the create's key, sent with it.
 */
export function created(draft: ResourceState, id: string, properties: Props): ResourceState {
  const now = goTimeJson();
  return { ...draft, id, outputs: withSecrets(draft, draft.inputs, properties), created: now, modified: now };
}

/**
 * What a pending update records, as Pulumi's: the step's new state (pkg/backend/snapshot.go
 * doUpdate: markOperationPending(step.New(), OperationTypeUpdating)), the inputs being sent and no
 * outputs yet, with the old id and times (UpdateStep.Apply sets s.new.ID, Created and Modified
 * from s.old before it calls the provider; the write at BeginMutation comes just before that and
 * has no id yet, but the next run needs it to find the resource).
 */
export function pendingUpdate(old: ResourceState, draft: ResourceState): ResourceState {
  return { ...draft, id: old.id, outputs: {}, created: old.created, modified: old.modified };
}

/** A create's partial failure (made, not initialised) as Pulumi records it: with its init errors. */
export function createdButFailed(draft: ResourceState, e: unknown): ResourceState | undefined {
  if (!(e instanceof InitFailedError && e.id)) return undefined;
  return { ...created(draft, e.id, e.properties), initErrors: e.reasons };
}

/** A hook's old inputs and outputs (none for a create). */
export function oldProps(old: ResourceState | undefined): Pick<HookArgs, 'oldInputs' | 'oldOutputs'> {
  return old ? { oldInputs: old.inputs, oldOutputs: old.outputs } : {};
}
