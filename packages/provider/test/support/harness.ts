// Protocol-test harness: spawns the BUILT plugin exactly as the Pulumi engine does (one argument,
// the engine address; the port read from the first stdout line), drives it with the real
// ResourceProviderClient stubs, and checks effects through the official OCI SDK against a real
// emulator.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import * as grpc from '@grpc/grpc-js';
import type { AIServiceLanguageClient } from 'oci-ailanguage';
import type { DisasterRecoveryClient } from 'oci-disasterrecovery';
import { ResourceProviderClient } from '@pulumi/pulumi/proto/provider_grpc_pb';
import * as pb from '@pulumi/pulumi/proto/provider_pb';
import { Empty } from 'google-protobuf/google/protobuf/empty_pb';
import { Struct } from 'google-protobuf/google/protobuf/struct_pb';
import { AdminClient, startEmulator, type RunningEmulator } from '@ocikit/emulator';
import { fastWaiter, ociTestClients } from '@ocikit/emulator/testing';
import {
  CREATE_KEY_HEADER,
  START_PROVIDER_PATH,
  startProviderCodec,
  type StartProviderResponse,
} from '../../src/instances';

export { pb, Struct, Empty };
export const SECRET_SIG = '4dabf18193072939515e22adb298388d';
export const SECRET_MARK = '1b47061264138c4ac30d75fd1eb44270';
export const UNKNOWN = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';
export const BIN = path.join(__dirname, '..', '..', 'bin', 'pulumi-resource-oci.js');
export const DRPLAN = 'oci:DisasterRecovery/drPlan:DrPlan';
export const ENDPOINT = 'oci:AiLanguage/endpoint:Endpoint';

export type Props = Record<string, unknown>;
export const secret = (value: unknown): Props => ({ [SECRET_SIG]: SECRET_MARK, value });
export const struct = (p: Props): Struct => Struct.fromJavaScript(JSON.parse(JSON.stringify(p)) as never);
export const js = (s: Struct | undefined): Props => (s ? (s.toJavaScript() as Props) : {});
export const urn = (type: string, name: string): string => `urn:pulumi:test::proj::${type}::${name}`;

export interface Plugin {
  port: number;
  client: ResourceProviderClient;
  child: ChildProcess;
  stderr(): string;
  /** Calls a unary RPC and resolves its response (rejects with the gRPC error). */
  /** `metadata`: gRPC metadata sent with the call (ocikit's engine: `ocikit-create-key` on a Create). */
  call<T>(method: string, req: unknown, metadata?: Record<string, string>): Promise<T>;
  close(): Promise<void>;
}

