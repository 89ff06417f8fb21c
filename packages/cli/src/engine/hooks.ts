// Resource hooks: the `hooks` resource option and `new pulumi.ResourceHook(name, fn, opts)`. The
// program registers each hook by name (RegisterResourceHook: its callback, `onDryRun`,
// `ignoreErrors`) and binds names to a resource in its registration (ResourceHooksBinding); the
// state keeps the binding so a hook still runs when the resource is deleted after the program no
// longer declares it. The engine calls a hook through the program's callback server around the
// provider operation, as Pulumi's steps do (pkg/resource/deploy step.go, Deployment.RunHooks):
// - before_create / after_create around Create (a replacement's create included), before_update /
//   after_update around Update, before_delete / after_delete around Delete (a replacement's
//   delete, a removed resource's, a destroy's; retainOnDelete and deletedWith resources too);
// - a component's before hooks run at its registration and its after hooks when it registers its
//   outputs (the engine does not otherwise know when a component is done); its delete hooks run
//   at its delete;
// - in a preview only hooks registered with `onDryRun` run;
// - a failing before hook fails the step before the provider is called; a failing after hook
//   fails it after the result is recorded in the state (Pulumi since 3.238.0); with
//   `ignoreErrors` either is a warning and the step goes on;
// - a hook the state names but the program did not register fails the step.
// Error hooks (`onError: [new pulumi.ErrorHook(name, fn)]`, RegisterErrorHook) are asked after a
// create, update or delete fails whether to try it again (Pulumi's withRetries, error_hooks.go):
// they get the errors so far, newest first; the operation is tried again while a hook answers
// true, at most 100 times in all. With several hooks bound, ocikit tries again when any of them
// says so (each hook sees every failure either way). A failure that left a resource behind (a
// partial failure: created but not initialised) is not retried, as a second create would make
// a second resource. Previews make no provider calls that fail this way, so no error hook runs.
import { Struct } from 'google-protobuf/google/protobuf/struct_pb';
import {
  ErrorHookRequest,
  ErrorHookResponse,
  RegisterResourceRequest,
  ResourceHookRequest,
  ResourceHookResponse,
  type RegisterErrorHookRequest,
  type RegisterResourceHookRequest,
} from '@pulumi/pulumi/proto/resource_pb';
import { Callbacks, callbackRef, type CallbackRef } from './callbacks';
import type { Props } from './values';

/** Hook types as the checkpoint keys them (resource.HookType). */
export type HookType =
  'before_create' | 'after_create' | 'before_update' | 'after_update' | 'before_delete' | 'after_delete' | 'on_error';

/** A resource's hook names by type, as the checkpoint records them (ResourceV3.resourceHooks). */
export type HookBinding = Partial<Record<HookType, string[]>>;

/** RegisterResourceRequest.ResourceHooksBinding as the engine codec decodes it. */
export interface HookBindingMessage {
  beforeCreate: string[];
  afterCreate: string[];
  beforeUpdate: string[];
  afterUpdate: string[];
  beforeDelete: string[];
  afterDelete: string[];
  onError: string[];
}

const messageKeys: Array<[keyof HookBindingMessage, HookType]> = [
  ['beforeCreate', 'before_create'],
  ['afterCreate', 'after_create'],
  ['beforeUpdate', 'before_update'],
  ['afterUpdate', 'after_update'],
  ['beforeDelete', 'before_delete'],
  ['afterDelete', 'after_delete'],
  ['onError', 'on_error'],
];

/** The binding a registration carries, as the state records it (undefined when it binds none). */
export function hookBinding(m: HookBindingMessage | undefined): HookBinding | undefined {
  if (!m) return undefined;
  const out: HookBinding = {};
  for (const [key, type] of messageKeys) if (m[key]?.length) out[type] = [...m[key]];
  return Object.keys(out).length ? out : undefined;
}

/** The binding as a transform sees it in its options (TransformResourceOptions.hooks). */
export function hooksProto(m: HookBindingMessage): RegisterResourceRequest.ResourceHooksBinding {
  return new RegisterResourceRequest.ResourceHooksBinding()
    .setBeforeCreateList(m.beforeCreate)
    .setAfterCreateList(m.afterCreate)
    .setBeforeUpdateList(m.beforeUpdate)
    .setAfterUpdateList(m.afterUpdate)
    .setBeforeDeleteList(m.beforeDelete)
    .setAfterDeleteList(m.afterDelete)
    .setOnErrorList(m.onError);
}

/** What a transform returned, back in the codec's form. */
export function hooksMessage(b: RegisterResourceRequest.ResourceHooksBinding): HookBindingMessage {
  return {
    beforeCreate: b.getBeforeCreateList(),
    afterCreate: b.getAfterCreateList(),
    beforeUpdate: b.getBeforeUpdateList(),
    afterUpdate: b.getAfterUpdateList(),
    beforeDelete: b.getBeforeDeleteList(),
    afterDelete: b.getAfterDeleteList(),
    onError: b.getOnErrorList(),
  };
}

/** What a hook receives (ResourceHookRequest); which inputs and outputs are set depends on the type. */
export interface HookArgs {
  urn: string;
  id: string;
  name: string;
  type: string;
  newInputs?: Props;
  oldInputs?: Props;
  newOutputs?: Props;
  oldOutputs?: Props;
}

interface Hook {
  callback: CallbackRef;
  onDryRun: boolean;
  ignoreErrors: boolean;
}

/** A hook that failed the step; the message is one line, without the resource. */
export class HookError extends Error {}

