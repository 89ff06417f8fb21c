// pulumirpc.ResourceProvider on the @pulumi/pulumi/proto stubs (not provider.main, which drops
// configuration, preview, detailed diffs and crashes on import). RPCs not listed here answer
// UNIMPLEMENTED (grpc-js does that for methods without a handler).
import type * as grpc from '@grpc/grpc-js';
import type { Clients } from './clients';
import type { ProviderConfig } from './config';
import type { EngineLog } from './engine-log';
import { messageOf, PartialFailure, ProviderError } from './errors';
import { CREATE_KEY_HEADER, PREVIEW_ONLY_ENV } from './instances';
import { packageVersion } from './package-version';
import { applyIgnoreChanges } from './property-path';
import type { InputDiff, OpContext, ResourceModule } from './resources/resource';
import { codec } from './rpc';
import { CancelledError, WaitTimeoutError } from './wait';
import { containsUnknown, keepSecrets, protect, reveal, UNKNOWN, unknownKeys, type Props } from './wire';

// Loaded on first use, not before the port line: configuration, the resource modules (and with
// them schema.json), the functions and the OCI clients.
const lazy = <T>(load: () => T): (() => T) => {
  let m: T | undefined;
  return () => (m ??= load());
};
const cfg = lazy(() => require('./config') as typeof import('./config'));
const schemaModule = lazy(() => require('./schema') as typeof import('./schema'));
const resources = lazy(() => ({
  ...(require('./resources') as typeof import('./resources')),
  ...(require('./resources/resource') as typeof import('./resources/resource')),
}));

/** A plugin for a preview alone (PREVIEW_ONLY_ENV) loads the OCI services' SDK when first needed. */
const previewOnly = (): boolean => process.env[PREVIEW_ONLY_ENV] === '1';

/**
 * What warmUp loads, in order: configuration and regions (CheckConfig), the resource modules and
 * schema (Check), the OCI services' SDK (Create), unless the plugin serves a preview alone.
 */
export function warmUpSteps(): (() => unknown)[] {
  return [
    cfg,
    () => require('oci-common'),
    resources,
    () => (require('./schema') as typeof import('./schema')).packageSchema(),
    ...(previewOnly() ? [] : [() => require('oci-disasterrecovery'), () => require('oci-ailanguage')]),
  ];
}

/**
 * Loads, after the port line, what the first requests will need (warmUpSteps). An engine that
 * starts plugins ahead of the program (ocikit does) then finds them warm; one that calls at once
 * waits no longer than on-demand loading would make it. One module per macrotask, so a request
 * that arrives meanwhile is answered between two loads.
 */
export function warmUp(): void {
  const steps = warmUpSteps();
  const next = (): void => {
    const step = steps.shift();
    if (!step) return;
    try {
      step();
    } catch {
      // Reported by the first request that needs it.
    }
    setImmediate(next);
  };
  setImmediate(next);
}

/** Request messages as ./rpc decodes them (absent Structs are `{}`). */
interface CheckRequest {
  urn: string;
  olds: Props;
  news: Props;
}
interface DiffRequest {
  id: string;
  urn: string;
  olds: Props;
  news: Props;
  oldInputs: Props;
  ignoreChanges?: string[];
}
interface CreateRequest {
  urn: string;
  properties: Props;
  timeout: number;
  preview: boolean;
}
interface ReadRequest {
  id: string;
  urn: string;
  properties: Props;
  inputs: Props;
  timeout: number;
}
interface UpdateRequest {
  id: string;
  urn: string;
  olds: Props;
  news: Props;
  oldInputs: Props;
  timeout: number;
  preview: boolean;
}
interface DeleteRequest {
  id: string;
  urn: string;
  timeout: number;
}

/** pulumirpc.DiffResponse.DiffChanges and PropertyDiff.Kind. */
const DIFF_NONE = 1;
const DIFF_SOME = 2;
const KIND = { ADD: 0, ADD_REPLACE: 1, DELETE: 2, DELETE_REPLACE: 3, UPDATE: 4, UPDATE_REPLACE: 5 };

type Handler = (call: { request: unknown; metadata: grpc.Metadata }, cb: (err: unknown, res?: unknown) => void) => void;

