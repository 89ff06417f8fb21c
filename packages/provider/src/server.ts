// pulumirpc.ResourceProvider on the @pulumi/pulumi/proto stubs (not provider.main, which drops
// configuration, preview, detailed diffs and crashes on import). RPCs not listed here answer
// UNIMPLEMENTED (grpc-js does that for methods without a handler).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import type * as pb from '@pulumi/pulumi/proto/provider_pb';
import type { Struct } from 'google-protobuf/google/protobuf/struct_pb';
import { createClients, type Clients } from './clients';
import { CONFIG_KEYS, configInputs, credentials, resolveConfig, type ProviderConfig } from './config';
import type { EngineLog } from './engine-log';
import { PartialFailure, ProviderError } from './errors';
import { invokeFunction } from './functions';
import { checkInputs, diffInputs, type OpContext, type ResourceModule } from './resources/resource';
import { resourceModule } from './resources';
import { schemaText } from './schema';
import { containsUnknown, fromStruct, protect, reveal, secretKeys, toStruct, UNKNOWN, type Props } from './wire';

export interface Stubs {
  grpc: typeof grpc;
  provider: typeof pb;
  plugin: typeof import('@pulumi/pulumi/proto/plugin_pb');
  empty: typeof import('google-protobuf/google/protobuf/empty_pb');
  struct: typeof import('google-protobuf/google/protobuf/struct_pb');
}

