// The ResourceMonitor and Engine gRPC services the program (and the plugins, for Engine.Log) talk
// to, on one loopback port. Transport only: every decision is the Deployment's.
import * as grpc from '@grpc/grpc-js';
import { Empty } from 'google-protobuf/google/protobuf/empty_pb';
import { engineCodec, type EngineMessage } from '@ocikit/pulumi-resource-oci';
import { EngineService } from '@pulumi/pulumi/proto/engine_grpc_pb';
import * as engine from '@pulumi/pulumi/proto/engine_pb';
import type { Callback } from '@pulumi/pulumi/proto/callback_pb';
import { ResourceMonitorService } from '@pulumi/pulumi/proto/resource_grpc_pb';
import type { RegisterErrorHookRequest, RegisterResourceHookRequest } from '@pulumi/pulumi/proto/resource_pb';
import type { Deployment } from './deployment';
import type { EventSink } from './events';
import { hookBinding, type HookBindingMessage } from './hooks';
import type { AliasSpec, Registration, StepOutcome } from './registration';
import { ContinuedStepError, StepError } from './step-errors';
import { trace } from './trace';
import { sourcePosition, type SourcePositionMessage } from './source-position';
import { Transforms } from './transforms';
import { parseDuration, stripSecrets, type Props } from './values';

/**
 * Features this monitor implements (SupportsFeature). Resource references and output values are
 * not decoded.
 */
const features = new Set([
  'secrets',
  'aliasSpecs',
  'deletedWith',
  'replaceWith',
  'transforms',
  'invokeTransforms',
  'resourceHooks',
  'errorHooks',
]);

type Handler = grpc.UntypedHandleCall;

/**
 * The answer to a registration of a run that has failed or was canceled, the engine having
 * reported why: Pulumi's resource monitor answers UNAVAILABLE with these words, and the program's
 * SDK then stops its RPCs instead of reporting the error a second time.
 */
class MonitorShutDown extends Error {
  constructor() {
    super("resource monitor shut down while waiting on step's done channel");
  }
}

function unary<Req, Res>(fn: (req: Req) => Promise<Res> | Res): Handler {
  return ((call: grpc.ServerUnaryCall<Req, Res>, cb: grpc.sendUnaryData<Res>) => {
    Promise.resolve()
      .then(() => fn(call.request))
      .then(
        (res) => cb(null, res),
        (e: unknown) =>
          cb(
            {
              code: e instanceof MonitorShutDown ? grpc.status.UNAVAILABLE : grpc.status.UNKNOWN,
              details: e instanceof Error ? e.message : String(e),
            },
            null,
          ),
      );
  }) as unknown as Handler;
}

/** What a failed registration answers: UNAVAILABLE once the run has failed or was canceled (see MonitorShutDown). */
function registrationError(d: Deployment, e: unknown): unknown {
  const reported = d.failures.registrationFailed(e);
  return d.failures.failure || d.canceled ? new MonitorShutDown() : reported;
}

function unimplemented(name: string): Handler {
  return ((_call: unknown, cb: grpc.sendUnaryData<never>) =>
    cb({ code: grpc.status.UNIMPLEMENTED, details: `${name} is not implemented by ocikit` }, null)) as Handler;
}

/**
 * A ResourceMonitor method whose messages are plain objects, encoded by the provider package's
 * wire codec (the layouts are checked against the stubs in its rpc.test.ts): the
 * program's registrations and their answers are the engine's largest messages, and
 * google-protobuf's generated classes cost more CPU than the engine's own work on them.
 */
function plainMethod<T extends object>(def: T, req: EngineMessage, res: EngineMessage): T {
  const rq = engineCodec(req);
  const rs = engineCodec(res);
  return {
    ...def,
    requestSerialize: rq.serialize,
    requestDeserialize: rq.deserialize,
    responseSerialize: rs.serialize,
    responseDeserialize: rs.deserialize,
  };
}

const monitorService: grpc.ServiceDefinition = {
  ...ResourceMonitorService,
  supportsFeature: plainMethod(
    ResourceMonitorService.supportsFeature,
    'SupportsFeatureRequest',
    'SupportsFeatureResponse',
  ),
  registerResource: plainMethod(
    ResourceMonitorService.registerResource,
    'RegisterResourceRequest',
    'RegisterResourceResponse',
  ),
  registerResourceOutputs: plainMethod(
    ResourceMonitorService.registerResourceOutputs,
    'RegisterResourceOutputsRequest',
    'Empty',
  ),
  readResource: plainMethod(ResourceMonitorService.readResource, 'ReadResourceRequest', 'ReadResourceResponse'),
  invoke: plainMethod(ResourceMonitorService.invoke, 'ResourceInvokeRequest', 'InvokeResponse'),
};

