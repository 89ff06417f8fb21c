// Transforms: the `transforms` resource option, `pulumi.runtime.registerResourceTransform` and
// `registerInvokeTransform`. A transform is a function in the program; the program serves it on
// its own callback server and sends the engine a reference (target address + token). The engine
// calls it before it decides anything about a registration, as Pulumi's resource monitor does
// (pkg/resource/deploy/source_eval.go, RegisterResource and Invoke):
// - a resource's own transforms first, then each ancestor's (nearest first), then the stack's,
//   each seeing what the previous one returned;
// - a transform may change the properties and the options, not the name, type or parent;
// - only a resource's own transforms make the engine re-read its dependencies from the options
//   (`dependsOn`), and properties come back as plain values, so property dependencies are dropped;
// - reads (`Resource.get`) and default providers are not transformed; invokes are, by the
//   stack's invoke transforms.
// The transforms work on the RegisterResourceRequest as the codec decoded it, so the rest of
// the engine sees an ordinary registration.
import { Struct, Value } from 'google-protobuf/google/protobuf/struct_pb';
import { Alias } from '@pulumi/pulumi/proto/alias_pb';
import type { Callback } from '@pulumi/pulumi/proto/callback_pb';
import {
  RegisterResourceRequest,
  TransformInvokeOptions,
  TransformInvokeRequest,
  TransformInvokeResponse,
  TransformRequest,
  TransformResourceOptions,
  TransformResponse,
} from '@pulumi/pulumi/proto/resource_pb';
import { Callbacks, callbackRef, type CallbackRef } from './callbacks';
import { hooksMessage, hooksProto, type HookBindingMessage } from './hooks';
import type { Props } from './values';

interface AliasMessage {
  urn: string;
  spec?: { name: string; type: string; stack: string; project: string; parentUrn: string; noParent: boolean };
}

export class Transforms {
  private readonly callbacks = new Callbacks();
  private readonly stack: CallbackRef[] = [];
  private readonly invokes: CallbackRef[] = [];
  /** Each registered resource's own transforms, and its parent (for its children's registrations). */
  private readonly own = new Map<string, CallbackRef[]>();
  private readonly parents = new Map<string, string>();

  registerStackTransform(cb: Callback): void {
    this.stack.push(callbackRef(cb));
  }

  registerStackInvokeTransform(cb: Callback): void {
    this.invokes.push(callbackRef(cb));
  }

  /** The transforms that apply to a registration, in the order they run. */
  private chain(req: Props): CallbackRef[] {
    const chain = [...(req.transforms as CallbackRef[])];
    for (let p = req.parent as string; p; p = this.parents.get(p) ?? '') chain.push(...(this.own.get(p) ?? []));
    return chain.concat(this.stack);
  }

  /** True when some transform applies (a registration without any skips every conversion). */
  applies(req: Props): boolean {
    return this.chain(req).length > 0;
  }

  /** The registration request after every transform that applies to it. */
  async apply(req: Props): Promise<Props> {
    let props = Struct.fromJavaScript(req.object as never);
    let options = toOptions(req);
    for (const cb of this.chain(req)) {
      const request = new TransformRequest()
        .setName(req.name as string)
        .setType(req.type as string)
        .setCustom(req.custom as boolean)
        .setParent(req.parent as string)
        .setProperties(props)
        .setOptions(options);
      const response = TransformResponse.deserializeBinary(await this.call(cb, request.serializeBinary()));
      props = response.getProperties() ?? props;
      options = response.getOptions() ?? options;
    }
    return fromOptions(req, props.toJavaScript() as Props, options);
  }

  /** Records a registered resource's own transforms and parent, for its children. */
  registered(urn: string, req: Props): void {
    this.parents.set(urn, req.parent as string);
    if ((req.transforms as CallbackRef[]).length) this.own.set(urn, req.transforms as CallbackRef[]);
  }

  /** An invoke's arguments and options after the stack's invoke transforms. */
  async applyInvoke(req: Props): Promise<Props> {
    if (!this.invokes.length) return req;
    let args = Struct.fromJavaScript(req.args as never);
    let options = new TransformInvokeOptions()
      .setProvider(req.provider as string)
      .setVersion(req.version as string)
      .setPluginDownloadUrl((req.pluginDownloadURL as string) ?? '');
    for (const cb of this.invokes) {
      const request = new TransformInvokeRequest()
        .setToken(req.tok as string)
        .setArgs(args)
        .setOptions(options);
      const response = TransformInvokeResponse.deserializeBinary(await this.call(cb, request.serializeBinary()));
      args = response.getArgs() ?? args;
      options = response.getOptions() ?? options;
    }
    return {
      ...req,
      args: args.toJavaScript(),
      provider: options.getProvider(),
      version: options.getVersion(),
      pluginDownloadURL: options.getPluginDownloadUrl(),
    };
  }

  private call(cb: CallbackRef, request: Uint8Array): Promise<Uint8Array> {
    return this.callbacks.call(cb, request);
  }

