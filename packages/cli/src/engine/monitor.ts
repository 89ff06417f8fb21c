// The ResourceMonitor and Engine gRPC services the program (and the plugins, for Engine.Log) talk
// to, on one loopback port. Transport only: every decision is the Deployment's.
import * as grpc from '@grpc/grpc-js';
import { Empty } from 'google-protobuf/google/protobuf/empty_pb';
import { EngineService } from '@pulumi/pulumi/proto/engine_grpc_pb';
import * as engine from '@pulumi/pulumi/proto/engine_pb';
import * as provider from '@pulumi/pulumi/proto/provider_pb';
import { ResourceMonitorService } from '@pulumi/pulumi/proto/resource_grpc_pb';
import * as resource from '@pulumi/pulumi/proto/resource_pb';
import { StepError, type AliasSpec, type Deployment, type Registration } from './deployment';
import type { EventSink } from './events';
import { trace } from './trace';
import { fromStruct, parseDuration, stripSecrets, toStruct, type Props } from './values';

/** Features this monitor implements (SupportsFeature). Resource references and output values are not decoded. */
const features = new Set(['secrets', 'aliasSpecs', 'deletedWith', 'replaceWith']);

type Handler = grpc.UntypedHandleCall;

function unary<Req, Res>(fn: (req: Req) => Promise<Res> | Res): Handler {
  return ((call: grpc.ServerUnaryCall<Req, Res>, cb: grpc.sendUnaryData<Res>) => {
    Promise.resolve()
      .then(() => fn(call.request))
      .then(
        (res) => cb(null, res),
        (e: unknown) => cb({ code: grpc.status.UNKNOWN, details: e instanceof Error ? e.message : String(e) }, null),
      );
  }) as unknown as Handler;
}

function unimplemented(name: string): Handler {
  return ((_call: unknown, cb: grpc.sendUnaryData<never>) =>
    cb({ code: grpc.status.UNIMPLEMENTED, details: `${name} is not implemented by ocikit` }, null)) as Handler;
}

function registration(req: resource.RegisterResourceRequest): Registration {
  const propertyDependencies: Record<string, string[]> = {};
  req.getPropertydependenciesMap().forEach((v, k) => {
    propertyDependencies[k] = v.getUrnsList();
  });
  const t = req.getCustomtimeouts();
  const timeouts = t
    ? {
        create: parseDuration(t.getCreate()),
        update: parseDuration(t.getUpdate()),
        delete: parseDuration(t.getDelete()),
      }
    : undefined;
  const hasTimeouts = timeouts && Object.values(timeouts).some((v) => v !== undefined);
  return {
    type: req.getType(),
    name: req.getName(),
    parent: req.getParent(),
    custom: req.getCustom(),
    inputs: fromStruct(req.getObject()),
    provider: req.getProvider(),
    version: req.getVersion(),
    dependencies: req.getDependenciesList(),
    propertyDependencies,
    protect: req.hasProtect() ? req.getProtect() : undefined,
    retainOnDelete: req.hasRetainondelete() ? req.getRetainondelete() : undefined,
    deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined,
    ignoreChanges: req.getIgnorechangesList(),
    replaceOnChanges: req.getReplaceonchangesList(),
    additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
    customTimeouts: hasTimeouts ? JSON.parse(JSON.stringify(timeouts)) : undefined,
    importId: req.getImportid(),
    ...engineOptions(req),
  };
}

/** aliases (spec and URN forms), deletedWith, replaceWith and replacementTrigger (the step generator's rules). */
function engineOptions(req: resource.RegisterResourceRequest): Partial<Registration> {
  const aliases: AliasSpec[] = req.getAliasurnsList().map((urn) => ({ urn }));
  for (const a of req.getAliasesList()) {
    if (a.hasUrn()) aliases.push({ urn: a.getUrn() });
    const s = a.getSpec();
    if (!s) continue;
    aliases.push({
      name: s.getName() || undefined,
      type: s.getType() || undefined,
      stack: s.getStack() || undefined,
      project: s.getProject() || undefined,
      parentUrn: s.getParenturn() || undefined,
      noParent: s.getNoparent() || undefined,
    });
  }
  const trigger = req.getReplacementTrigger();
  return {
    ...(aliases.length ? { aliases } : {}),
    ...(req.getDeletedwith() ? { deletedWith: req.getDeletedwith() } : {}),
    ...(req.getReplaceWithList().length ? { replaceWith: req.getReplaceWithList() } : {}),
    ...(trigger ? { replacementTrigger: trigger.toJavaScript() } : {}),
  };
}