interface AliasMessage {
  urn: string;
  spec?: { name: string; type: string; stack: string; project: string; parentUrn: string; noParent: boolean };
}

function registration(req: Props, projectRoot: string): Registration {
  const propertyDependencies: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(req.propertyDependencies as Record<string, { urns: string[] } | undefined>))
    propertyDependencies[k] = v?.urns ?? [];
  const t = req.customTimeouts as { create: string; update: string; delete: string } | undefined;
  const timeouts = t
    ? { create: parseDuration(t.create), update: parseDuration(t.update), delete: parseDuration(t.delete) }
    : undefined;
  const hasTimeouts = timeouts && Object.values(timeouts).some((v) => v !== undefined);
  return {
    type: req.type as string,
    name: req.name as string,
    parent: req.parent as string,
    custom: req.custom as boolean,
    inputs: req.object as Props,
    provider: req.provider as string,
    version: req.version as string,
    pluginDownloadURL: (req.pluginDownloadURL as string) || undefined,
    hideDiffs: req.hideDiffs as string[] | undefined,
    dependencies: req.dependencies as string[],
    propertyDependencies,
    protect: req.protect as boolean | undefined,
    retainOnDelete: req.retainOnDelete as boolean | undefined,
    deleteBeforeReplace: req.deleteBeforeReplaceDefined ? (req.deleteBeforeReplace as boolean) : undefined,
    ignoreChanges: req.ignoreChanges as string[],
    replaceOnChanges: req.replaceOnChanges as string[],
    additionalSecretOutputs: req.additionalSecretOutputs as string[],
    customTimeouts: hasTimeouts ? JSON.parse(JSON.stringify(timeouts)) : undefined,
    importId: req.importId as string,
    sourcePosition: sourcePosition(req.sourcePosition as SourcePositionMessage | undefined, projectRoot),
    ...engineOptions(req),
  };
}

/** aliases (spec and URN forms), deletedWith, replaceWith and replacementTrigger (the step generator's rules). */
function engineOptions(req: Props): Partial<Registration> {
  const aliases: AliasSpec[] = (req.aliasURNs as string[]).map((urn) => ({ urn }));
  for (const a of req.aliases as AliasMessage[]) {
    if (a.urn) aliases.push({ urn: a.urn });
    const s = a.spec;
    if (!s) continue;
    aliases.push({
      name: s.name || undefined,
      type: s.type || undefined,
      stack: s.stack || undefined,
      project: s.project || undefined,
      parentUrn: s.parentUrn || undefined,
      noParent: s.noParent || undefined,
    });
  }
  const replaceWith = req.replaceWith as string[];
  const hooks = hookBinding(req.hooks as HookBindingMessage | undefined);
  return {
    ...(hooks ? { hooks } : {}),
    ...(aliases.length ? { aliases } : {}),
    ...(req.deletedWith ? { deletedWith: req.deletedWith as string } : {}),
    ...(replaceWith.length ? { replaceWith } : {}),
    ...(req.replacementTrigger !== undefined ? { replacementTrigger: req.replacementTrigger } : {}),
  };
}

/** Outgoing outputs: secrets only to a program that said it accepts them. */
function outgoing(props: Props, acceptSecrets: unknown): Props {
  return acceptSecrets ? props : (stripSecrets(props) as Props);
}

export interface MonitorServer {
  address: string;
  close(): Promise<void>;
}

/**
 * `shutdown` answers the program's SignalAndWaitForShutdown (its program has ended): the program
 * stays up, serving its callbacks, until it resolves.
 */