export const VERSION = (
  JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;

type Handler = (call: { request: unknown }, cb: (err: unknown, res?: unknown) => void) => void;

/** `urn:pulumi:stack::project::[parent$]type::name` → type and name. */
export function parseUrn(urn: string): { type: string; name: string } {
  const parts = urn.split('::');
  const qualified = parts[2] ?? '';
  return { type: qualified.split('$').pop() ?? '', name: parts.slice(3).join('::') };
}

export function createProviderService(stubs: Stubs, log: EngineLog): Record<string, Handler> {
  const { provider: P, struct, grpc: g } = stubs;
  const Struct = struct.Struct;
  let config: ProviderConfig = resolveConfig({}).config;
  let configured = false;
  let clients: Clients | undefined;
  const cancel = new AbortController();

  const getClients = (): Clients => {
    if (!configured) config = resolveConfig({}).config;
    if (!clients) {
      try {
        clients = createClients(config, credentials(config));
      } catch (e) {
        // Missing or unreadable credentials are the user's to fix: one line, no stack.
        throw new ProviderError(e instanceof Error ? e.message : String(e));
      }
    }
    return clients;
  };

  const mod = (urn: string): { m: ResourceModule; name: string } => {
    const { type, name } = parseUrn(urn);
    const m = resourceModule(type);
    if (!m)
      throw new ProviderError(
        `unknown resource type ${type}: this provider serves oci:DisasterRecovery/drPlan:DrPlan and oci:AiLanguage/endpoint:Endpoint`,
      );
    return { m, name };
  };

  const context = (m: ResourceModule, urn: string, name: string, timeoutSeconds: number): OpContext => ({
    clients: getClients(),
    config,
    signal: cancel.signal,
    timeoutMs: timeoutSeconds > 0 ? timeoutSeconds * 1000 : m.defaultTimeoutMs,
    subject: `${m.kind} "${name}"`,
    progress: (message) => log.info(urn, `${m.kind} "${name}": ${message}`, true),
  });

  const out = (p: Props, secrets: Set<string>): Struct => toStruct(Struct, protect(p, secrets));

  const grpcError = (e: unknown): unknown => {
    if (e instanceof PartialFailure) {
      const status = new (require('@pulumi/pulumi/proto/status_pb').Status)();
      status.setCode(g.status.UNKNOWN);
      status.setMessage(e.message);
      const detail = new P.ErrorResourceInitFailed();
      detail.setId(e.id);
      detail.setProperties(toStruct(Struct, e.outputs));
      detail.setReasonsList([e.message]);
      const { Any } = require('google-protobuf/google/protobuf/any_pb');
      const any = new Any();
      any.pack(detail.serializeBinary(), 'pulumirpc.ErrorResourceInitFailed');
      status.addDetails(any);
      const metadata = new g.Metadata();
      metadata.add('grpc-status-details-bin', Buffer.from(status.serializeBinary()));
      return { code: g.status.UNKNOWN, details: e.message, message: e.message, metadata };
    }
    if (e instanceof ProviderError) return { code: g.status.UNKNOWN, details: e.message, message: e.message };
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`pulumi-resource-oci: internal error: ${e instanceof Error ? e.stack : message}\n`);
    return { code: g.status.UNKNOWN, details: `internal error: ${message}` };
  };

  const unary =
    <Req>(fn: (req: Req) => Promise<unknown> | unknown): Handler =>
    (call, cb) => {
      Promise.resolve()
        .then(() => fn(call.request as Req))
        .then(
          (res) => cb(null, res),
          (e) => cb(grpcError(e)),
        );
    };

  const failures = (list: Array<{ property: string; reason: string }>): pb.CheckFailure[] =>
    list.map((f) => new P.CheckFailure().setProperty(f.property).setReason(f.reason));

  /** Outputs with the inputs and unknowns for everything the service computes (preview). */
  const planned = (m: ResourceModule, inputs: Props): Props => {
    const o: Props = { ...inputs };
    for (const k of m.computedOutputs) o[k] = UNKNOWN;
    for (const k of m.computedInputs) if (o[k] === undefined) o[k] = UNKNOWN;
    return o;
  };

  return {
    handshake: unary(() =>
      new P.ProviderHandshakeResponse().setAcceptSecrets(true).setAcceptResources(true).setAcceptOutputs(false),
    ),
    getPluginInfo: unary(() => new stubs.plugin.PluginInfo().setVersion(VERSION)),
    getSchema: unary((req: pb.GetSchemaRequest) => {
      if (req.getVersion() > 1) throw new ProviderError(`schema version ${req.getVersion()} is not supported`);
      return new P.GetSchemaResponse().setSchema(schemaText());
    }),
    checkConfig: unary((req: pb.CheckRequest) => {
      const news = fromStruct(req.getNews());
      const known = Object.fromEntries(Object.entries(news).filter(([, v]) => !containsUnknown(v)));
      const { failures: f } = resolveConfig(configInputs(known, {}), process.env);
      return new P.CheckResponse().setInputs(req.getNews() ?? new Struct()).setFailuresList(failures(f));
    }),
    diffConfig: unary((req: pb.DiffRequest) => {
      const olds = reveal(fromStruct(req.getOldInputs()) ?? {}) as Props;
      const oldState = Object.keys(olds).length ? olds : (reveal(fromStruct(req.getOlds())) as Props);
      const news = reveal(fromStruct(req.getNews())) as Props;
      const diffs = Object.keys(CONFIG_KEYS).filter((k) => JSON.stringify(oldState[k]) !== JSON.stringify(news[k]));
      return new P.DiffResponse()
        .setChanges(diffs.length ? P.DiffResponse.DiffChanges.DIFF_SOME : P.DiffResponse.DiffChanges.DIFF_NONE)
        .setDiffsList(diffs);
    }),
    configure: unary((req: pb.ConfigureRequest) => {
      const variables: Record<string, string> = {};
      req.getVariablesMap().forEach((v: string, k: string) => (variables[k] = v));
      const raw = configInputs(fromStruct(req.getArgs()), variables);
      const known = Object.fromEntries(Object.entries(raw).filter(([, v]) => !containsUnknown(v)));
      const r = resolveConfig(known, process.env);
      if (r.failures.length) {
        throw new ProviderError(`invalid OCI provider configuration: ${r.failures.map((f) => f.reason).join('; ')}`);
      }
      config = r.config;
      configured = true;
      clients?.close();
      clients = undefined;
      // Load the OCI SDK now, while the engine is still starting the program.
      require('oci-disasterrecovery');
      require('oci-ailanguage');
      return new P.ConfigureResponse()
        .setAcceptsecrets(true)
        .setAcceptresources(true)
        .setSupportspreview(true)
        .setAcceptoutputs(false);
    }),
    check: unary((req: pb.CheckRequest) => {
      const { m } = mod(req.getUrn());
      const news = fromStruct(req.getNews());
      const f = checkInputs(m, news);
      return new P.CheckResponse().setInputs(toStruct(Struct, m.defaults(news))).setFailuresList(failures(f));
    }),
    diff: unary((req: pb.DiffRequest) => {
      const { m } = mod(req.getUrn());
      const d = diffInputs(
        m,
        fromStruct(req.getOlds()),
        fromStruct(req.getOldInputs()),
        fromStruct(req.getNews()),
        config,
      );
      const res = new P.DiffResponse()
        .setChanges(d.changed.length ? P.DiffResponse.DiffChanges.DIFF_SOME : P.DiffResponse.DiffChanges.DIFF_NONE)
        .setDiffsList(d.changed)
        .setReplacesList(d.replaces)
        .setDeletebeforereplace(false)
        .setHasdetaileddiff(true);
      if (!d.replaces.length) res.setStablesList(m.stables);
      const K = P.PropertyDiff.Kind;
      for (const [key, { kind, replace }] of Object.entries(d.detailed)) {
        const k =
          kind === 'ADD'
            ? replace
              ? K.ADD_REPLACE
              : K.ADD
            : kind === 'DELETE'
              ? replace
                ? K.DELETE_REPLACE
                : K.DELETE
              : replace
                ? K.UPDATE_REPLACE
                : K.UPDATE;
        res.getDetaileddiffMap().set(key, new P.PropertyDiff().setKind(k).setInputdiff(true));
      }
      return res;
    }),
    create: unary(async (req: pb.CreateRequest) => {
      const { m, name } = mod(req.getUrn());
      const props = fromStruct(req.getProperties());
      const secrets = secretKeys(props);
      if (req.getPreview()) {
        return new P.CreateResponse().setId('').setProperties(out(planned(m, props), secrets));
      }
      const ctx = context(m, req.getUrn(), name, req.getTimeout());
      try {
        const r = await m.create(ctx, reveal(props) as Props);
        return new P.CreateResponse().setId(r.id).setProperties(out(r.outputs, secrets));
      } catch (e) {
        throw secretPartial(e, secrets);
      }
    }),
    read: unary(async (req: pb.ReadRequest) => {
      const { m, name } = mod(req.getUrn());
      const state = fromStruct(req.getProperties());
      const inputs = fromStruct(req.getInputs());
      const secrets = secretKeys(state, inputs);
      const ctx = context(m, req.getUrn(), name, req.getTimeout());
      const outputs = await m.read(ctx, req.getId());
      if (!outputs) return new P.ReadResponse().setId('').setProperties(new Struct()).setInputs(new Struct());
      // Inputs OCI does not report (triggers, sourcePlanId) keep their value from the state.
      for (const k of m.unreported)
        if (outputs[k] === undefined && state[k] !== undefined) outputs[k] = reveal(state[k]);
      // Refresh: what the cloud says now becomes the inputs, so drift shows up as a diff; import
      // (no state, no inputs): the inputs that make the same program diff as no change.
      const fromCloud = m.inputsFromOutputs(outputs);
      const newInputs: Props = { ...fromCloud };
      for (const t of m.triggers) if (inputs[t] !== undefined) newInputs[t] = reveal(inputs[t]);
      return new P.ReadResponse()
        .setId(req.getId())
        .setProperties(out(outputs, secrets))
        .setInputs(out(newInputs, secrets));
    }),
    update: unary(async (req: pb.UpdateRequest) => {
      const { m, name } = mod(req.getUrn());
      const olds = fromStruct(req.getOlds());
      const news = fromStruct(req.getNews());
      const oldInputs = fromStruct(req.getOldInputs());
      const secrets = secretKeys(news);
      const d = diffInputs(m, olds, oldInputs, news, config);
      if (req.getPreview()) {
        const o: Props = { ...olds, ...news };
        for (const k of [
          'state',
          'timeUpdated',
          'lifecycleSubState',
          'lifeCycleDetails',
          'lifecycleDetails',
          'planGroups',
        ])
          if (k in o || m.computedOutputs.includes(k)) o[k] = UNKNOWN;
        for (const k of Object.keys(o)) if (!m.computedOutputs.includes(k) && !(k in news) && !(k in olds)) delete o[k];
        return new P.UpdateResponse().setProperties(out(o, secrets));
      }
      const ctx = context(m, req.getUrn(), name, req.getTimeout());
      try {
        const outputs = await m.update(ctx, {
          id: req.getId(),
          olds: reveal(olds) as Props,
          oldInputs: reveal(oldInputs) as Props,
          news: reveal(news) as Props,
          changed: d.changed,
        });
        return new P.UpdateResponse().setProperties(out(outputs, secrets));
      } catch (e) {
        throw secretPartial(e, secrets);
      }
    }),
    delete: unary(async (req: pb.DeleteRequest) => {
      const { m, name } = mod(req.getUrn());
      await m.delete(context(m, req.getUrn(), name, req.getTimeout()), req.getId());
      return new stubs.empty.Empty();
    }),
    invoke: unary(async (req: pb.InvokeRequest) => {
      const args = reveal(fromStruct(req.getArgs())) as Props;
      const result = await invokeFunction(req.getTok(), args, { clients: getClients(), signal: cancel.signal });
      const res = new P.InvokeResponse();
      if ('failures' in result) return res.setFailuresList(failures(result.failures));
      return res.setReturn(toStruct(Struct, result.outputs));
    }),
    cancel: unary(() => {
      // Every wait listens to this signal and stops at once.
      cancel.abort();
      return new stubs.empty.Empty();
    }),
  };
}

function secretPartial(e: unknown, secrets: Set<string>): unknown {
  if (e instanceof PartialFailure) return new PartialFailure(e.message, e.id, protect(e.outputs, secrets));
  return e;
}