/** `urn:pulumi:stack::project::[parent$]type::name` → type and name. */
export function parseUrn(urn: string): { type: string; name: string } {
  const parts = urn.split('::');
  const qualified = parts[2] ?? '';
  return { type: qualified.split('$').pop() ?? '', name: parts.slice(3).join('::') };
}

/** grpc-js, for status codes and metadata. */
export type GrpcLib = Pick<typeof grpc, 'status' | 'Metadata'>;

export function createProviderService(g: GrpcLib, log: EngineLog): Record<string, Handler> {
  // Configuration is read on first use (CheckConfig, Configure or a call before them), not at start.
  let config: ProviderConfig | undefined;
  let configured = false;
  let clients: Clients | undefined;
  // Cancel stops the run it was sent in. Configure starts the next one afresh: a plugin the engine
  // attached to (PULUMI_DEBUG_PROVIDERS) outlives a cancelled run, and a signal aborted for good
  // would end every later wait at once, after OCI had already been asked to create or change.
  let cancel = new AbortController();
  const currentConfig = (): ProviderConfig => (config ??= cfg().resolveConfig({}).config);

  const getClients = (): Clients => {
    if (!configured) config = cfg().resolveConfig({}).config;
    if (!clients) {
      const c = currentConfig();
      try {
        const { createClients } = require('./clients') as typeof import('./clients');
        clients = createClients(c, cfg().credentials(c));
      } catch (e) {
        // Missing or unreadable credentials are the user's to fix: one line, no stack.
        throw new ProviderError(messageOf(e));
      }
    }
    return clients;
  };

  const mod = (urn: string): { m: ResourceModule; name: string } => {
    const { type, name } = parseUrn(urn);
    const m = resources().resourceModule(type);
    if (!m)
      throw new ProviderError(
        `unknown resource type ${type}: this provider serves oci:DisasterRecovery/drPlan:DrPlan and oci:AiLanguage/endpoint:Endpoint`,
      );
    return { m, name };
  };

  const context = (
    m: ResourceModule,
    urn: string,
    name: string,
    timeoutSeconds: number,
    createKey?: string,
  ): OpContext => ({
    clients: getClients(),
    config: currentConfig(),
    signal: cancel.signal,
    timeoutMs: timeoutSeconds > 0 ? timeoutSeconds * 1000 : m.defaultTimeoutMs,
    subject: `${m.kind} "${name}"`,
    urn,
    // Ephemeral and tied to the URN: the engine shows it with the resource, so no name prefix.
    progress: (message) => log.info(urn, message, true),
    ...(createKey ? { createKey } : {}),
  });

  const grpcError = (e: unknown): unknown => {
    if (e instanceof PartialFailure) {
      // The engine reads ErrorResourceInitFailed from the status details to track the resource.
      const detail = codec('ErrorResourceInitFailed').serialize({
        id: e.id,
        properties: e.outputs,
        reasons: [e.message],
      });
      const status = codec('Status').serialize({
        code: g.status.UNKNOWN,
        message: e.message,
        details: [{ typeUrl: 'type.googleapis.com/pulumirpc.ErrorResourceInitFailed', value: detail }],
      });
      const metadata = new g.Metadata();
      metadata.add('grpc-status-details-bin', status);
      return { code: g.status.UNKNOWN, details: e.message, message: e.message, metadata };
    }
    // A wait that timed out or was cancelled is the user's to act on (customTimeouts), not a bug.
    if (e instanceof ProviderError || e instanceof WaitTimeoutError || e instanceof CancelledError)
      return { code: g.status.UNKNOWN, details: e.message, message: e.message };
    const message = messageOf(e);
    process.stderr.write(`pulumi-resource-oci: internal error: ${e instanceof Error ? e.stack : message}\n`);
    return { code: g.status.UNKNOWN, details: `internal error: ${message}` };
  };

  const unary =
    <Req>(fn: (req: Req, metadata: grpc.Metadata) => Promise<unknown> | unknown): Handler =>
    (call, cb) => {
      Promise.resolve()
        .then(() => fn(call.request as Req, call.metadata))
        .then(
          (res) => cb(null, res),
          (e) => cb(grpcError(e)),
        );
    };

  /**
   * A resource's outputs as the engine gets them: with pulumi-oci's zero values (see
   * withZeroValues), and every other property of the schema null (a DrPlan trigger with no
   * recorded counter), as pulumi-oci's bridge returns the whole Terraform state, nulls included
   * (tfshim/sdk-v2 v2InstanceState2.Object, MakeTerraformOutputs): a program then reads it as a
   * known undefined, in a preview too (a property left out resolves unknown there).
   */
  const reported = (m: ResourceModule, outputs: Props): Props => {
    const spec = schemaModule().packageSchema().resources[m.token];
    const out = schemaModule().withZeroValues(outputs, spec, m.triggers);
    for (const k of Object.keys(spec.properties)) if (out[k] === undefined) out[k] = null;
    return out;
  };

  /**
   * A partial failure's outputs as a success's are (zero values, secrets kept secret): the engine
   * records them, and a property left out would read as drift at the next refresh.
   */
  const reportedPartial = (m: ResourceModule, e: unknown, secrets: Props): unknown =>
    e instanceof PartialFailure ? new PartialFailure(e.message, e.id, keepSecrets(reported(m, e.outputs), secrets)) : e;

  /** Outputs with the inputs and unknowns for everything the service computes (preview). */
  const planned = (m: ResourceModule, inputs: Props): Props => {
    const o: Props = { ...inputs };
    for (const k of m.computedOutputs) o[k] = UNKNOWN;
    for (const k of m.computedInputs) if (o[k] === undefined) o[k] = UNKNOWN;
    return o;
  };

  /**
   * The engine sends unknowns only with `preview`; should a Create or Update without it carry one,
   * it is refused before any call: an unknown sentinel must never reach OCI as a value.
   */
  const refuseUnknowns = (m: ResourceModule, name: string, operation: string, props: Props): void => {
    const keys = unknownKeys(props);
    if (keys.length)
      throw new ProviderError(
        `${m.kind} "${name}": ${operation} got unknown values for ${keys.join(', ')} (known only after a preview); nothing was sent to OCI`,
      );
  };

  const detailedDiff = (d: InputDiff): Props => {
    const out: Props = {};
    for (const [key, { kind, replace, inputDiff }] of Object.entries(d.detailed)) {
      out[key] = { kind: KIND[replace ? (`${kind}_REPLACE` as const) : kind], inputDiff };
    }
    return out;
  };

  return {
    handshake: unary((req: { engineAddress?: string }) => {
      if (req.engineAddress) log.retarget(req.engineAddress);
      // acceptResources false: the engine then sends a resource reference as its id (pulumi/pulumi
      // rpc.go MarshalPropertyValue, KeepResources false), as it does to pulumi-oci, whose bridge
      // does not accept them either; Check would otherwise refuse the reference as not a string.
      return { acceptSecrets: true, acceptResources: false, acceptOutputs: false };
    }),
    // An engine attached to an already running plugin (PULUMI_DEBUG_PROVIDERS=oci:<port>) calls
    // Attach right after Handshake and fails the run if it is not implemented (pulumi/pulumi
    // provider_plugin.go, NewProvider: `if plug.Bin == "" { p.Attach(...) }`); it names the engine.
    attach: unary((req: { address?: string }) => {
      if (req.address) log.retarget(req.address);
      return {};
    }),
    getPluginInfo: unary(() => ({ version: packageVersion() })),
    getSchema: unary((req: { version: number }) => {
      if (req.version > 1) throw new ProviderError(`schema version ${req.version} is not supported`);
      return { schema: (require('./schema') as typeof import('./schema')).schemaText() };
    }),
    checkConfig: unary((req: CheckRequest) => {
      const known = Object.fromEntries(Object.entries(req.news).filter(([, v]) => !containsUnknown(v)));
      const { failures } = cfg().resolveConfig(cfg().configInputs(known, {}), process.env);
      failures.push(...cfg().unknownKeyFailures(req.news, req.urn));
      for (const warning of cfg().unservedKeyWarnings(req.news, req.urn)) log.warning(req.urn, warning);
      // The engine stores these inputs in the state: keys the schema marks secret (privateKey,
      // privateKeyPassword, tokenExchangeClientSecret) are wrapped even when set in plain text.
      return { inputs: protect(req.news, cfg().secretConfigKeys()), failures };
    }),
    // As pulumi-oci's bridge diffs a provider's configuration (pulumi-terraform-bridge
    // pkg/tfbridge/provider.go configDiffer.DiffConfig): every input the engine sends, `version`
    // and the settings this provider does not serve included, an unknown being a change, and
    // never a replacement (pulumi-oci marks no key ForcesProviderReplace).
    diffConfig: unary((req: DiffRequest) => {
      const olds = reveal(Object.keys(req.oldInputs ?? {}).length ? req.oldInputs : req.olds) as Props;
      const news = reveal(applyIgnoreChanges(olds, req.news, req.ignoreChanges ?? [])) as Props;
      const detailed: InputDiff['detailed'] = {};
      for (const key of [...new Set([...Object.keys(olds), ...Object.keys(news)])].sort()) {
        if (key === '__internal') continue;
        const [o, n] = [olds[key], news[key]];
        if (!containsUnknown(n) && JSON.stringify(o) === JSON.stringify(n)) continue;
        const kind = o === undefined ? 'ADD' : n === undefined ? 'DELETE' : 'UPDATE';
        detailed[key] = { kind, replace: false, inputDiff: true };
      }
      const diffs = Object.keys(detailed);
      return {
        changes: diffs.length ? DIFF_SOME : DIFF_NONE,
        diffs,
        hasDetailedDiff: true,
        detailedDiff: detailedDiff({ changed: diffs, replaces: [], detailed }),
      };
    }),
    configure: unary((req: { variables: Record<string, string>; args: Props }) => {
      const raw = cfg().configInputs(req.args, req.variables);
      const known = Object.fromEntries(Object.entries(raw).filter(([, v]) => !containsUnknown(v)));
      const r = cfg().resolveConfig(known, process.env);
      if (r.failures.length) {
        throw new ProviderError(`invalid OCI provider configuration: ${r.failures.map((f) => f.reason).join('; ')}`);
      }
      config = r.config;
      configured = true;
      if (cancel.signal.aborted) cancel = new AbortController();
      clients?.close();
      clients = undefined;
      // After answering, while the engine goes on with the program: load the OCI SDK, build the
      // clients (which parse the key) and read the schema, so the first operation does not wait
      // (a preview alone builds its clients only if an Invoke or a Read needs them).
      setImmediate(() => {
        try {
          (require('./schema') as typeof import('./schema')).packageSchema();
          resources();
          if (!previewOnly()) getClients();
        } catch {
          // Reported by the first operation that needs it.
        }
      });
      return { acceptSecrets: true, acceptResources: false, supportsPreview: true, acceptOutputs: false };
    }),
    check: unary((req: CheckRequest) => {
      const { m } = mod(req.urn);
      // Service defaults on a create only: with olds (an update, an import) an input the program
      // leaves out keeps OCI's value, as pulumi-oci's Optional+Computed inputs do (see Diff).
      const creating = Object.keys(req.olds ?? {}).length === 0;
      // A null input is an unset one, as for pulumi-oci (its bridge reads Check's news with
      // SkipNulls): left out of the inputs, and a create's default applies.
      const set = Object.fromEntries(Object.entries(req.news).filter(([, v]) => v !== null));
      const news = resources().coerceInputs(m, set);
      const inputs = resources().withoutEmptyOptionals(m, creating ? m.defaults(news) : news);
      return { inputs, failures: resources().checkInputs(m, news) };
    }),
    diff: unary((req: DiffRequest) => {
      const { m } = mod(req.urn);
      // The paths to ignore make no diff, as in pulumi-oci (its bridge's Diff reads ignoreChanges):
      // they take the old inputs' values. The engine applies them to an update's inputs itself;
      // a refresh's Diff (old inputs: what was read) gets them only here.
      const news = applyIgnoreChanges(req.oldInputs, req.news, req.ignoreChanges ?? []);
      const d = resources().diffInputs(m, req.olds, req.oldInputs, news, currentConfig());
      // A resource OCI left FAILED (its create's or an update's work request failed) cannot be
      // updated, only deleted ("is FAILED; … Delete it and create a new one"): it is replaced, as
      // Terraform replaces a resource whose create failed. The engine would otherwise "update" it
      // with nothing to change and call it fixed.
      if (reveal(req.olds?.state) === 'FAILED' && !d.replaces.includes('state')) {
        if (!d.changed.includes('state')) d.changed.push('state');
        d.replaces.push('state');
        d.detailed.state = { kind: 'UPDATE', replace: true, inputDiff: false };
      }
      return {
        changes: d.changed.length ? DIFF_SOME : DIFF_NONE,
        diffs: d.changed,
        replaces: d.replaces,
        stables: d.replaces.length ? [] : m.stables,
        deleteBeforeReplace: false,
        hasDetailedDiff: true,
        detailedDiff: detailedDiff(d),
      };
    }),
    create: unary(async (req: CreateRequest, metadata) => {
      const { m, name } = mod(req.urn);
      const props = req.properties;
      if (req.preview) return { id: '', properties: keepSecrets(planned(m, props), props) };
      refuseUnknowns(m, name, 'Create', props);
      const key = metadata.get(CREATE_KEY_HEADER)[0];
      const ctx = context(m, req.urn, name, req.timeout, typeof key === 'string' ? key : undefined);
      try {
        const r = await m.create(ctx, reveal(props) as Props);
        return { id: r.id, properties: keepSecrets(reported(m, r.outputs), props) };
      } catch (e) {
        throw reportedPartial(m, e, props);
      }
    }),
    read: unary(async (req: ReadRequest) => {
      const { m, name } = mod(req.urn);
      const state = req.properties;
      const inputs = req.inputs;
      const ctx = context(m, req.urn, name, req.timeout);
      const outputs = await m.read(ctx, req.id);
      if (!outputs) return { id: '', properties: {}, inputs: {} };
      // Inputs OCI does not report (triggers, sourcePlanId) keep their value from the state; its
      // zero value ("" for a plan that is no clone) stands for none.
      for (const k of m.unreported)
        if (outputs[k] === undefined && state[k] !== undefined && state[k] !== '') outputs[k] = reveal(state[k]);
      // Refresh: what the cloud says now becomes the inputs, so drift shows up as a diff; import
      // (no state, no inputs): the inputs that make the same program diff as no change.
      const fromCloud = m.inputsFromOutputs(outputs);
      const newInputs: Props = { ...fromCloud };
      for (const t of m.triggers) if (inputs[t] !== undefined) newInputs[t] = reveal(inputs[t]);
      return {
        id: req.id,
        properties: keepSecrets(reported(m, outputs), state),
        inputs: keepSecrets(newInputs, inputs),
      };
    }),
    update: unary(async (req: UpdateRequest) => {
      const { m, name } = mod(req.urn);
      const { olds, news, oldInputs } = req;
      const d = resources().diffInputs(m, olds, oldInputs, news, currentConfig());
      if (req.preview) {
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
        return { properties: keepSecrets(o, news) };
      }
      refuseUnknowns(m, name, 'Update', news);
      const ctx = context(m, req.urn, name, req.timeout);
      try {
        const outputs = await m.update(ctx, {
          id: req.id,
          olds: reveal(olds) as Props,
          oldInputs: reveal(oldInputs) as Props,
          news: reveal(news) as Props,
          changed: d.changed,
        });
        return { properties: keepSecrets(reported(m, outputs), news) };
      } catch (e) {
        throw reportedPartial(m, e, news);
      }
    }),
    delete: unary(async (req: DeleteRequest) => {
      const { m, name } = mod(req.urn);
      await m.delete(context(m, req.urn, name, req.timeout), req.id);
      return {};
    }),
    invoke: unary(async (req: { tok: string; args: Props }) => {
      const args = reveal(req.args) as Props;
      // An unknown argument would reach OCI as a query value: one failure per argument instead.
      const unknown = unknownKeys(args);
      if (unknown.length)
        return {
          failures: unknown.map((k) => ({ property: k, reason: `${k} is unknown (known only after a preview)` })),
        };
      const { invokeFunction } = require('./functions') as typeof import('./functions');
      const result = await invokeFunction(req.tok, args, { clients: getClients(), signal: cancel.signal });
      if ('failures' in result) return { failures: result.failures };
      return { return: result.outputs };
    }),
    cancel: unary(() => {
      // Every wait listens to this signal and stops at once.
      cancel.abort();
      return {};
    }),
  };
}