export async function startMonitor(
  deployment: () => Deployment,
  events: EventSink,
  shutdown: () => Promise<void> = async () => undefined,
): Promise<MonitorServer> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': 400 * 1024 * 1024,
    'grpc.max_send_message_length': 400 * 1024 * 1024,
  });
  let root = '';
  const transforms = new Transforms();
  server.addService(monitorService, {
    getDeploymentInfo: unimplemented('GetDeploymentInfo'),
    supportsFeature: unary((req: Props) => ({ hasSupport: features.has(req.id as string) })),
    registerResource: unary(async (request: Props) => {
      trace.mark('first RegisterResource');
      trace.mark('last RegisterResource', true);
      const d = deployment();
      let req = request;
      if (transforms.applies(req)) {
        try {
          req = await transforms.apply(req);
        } catch (e) {
          const urn = d.urn(req.type as string, req.name as string, req.parent as string);
          throw registrationError(d, new Error(`${urn}: ${e instanceof Error ? e.message : String(e)}`));
        }
      }
      const reg = registration(req, d.projectRoot);
      // Where the engine's part of an update starts (the bench's breakdown): the Stack and
      // components come first, the program's custom resources once its synchronous code is done.
      if (reg.custom) trace.mark('first custom RegisterResource');
      let outcome: StepOutcome;
      try {
        outcome = reg.type.startsWith('pulumi:providers:')
          ? await d.registerProvider(reg)
          : reg.custom
            ? await d.registerCustom(reg)
            : await d.registerComponent(reg);
      } catch (e) {
        if (!(e instanceof ContinuedStepError)) throw registrationError(d, e);
        outcome = d.failedRegistration(reg);
      }
      transforms.registered(outcome.urn, req);
      trace.mark('last RegisterResource answered', true);
      return {
        urn: outcome.urn,
        id: outcome.id,
        object: outgoing(outcome.outputs, req.acceptSecrets),
        // pulumirpc.Result: the SDK keeps the outputs of a failed or skipped step unknown.
        result: outcome.result === 'fail' ? 1 : outcome.result === 'skip' ? 2 : 0,
      };
    }),
    registerResourceOutputs: unary(async (req: Props) => {
      const d = deployment();
      try {
        await d.registerOutputs(req.urn as string, req.outputs as Props);
      } catch (e) {
        // --continue-on-error: a component's failed after hook is reported; the program goes on.
        if (!(e instanceof ContinuedStepError)) throw registrationError(d, e);
      }
      return {};
    }),
    readResource: unary(async (req: Props) => {
      const d = deployment();
      let outcome: StepOutcome;
      const reg = {
        type: req.type as string,
        name: req.name as string,
        parent: req.parent as string,
        custom: true,
        id: req.id as string,
        inputs: req.properties as Props,
        provider: req.provider as string,
        version: req.version as string,
        pluginDownloadURL: (req.pluginDownloadURL as string) || undefined,
        dependencies: req.dependencies as string[],
        propertyDependencies: {},
        ignoreChanges: [],
        replaceOnChanges: [],
        additionalSecretOutputs: req.additionalSecretOutputs as string[],
        importId: '',
        sourcePosition: sourcePosition(req.sourcePosition as SourcePositionMessage | undefined, d.projectRoot),
      };
      try {
        outcome = await d.readResource(reg);
      } catch (e) {
        if (!(e instanceof ContinuedStepError)) throw registrationError(d, e);
        // --continue-on-error: as Pulumi's resource monitor answers a failed read (ReadStep.Fail),
        // with its URN and no outputs; the SDK resolves them as undefined.
        outcome = d.failedRegistration(reg);
      }
      return { urn: outcome.urn, properties: outgoing(outcome.outputs, req.acceptSecrets) };
    }),
    invoke: unary(async (request: Props) => {
      const tok = request.tok as string;
      try {
        const req = await transforms.applyInvoke(request);
        const out = await deployment().invoke(
          tok,
          req.args as Props,
          req.provider as string,
          req.version as string,
          req.pluginDownloadURL as string,
        );
        return { return: out.result, failures: out.failures };
      } catch (e) {
        if (e instanceof StepError) throw e;
        // An invoke error is the program's to report (it fails the call that made it).
        throw new Error(`invoking ${tok}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
    }),
    call: unimplemented('Call'),
    registerStackTransform: unary((cb: Callback) => {
      transforms.registerStackTransform(cb);
      return new Empty();
    }),
    registerStackInvokeTransform: unary((cb: Callback) => {
      transforms.registerStackInvokeTransform(cb);
      return new Empty();
    }),
    registerResourceHook: unary((req: RegisterResourceHookRequest) => {
      deployment().hooks.register(req);
      return new Empty();
    }),
    registerErrorHook: unary((req: RegisterErrorHookRequest) => {
      deployment().hooks.registerErrorHook(req);
      return new Empty();
    }),
    registerPackage: unimplemented('RegisterPackage'),
    // Every RegisterResource is answered only once its step is done; what may remain are the
    // deletes, which wait here when they may call the program's hooks (see runEngine).
    signalAndWaitForShutdown: unary(async () => {
      await shutdown();
      return new Empty();
    }),
  });
  server.addService(EngineService, {
    log: unary((req: engine.LogRequest) => {
      const severity = (['debug', 'info', 'warning', 'error'] as const)[req.getSeverity()] ?? 'info';
      if (severity !== 'debug' || events.debug)
        events.diag(severity, req.getMessage(), req.getUrn() || undefined, req.getEphemeral());
      return new Empty();
    }),
    getRootResource: unary(() => new engine.GetRootResourceResponse().setUrn(root)),
    setRootResource: unary((req: engine.SetRootResourceRequest) => {
      root = req.getUrn();
      return new engine.SetRootResourceResponse();
    }),
    startDebugging: unimplemented('StartDebugging'),
    requirePulumiVersion: unary(() => new engine.RequirePulumiVersionResponse()),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        transforms.close();
        server.tryShutdown(() => resolve());
        setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2000).unref();
      }),
  };
}