/** What an error hook receives (ErrorHookRequest): the failed operation and the errors so far, newest first. */
export interface ErrorHookArgs extends Omit<HookArgs, 'newOutputs'> {
  failedOperation: 'create' | 'update' | 'delete';
  errors: string[];
}

/** Pulumi's limit on the attempts error hooks may ask for (retries.go, maxErrorHookRetries). */
export const MAX_ERROR_HOOK_ATTEMPTS = 100;

export class ResourceHooks {
  private readonly hooks = new Map<string, Hook>();
  private readonly errorHooks = new Map<string, CallbackRef>();
  private readonly callbacks = new Callbacks();

  constructor(private readonly o: { dryRun: boolean; warn(message: string, urn: string): void }) {}

  /** RegisterResourceHook: names are unique in a run (resource_hooks.go). */
  register(req: RegisterResourceHookRequest): void {
    const name = req.getName();
    if (!name) throw new Error('resource hook name cannot be empty');
    if (this.hooks.has(name)) throw new Error(`resource hook already registered for name "${name}"`);
    const cb = req.getCallback();
    if (!cb) throw new Error(`resource hook "${name}" has no callback`);
    this.hooks.set(name, {
      callback: callbackRef(cb),
      onDryRun: req.getOnDryRun(),
      ignoreErrors: req.getIgnoreErrors(),
    });
  }

  /** RegisterErrorHook: error hooks have their own names (error_hooks.go). */
  registerErrorHook(req: RegisterErrorHookRequest): void {
    const name = req.getName();
    if (!name) throw new Error('error hook name cannot be empty');
    if (this.errorHooks.has(name)) throw new Error(`error hook already registered for name "${name}"`);
    const cb = req.getCallback();
    if (!cb) throw new Error(`error hook "${name}" has no callback`);
    this.errorHooks.set(name, callbackRef(cb));
  }

  /** True once the program registered a hook (it then waits for the deletes, see runEngine). */
  get any(): boolean {
    return this.hooks.size > 0 || this.errorHooks.size > 0;
  }

  /**
   * Asks the error hooks bound to a resource whether to try its failed operation again: true
   * when any says so. A hook that fails (or is not registered) throws HookError.
   */
  async shouldRetry(binding: HookBinding | undefined, a: ErrorHookArgs): Promise<boolean> {
    let retry = false;
    for (const name of binding?.on_error ?? []) {
      const callback = this.errorHooks.get(name);
      if (!callback) throw new HookError(`error hook not registered for ${name}`);
      const req = new ErrorHookRequest()
        .setUrn(a.urn)
        .setId(a.id)
        .setName(a.name)
        .setType(a.type)
        .setFailedOperation(a.failedOperation)
        .setErrorsList(a.errors);
      setInputsAndOldOutputs(req, a);
      const res = await this.callbacks
        .call(callback, req.serializeBinary())
        .then((bytes) => ErrorHookResponse.deserializeBinary(bytes))
        .catch((e: unknown) => new ErrorHookResponse().setError(e instanceof Error ? e.message : String(e)));
      if (res.getError())
        throw new HookError(
          `error hook "${name}" failed: ${res
            .getError()
            .replace(/\s*\n\s*/g, ' ')
            .trim()}`,
        );
      retry = retry || res.getRetry();
    }
    return retry;
  }

  /**
   * Runs the hooks of one type bound to a resource, in their order. A failure throws HookError
   * (a hook with `ignoreErrors` is reported as a warning instead).
   */
  async run(type: HookType, binding: HookBinding | undefined, args: HookArgs): Promise<void> {
    const when = type.startsWith('before') ? 'before' : 'after';
    for (const name of binding?.[type] ?? []) {
      const hook = this.hooks.get(name);
      if (!hook) throw new HookError(`hook "${name}" was not registered`);
      if (this.o.dryRun && !hook.onDryRun) continue;
      const error = await this.call(hook, args).catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
      if (!error) continue;
      const message = `${when} hook "${name}" failed: ${error.replace(/\s*\n\s*/g, ' ').trim()}`;
      if (!hook.ignoreErrors) throw new HookError(message);
      this.o.warn(message, args.urn);
    }
  }

  /** The hook's error, or '' when it succeeded. */
  private async call(hook: Hook, a: HookArgs): Promise<string> {
    const req = new ResourceHookRequest().setUrn(a.urn).setId(a.id).setName(a.name).setType(a.type);
    setInputsAndOldOutputs(req, a);
    if (a.newOutputs) req.setNewOutputs(struct(a.newOutputs));
    const res = ResourceHookResponse.deserializeBinary(await this.callbacks.call(hook.callback, req.serializeBinary()));
    return res.getError();
  }

  close(): void {
    this.callbacks.close();
  }
}

const struct = (p: Props) => Struct.fromJavaScript(p as never);

/** The inputs and old outputs a hook request carries (ResourceHookRequest and ErrorHookRequest alike). */
function setInputsAndOldOutputs(
  req: { setNewInputs(v: Struct): unknown; setOldInputs(v: Struct): unknown; setOldOutputs(v: Struct): unknown },
  a: Pick<HookArgs, 'newInputs' | 'oldInputs' | 'oldOutputs'>,
): void {
  if (a.newInputs) req.setNewInputs(struct(a.newInputs));
  if (a.oldInputs) req.setOldInputs(struct(a.oldInputs));
  if (a.oldOutputs) req.setOldOutputs(struct(a.oldOutputs));
}