  close(): void {
    this.callbacks.close();
  }
}

/** The options a transform sees (Pulumi builds the same TransformResourceOptions from the request). */
function toOptions(req: Props): TransformResourceOptions {
  const o = new TransformResourceOptions()
    .setDependsOnList(req.dependencies as string[])
    .setIgnoreChangesList(req.ignoreChanges as string[])
    .setReplaceOnChangesList(req.replaceOnChanges as string[])
    .setVersion(req.version as string)
    .setProvider(req.provider as string)
    .setPluginDownloadUrl((req.pluginDownloadURL as string) ?? '')
    .setDeletedWith(req.deletedWith as string)
    .setAdditionalSecretOutputsList(req.additionalSecretOutputs as string[])
    .setImport(req.importId as string)
    .setReplaceWithList(req.replaceWith as string[]);
  const aliases = (req.aliasURNs as string[]).map((urn) => new Alias().setUrn(urn));
  for (const a of req.aliases as AliasMessage[]) aliases.push(toAlias(a));
  o.setAliasesList(aliases);
  if (req.protect !== undefined) o.setProtect(req.protect as boolean);
  if (req.retainOnDelete !== undefined) o.setRetainOnDelete(req.retainOnDelete as boolean);
  if (req.deleteBeforeReplaceDefined || req.deleteBeforeReplace) o.setDeleteBeforeReplace(!!req.deleteBeforeReplace);
  const t = req.customTimeouts as { create: string; update: string; delete: string } | undefined;
  if (t)
    o.setCustomTimeouts(
      new RegisterResourceRequest.CustomTimeouts().setCreate(t.create).setUpdate(t.update).setDelete(t.delete),
    );
  if (req.replacementTrigger !== undefined)
    o.setReplacementTrigger(Value.fromJavaScript(req.replacementTrigger as never));
  const providers = o.getProvidersMap();
  for (const [pkg, ref] of Object.entries((req.providers as Record<string, string>) ?? {})) providers.set(pkg, ref);
  if (req.hooks) o.setHooks(hooksProto(req.hooks as HookBindingMessage));
  return o;
}

function toAlias(a: AliasMessage): Alias {
  if (!a.spec) return new Alias().setUrn(a.urn);
  const spec = new Alias.Spec()
    .setName(a.spec.name)
    .setType(a.spec.type)
    .setStack(a.spec.stack)
    .setProject(a.spec.project);
  if (a.spec.noParent) spec.setNoparent(true);
  else if (a.spec.parentUrn) spec.setParenturn(a.spec.parentUrn);
  return new Alias().setSpec(spec);
}

function fromAlias(a: Alias): AliasMessage {
  const s = a.getSpec();
  if (!s) return { urn: a.getUrn() };
  return {
    urn: '',
    spec: {
      name: s.getName(),
      type: s.getType(),
      stack: s.getStack(),
      project: s.getProject(),
      parentUrn: s.getParenturn(),
      noParent: s.getNoparent(),
    },
  };
}

/** The registration request with the transformed properties and options. */
function fromOptions(req: Props, object: Props, o: TransformResourceOptions): Props {
  const t = o.getCustomTimeouts();
  const ownTransforms = (req.transforms as CallbackRef[]).length > 0;
  return {
    ...req,
    object,
    // Pulumi re-reads dependencies only after a resource's own transforms; the properties come
    // back as plain values, so no property carries its dependencies any more.
    ...(ownTransforms ? { dependencies: o.getDependsOnList(), propertyDependencies: {} } : {}),
    protect: o.hasProtect() ? o.getProtect() : undefined,
    ignoreChanges: o.getIgnoreChangesList(),
    replaceOnChanges: o.getReplaceOnChangesList(),
    version: o.getVersion(),
    provider: o.getProvider(),
    pluginDownloadURL: o.getPluginDownloadUrl(),
    aliasURNs: [],
    aliases: o.getAliasesList().map(fromAlias),
    customTimeouts: t ? { create: t.getCreate(), update: t.getUpdate(), delete: t.getDelete() } : undefined,
    retainOnDelete: o.hasRetainOnDelete() ? o.getRetainOnDelete() : undefined,
    deletedWith: o.getDeletedWith(),
    deleteBeforeReplaceDefined: o.hasDeleteBeforeReplace(),
    deleteBeforeReplace: o.getDeleteBeforeReplace() ?? false,
    additionalSecretOutputs: o.getAdditionalSecretOutputsList(),
    importId: req.custom ? o.getImport() : req.importId,
    replaceWith: o.getReplaceWithList(),
    replacementTrigger: o.hasReplacementTrigger() ? o.getReplacementTrigger()!.toJavaScript() : undefined,
    providers: providersOf(o),
    hooks: o.hasHooks() ? hooksMessage(o.getHooks()!) : undefined,
  };
}

function providersOf(o: TransformResourceOptions): Record<string, string> {
  const providers: Record<string, string> = {};
  o.getProvidersMap().forEach((ref, pkg) => (providers[pkg] = ref));
  return providers;
}