export async function startPlugin(
  o: { engine?: string; env?: Record<string, string | undefined> } = {},
): Promise<Plugin> {
  const child = spawn(process.execPath, [BIN, o.engine ?? '127.0.0.1:1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...o.env },
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const port = await new Promise<number>((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    rl.once('line', (line) => resolve(Number(line.trim())));
    child.once('exit', (code) => reject(new Error(`plugin exited (${code}) before printing its port: ${err}`)));
  });
  return connectPlugin(port, child, () => err, true);
}

/**
 * Another provider instance in `plugin`'s process, as ocikit's engine asks for one (StartProvider
 * on the first port, src/instances.ts). Closing it closes its client only.
 */
export async function startInstance(plugin: Plugin): Promise<Plugin> {
  const host = new grpc.Client(`127.0.0.1:${plugin.port}`, grpc.credentials.createInsecure());
  try {
    const { port } = await new Promise<StartProviderResponse>((resolve, reject) =>
      host.makeUnaryRequest(
        START_PROVIDER_PATH,
        startProviderCodec.serialize,
        startProviderCodec.deserialize,
        {},
        (e, res) => (e ? reject(e) : resolve(res!)),
      ),
    );
    return connectPlugin(port, plugin.child, plugin.stderr, false);
  } finally {
    host.close();
  }
}

function connectPlugin(port: number, child: ChildProcess, stderr: () => string, ownsProcess: boolean): Plugin {
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    port,
    client,
    child,
    stderr,
    call<T>(method: string, req: unknown, metadata?: Record<string, string>): Promise<T> {
      return new Promise((resolve, reject) => {
        const fn = (client as unknown as Record<string, (...args: unknown[]) => unknown>)[method].bind(client);
        const md = new grpc.Metadata();
        for (const [k, v] of Object.entries(metadata ?? {})) md.set(k, v);
        fn(req, md, (e: grpc.ServiceError | null, res: T) => (e ? reject(e) : resolve(res)));
      });
    },
    async close() {
      client.close();
      if (ownsProcess && child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

export interface Env {
  emulator: RunningEmulator;
  sandbox: NonNullable<RunningEmulator['sandbox']>;
  creds: { tenancyOcid: string; userOcid: string; fingerprint: string; privateKeyPath: string };
  /** Official SDK clients for checking effects (region: home unless given). */
  dr(region?: string): DisasterRecoveryClient;
  language(region?: string): AIServiceLanguageClient;
  close(): Promise<void>;
}

export async function startEnv(options: { transitionDelaySeconds?: number } = {}): Promise<Env> {
  const emulator = await startEmulator({
    inMemory: true,
    seed: 'sandbox',
    transitionDelaySeconds: options.transitionDelaySeconds ?? 0,
    trainingDurationSeconds: 0,
  });
  return envFor(emulator);
}

/**
 * The emulator as its own process (`ocikit-emulator --in-memory --seed sandbox`), for benchmarks
 * that compare the plugin with direct SDK calls: both then cross a process boundary to reach it.
 */
export async function startEnvProcess(options: { transitionDelaySeconds?: number } = {}): Promise<Env> {
  const bin = path.join(path.dirname(require.resolve('@ocikit/emulator/package.json')), 'bin', 'ocikit-emulator.js');
  const args = ['--in-memory', '--seed', 'sandbox', '--transition-delay', String(options.transitionDelaySeconds ?? 0)];
  const child = spawn(process.execPath, [bin, ...args, '--training-duration', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const it = lines[Symbol.asyncIterator]();
  // The first lines: listening URL, authentication mode, admin token, OCI config file.
  const printed: Record<string, string> = {};
  const patterns = { url: /listening on (\S+)/, token: /^admin token: (\S+)/, configFile: /OCI config file: (\S+)/ };
  while (Object.keys(printed).length < Object.keys(patterns).length) {
    const next = await it.next();
    if (next.done) throw new Error('ocikit-emulator ended before printing its URL, admin token and config file');
    for (const [key, re] of Object.entries(patterns)) {
      const m = re.exec(String(next.value));
      if (m) printed[key] = m[1];
    }
  }
  const { url, token, configFile } = printed;
  const admin = new AdminClient(url, token);
  const sandbox = await admin.sandbox();
  const emulator = {
    url,
    configFile,
    region: sandbox.homeRegion,
    sandbox,
    admin,
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  } as RunningEmulator;
  return envFor(emulator);
}

function envFor(emulator: RunningEmulator): Env {
  // The shared OCI test-client set-up (credentials from the emulator's config file, fast retries).
  const clients = ociTestClients(emulator, { defaultRegion: emulator.region });
  return {
    emulator,
    sandbox: emulator.sandbox!,
    creds: clients.credentials,
    dr: (region) => clients.dr(region),
    language: (region) => clients.language(region),
    async close() {
      clients.close();
      await emulator.close();
    },
  };
}

/** Provider configuration (Configure args) for the emulator in `region`. */
export function providerArgs(env: Env, region: string, extra: Props = {}): Props {
  return { endpoint: env.emulator.url, region, ...env.creds, ...extra };
}

/** A plugin configured as the engine configures it: CheckConfig, then Configure with args + variables. */
export async function configuredPlugin(env: Env, region: string, extra: Props = {}): Promise<Plugin> {
  return configure(await startPlugin(), env, region, extra);
}

/** Configures `plugin` (a process or an instance) as the engine does: CheckConfig, then Configure. */
export async function configure(plugin: Plugin, env: Env, region: string, extra: Props = {}): Promise<Plugin> {
  const args = providerArgs(env, region, extra);
  await plugin.call(
    'checkConfig',
    new pb.CheckRequest().setUrn('urn:pulumi:test::proj::pulumi:providers:oci::default').setNews(struct(args)),
  );
  const req = new pb.ConfigureRequest().setArgs(struct(args)).setAcceptsecrets(true).setAcceptresources(true);
  for (const [k, v] of Object.entries(args)) req.getVariablesMap().set(`oci:config:${k}`, String(v));
  await plugin.call('configure', req);
  return plugin;
}

/** The engine's create order: Check (no olds) → Create. Returns id and outputs. */
export async function create(
  plugin: Plugin,
  type: string,
  name: string,
  inputs: Props,
  o: { preview?: boolean; timeout?: number; createKey?: string } = {},
): Promise<{ id: string; outputs: Props; checked: Props }> {
  const checked = await check(plugin, type, name, {}, inputs);
  const res = await plugin.call<pb.CreateResponse>(
    'create',
    new pb.CreateRequest()
      .setUrn(urn(type, name))
      .setProperties(struct(checked))
      .setPreview(!!o.preview)
      .setTimeout(o.timeout ?? 0),
    o.createKey ? { [CREATE_KEY_HEADER]: o.createKey } : undefined,
  );
  return { id: res.getId(), outputs: js(res.getProperties()), checked };
}

export async function check(plugin: Plugin, type: string, name: string, olds: Props, news: Props): Promise<Props> {
  const res = await plugin.call<pb.CheckResponse>(
    'check',
    new pb.CheckRequest().setUrn(urn(type, name)).setOlds(struct(olds)).setNews(struct(news)),
  );
  const failures = res.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
  if (failures.length) throw new Error(`check failed: ${failures.join('; ')}`);
  return js(res.getInputs());
}

export async function checkFailures(
  plugin: Plugin,
  type: string,
  news: Props,
): Promise<Array<{ property: string; reason: string }>> {
  const res = await plugin.call<pb.CheckResponse>(
    'check',
    new pb.CheckRequest().setUrn(urn(type, 'x')).setNews(struct(news)),
  );
  return res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
}

export interface DiffResult {
  changes: 'NONE' | 'SOME' | 'UNKNOWN';
  diffs: string[];
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  detailed: Record<string, number>;
  /** Per changed key: whether the old input (true) or the old output (false) was compared. */
  inputDiff: Record<string, boolean>;
}

export async function diff(
  plugin: Plugin,
  type: string,
  name: string,
  id: string,
  olds: Props,
  oldInputs: Props,
  news: Props,
): Promise<DiffResult> {
  const res = await plugin.call<pb.DiffResponse>(
    'diff',
    new pb.DiffRequest()
      .setUrn(urn(type, name))
      .setId(id)
      .setOlds(struct(olds))
      .setOldInputs(struct(oldInputs))
      .setNews(struct(news)),
  );
  const detailed: Record<string, number> = {};
  const inputDiff: Record<string, boolean> = {};
  res.getDetaileddiffMap().forEach((v, k) => {
    detailed[k] = v.getKind();
    inputDiff[k] = v.getInputdiff();
  });
  const C = pb.DiffResponse.DiffChanges;
  return {
    changes: res.getChanges() === C.DIFF_NONE ? 'NONE' : res.getChanges() === C.DIFF_SOME ? 'SOME' : 'UNKNOWN',
    diffs: res.getDiffsList(),
    replaces: res.getReplacesList(),
    stables: res.getStablesList(),
    deleteBeforeReplace: res.getDeletebeforereplace(),
    detailed,
    inputDiff,
  };
}

/** The engine's update order: Check (olds = old inputs) → Diff → Update. */
export async function update(
  plugin: Plugin,
  type: string,
  name: string,
  state: { id: string; outputs: Props; inputs: Props },
  news: Props,
): Promise<{ diff: DiffResult; outputs: Props; inputs: Props }> {
  const checked = await check(plugin, type, name, state.inputs, news);
  const d = await diff(plugin, type, name, state.id, state.outputs, state.inputs, checked);
  if (d.changes === 'NONE') return { diff: d, outputs: state.outputs, inputs: checked };
  const res = await plugin.call<pb.UpdateResponse>(
    'update',
    new pb.UpdateRequest()
      .setUrn(urn(type, name))
      .setId(state.id)
      .setOlds(struct(state.outputs))
      .setOldInputs(struct(state.inputs))
      .setNews(struct(checked)),
  );
  return { diff: d, outputs: js(res.getProperties()), inputs: checked };
}

export async function read(
  plugin: Plugin,
  type: string,
  name: string,
  id: string,
  state?: Props,
  inputs?: Props,
): Promise<{ id: string; outputs: Props; inputs: Props }> {
  const req = new pb.ReadRequest().setUrn(urn(type, name)).setId(id);
  if (state) req.setProperties(struct(state));
  if (inputs) req.setInputs(struct(inputs));
  const res = await plugin.call<pb.ReadResponse>('read', req);
  return { id: res.getId(), outputs: js(res.getProperties()), inputs: js(res.getInputs()) };
}

export async function del(plugin: Plugin, type: string, name: string, id: string, outputs: Props): Promise<void> {
  await plugin.call('delete', new pb.DeleteRequest().setUrn(urn(type, name)).setId(id).setProperties(struct(outputs)));
}

/**
 * Creates an Endpoint of the sandbox's text model through `plugin` and deletes it (the plugin
 * reaches OCI and is let in); returns the state it was created in.
 */
export async function endpointRoundTrip(plugin: Plugin, env: Env, name: string): Promise<unknown> {
  const c = await create(plugin, ENDPOINT, name, {
    compartmentId: env.sandbox.compartmentId,
    modelId: env.sandbox.aiLanguage.customModelIds.textClassification,
  });
  await del(plugin, ENDPOINT, name, c.id, c.outputs);
  return c.outputs.state;
}

export async function invoke(plugin: Plugin, tok: string, args: Props): Promise<{ result: Props; failures: string[] }> {
  const res = await plugin.call<pb.InvokeResponse>('invoke', new pb.InvokeRequest().setTok(tok).setArgs(struct(args)));
  return {
    result: js(res.getReturn()),
    failures: res.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`),
  };
}

/** Decodes `ErrorResourceInitFailed` from a gRPC error's status details, if present. */
export function initFailure(e: grpc.ServiceError): { id: string; properties: Props; reasons: string[] } | undefined {
  const bin = e.metadata?.get('grpc-status-details-bin')?.[0];
  if (!bin) return undefined;
  const { Status } = require('@pulumi/pulumi/proto/status_pb');
  const status = Status.deserializeBinary(new Uint8Array(bin as Buffer));
  for (const any of status.getDetailsList()) {
    if (any.getTypeName() === 'pulumirpc.ErrorResourceInitFailed') {
      const d = pb.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
      return { id: d.getId(), properties: js(d.getProperties()), reasons: d.getReasonsList() };
    }
  }
  return undefined;
}

// ---- DR fixtures (through the official SDK) ----
import { randomBytes } from 'node:crypto';
import type { models as drModels } from 'oci-disasterrecovery';

const REGION_KEYS: Record<string, string> = { 'us-ashburn-1': 'iad', 'us-phoenix-1': 'phx' };
export function ocid(type: string, region: string): string {
  const unique = ('amaaaaaa' + randomBytes(40).toString('hex')).slice(0, 60);
  return `ocid1.${type}.oc1.${REGION_KEYS[region] ?? 'iad'}.${unique}`;
}

export async function finished(client: DisasterRecoveryClient, workRequestId: string | undefined): Promise<void> {
  if (!workRequestId) return;
  await client.createWaiters(fastWaiter(500)).forWorkRequest({ workRequestId });
}

export interface Pair {
  home: DisasterRecoveryClient;
  peer: DisasterRecoveryClient;
  primaryId: string;
  standbyId: string;
  compartmentId: string;
  /** Changes the PRIMARY group's members so the pair's ACTIVE plans need a refresh. */
  touchMembers(): Promise<void>;
}

/** A fresh associated pair (PRIMARY in the home region, STANDBY in the peer region). */
export async function createPair(env: Env): Promise<Pair> {
  const homeRegion = env.sandbox.homeRegion;
  const peerRegion = env.sandbox.disasterRecovery.standbyRegion;
  const home = env.dr(homeRegion);
  const peer = env.dr(peerRegion);
  const compartmentId = env.sandbox.compartmentId;
  const logLocation = { namespace: 'ns', bucket: 'dr-logs' };
  const member = (type: string, memberType: string, region: string) =>
    ({ memberId: ocid(type, region), memberType }) as drModels.CreateDrProtectionGroupMemberDetails;
  const standby = await peer.createDrProtectionGroup({
    createDrProtectionGroupDetails: {
      compartmentId,
      displayName: 'standby',
      logLocation,
      members: [member('database', 'DATABASE', peerRegion)],
    },
  });
  await finished(peer, standby.opcWorkRequestId);
  const movable = member('instance', 'COMPUTE_INSTANCE_MOVABLE', homeRegion);
  const primary = await home.createDrProtectionGroup({
    createDrProtectionGroupDetails: {
      compartmentId,
      displayName: 'primary',
      logLocation,
      members: [movable, member('volumegroup', 'VOLUME_GROUP', homeRegion)],
      association: { role: 'PRIMARY', peerId: standby.drProtectionGroup.id, peerRegion } as never,
    },
  });
  await finished(home, primary.opcWorkRequestId);
  return {
    home,
    peer,
    compartmentId,
    primaryId: primary.drProtectionGroup.id,
    standbyId: standby.drProtectionGroup.id,
    async touchMembers() {
      const r = await home.updateDrProtectionGroup({
        drProtectionGroupId: primary.drProtectionGroup.id,
        updateDrProtectionGroupDetails: { members: [movable, member('volumegroup', 'VOLUME_GROUP', homeRegion)] },
      });
      await finished(home, r.opcWorkRequestId);
    },
  };
}