/** Outgoing outputs: secrets only to a program that said it accepts them. */
function outgoing(props: Props, acceptSecrets: boolean): ReturnType<typeof toStruct> {
  return toStruct(acceptSecrets ? props : (stripSecrets(props) as Props));
}

export interface MonitorServer {
  address: string;
  close(): Promise<void>;
}

export async function startMonitor(deployment: () => Deployment, events: EventSink): Promise<MonitorServer> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': 400 * 1024 * 1024,
    'grpc.max_send_message_length': 400 * 1024 * 1024,
  });
  let root = '';
  server.addService(ResourceMonitorService, {
    getDeploymentInfo: unimplemented('GetDeploymentInfo'),
    supportsFeature: unary((req: resource.SupportsFeatureRequest) =>
      new resource.SupportsFeatureResponse().setHassupport(features.has(req.getId())),
    ),
    registerResource: unary(async (req: resource.RegisterResourceRequest) => {
      trace.mark('first RegisterResource');
      trace.mark('last RegisterResource', true);
      const reg = registration(req);
      const d = deployment();
      const outcome = reg.type.startsWith('pulumi:providers:')
        ? await d.registerProvider(reg)
        : reg.custom
          ? await d.registerCustom(reg)
          : d.registerComponent(reg);
      const res = new resource.RegisterResourceResponse();
      res.setUrn(outcome.urn);
      res.setId(outcome.id);
      res.setObject(outgoing(outcome.outputs, req.getAcceptsecrets()));
      trace.mark('last RegisterResource answered', true);
      return res;
    }),
    registerResourceOutputs: unary((req: resource.RegisterResourceOutputsRequest) => {
      deployment().registerOutputs(req.getUrn(), fromStruct(req.getOutputs()));
      return new Empty();
    }),
    readResource: unary(async (req: resource.ReadResourceRequest) => {
      const outcome = await deployment().readResource({
        type: req.getType(),
        name: req.getName(),
        parent: req.getParent(),
        custom: true,
        id: req.getId(),
        inputs: fromStruct(req.getProperties()),
        provider: req.getProvider(),
        version: req.getVersion(),
        dependencies: req.getDependenciesList(),
        propertyDependencies: {},
        ignoreChanges: [],
        replaceOnChanges: [],
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        importId: '',
      });
      const res = new resource.ReadResourceResponse();
      res.setUrn(outcome.urn);
      res.setProperties(outgoing(outcome.outputs, req.getAcceptsecrets()));
      return res;
    }),
    invoke: unary(async (req: resource.ResourceInvokeRequest) => {
      const res = new provider.InvokeResponse();
      try {
        const out = await deployment().invoke(
          req.getTok(),
          fromStruct(req.getArgs()),
          req.getProvider(),
          req.getVersion(),
        );
        res.setReturn(toStruct(out.result));
        res.setFailuresList(
          out.failures.map((f) => new provider.CheckFailure().setProperty(f.property).setReason(f.reason)),
        );
      } catch (e) {
        if (e instanceof StepError) throw e;
        // An invoke error is the program's to report (it fails the call that made it).
        throw new Error(`invoking ${req.getTok()}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      return res;
    }),
    call: unimplemented('Call'),
    registerStackTransform: unimplemented('RegisterStackTransform'),
    registerStackInvokeTransform: unimplemented('RegisterStackInvokeTransform'),
    registerResourceHook: unimplemented('RegisterResourceHook'),
    registerErrorHook: unimplemented('RegisterErrorHook'),
    registerPackage: unimplemented('RegisterPackage'),
    // Every RegisterResource is answered only once its step is done, so nothing is outstanding here.
    signalAndWaitForShutdown: unary(() => new Empty()),
  });
  server.addService(EngineService, {
    log: unary((req: engine.LogRequest) => {
      const severity = (['debug', 'info', 'warning', 'error'] as const)[req.getSeverity()] ?? 'info';
      if (severity !== 'debug') events.diag(severity, req.getMessage(), req.getUrn() || undefined, req.getEphemeral());
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
        server.tryShutdown(() => resolve());
        setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2000).unref();
      }),
  };
}
