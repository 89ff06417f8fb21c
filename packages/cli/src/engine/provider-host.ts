// Hosts the provider plugins, started as Pulumi's engine starts them: the plugin binary with one
// argument (the engine's gRPC address), the port read from its first stdout line, then Handshake →
// GetPluginInfo → CheckConfig → DiffConfig → Configure. Pulumi starts a process per provider
// resource; ocikit starts one and asks it for the other providers (its StartProvider, see the
// plugin's instances.ts), each on a port of its own, and falls back to a process each for a
// plugin that does not answer it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as grpc from '@grpc/grpc-js';
import {
  CREATE_KEY_HEADER,
  engineCodec,
  START_PROVIDER_PATH,
  startProviderCodec,
  type EngineMessage,
} from '@ocikit/pulumi-resource-oci';
import { trace } from './trace';
import { stripSecrets, unwrapSecret, type Props } from './values';

export interface DiffResult {
  changes: 'unknown' | 'none' | 'some';
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  diffs: string[];
  detailedDiff?: Record<string, { kind: number; inputDiff: boolean }>;
}

export interface CheckResult {
  inputs: Props;
  failures: Array<{ property: string; reason: string }>;
}

/** A provider call that created (or changed) a resource but failed to finish it (ErrorResourceInitFailed). */
export class InitFailedError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
    readonly reasons: string[],
    readonly inputs?: Props,
  ) {
    super(message);
  }
}

/** Pulumi's plugin.DiffUnavailableError: the step generator takes the diff as some change and warns. */
export class DiffUnavailableError extends Error {}

/**
 * A provider whose configuration holds unknowns (a preview, an input from another resource's
 * output) is not configured, and is answered as Pulumi's plugin host answers for it
 * (pkg/resource/plugin/provider_plugin.go: Configure leaves `known` false; then Check returns the
 * news, Diff is unavailable, a preview's Create and Update and a Read return no outputs, Invoke
 * an empty result), without asking the plugin, which has no region or credentials to ask OCI with.
 */
export function unconfiguredPlugin(plugin: ProviderPlugin): ProviderPlugin {
  return Object.assign(Object.create(plugin) as ProviderPlugin, {
    supportsPreview: true,
    check: async (_urn: string, _name: string, _type: string, _olds: Props | undefined, news: Props) => ({
      inputs: news,
      failures: [],
    }),
    diff: async () => {
      throw new DiffUnavailableError(
        'The provider for this resource has inputs that are not known during preview.\n' +
          'This preview may not correctly represent the changes that will be applied during an update.',
      );
    },
    create: async () => ({ id: '', properties: {} }),
    read: async (_urn: string, _name: string, _type: string, id: string) => ({ id, properties: {} }),
    update: async () => ({}),
    invoke: async () => ({ result: {}, failures: [] }),
  });
}

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

/**
 * The resource's status after a failed provider call (resource.Status, in resOpFailedEvent):
 * partly failed (1) when it was made but not initialised, unknown (2) when the plugin answered
 * Internal, DataLoss or Unknown (plugin/provider_plugin.go resourceStateAndError: the call may have
 * done anything), otherwise OK (0), the provider having refused cleanly.
 */
export function resourceStatusAfter(cause: unknown): 0 | 1 | 2 {
  if (cause instanceof InitFailedError) return 1;
  const code = cause instanceof ProviderError ? cause.code : undefined;
  return code === grpc.status.INTERNAL || code === grpc.status.DATA_LOSS || code === grpc.status.UNKNOWN ? 2 : 0;
}

/** Where the `pulumi-resource-oci` plugin's executable lives: the bin of `@ocikit/pulumi-resource-oci`. */
export function resolvePluginCommand(): string[] {
  let pkgFile: string;
  try {
    pkgFile = require.resolve('@ocikit/pulumi-resource-oci/package.json');
  } catch {
    throw new Error('the pulumi-resource-oci plugin (@ocikit/pulumi-resource-oci) is not installed');
  }
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.['pulumi-resource-oci'];
  if (!bin) throw new Error('@ocikit/pulumi-resource-oci has no pulumi-resource-oci executable (is it built?)');
  return [join(dirname(pkgFile), bin)];
}

/**
 * The ResourceProvider methods the engine calls: method → [request, response] messages, encoded
 * by the provider package's wire codec (the same one the plugin serves with) rather than through
 * google-protobuf's generated classes, which cost more CPU than the rest of the engine's work.
 */
const METHODS = {
  Handshake: ['ProviderHandshakeRequest', 'ProviderHandshakeResponse'],
  GetPluginInfo: ['Empty', 'PluginInfo'],
  CheckConfig: ['CheckRequest', 'CheckResponse'],
  DiffConfig: ['DiffRequest', 'DiffResponse'],
  Configure: ['ConfigureRequest', 'ConfigureResponse'],
  Check: ['CheckRequest', 'CheckResponse'],
  Diff: ['DiffRequest', 'DiffResponse'],
  Create: ['CreateRequest', 'CreateResponse'],
  Read: ['ReadRequest', 'ReadResponse'],
  Update: ['UpdateRequest', 'UpdateResponse'],
  Delete: ['DeleteRequest', 'Empty'],
  Invoke: ['InvokeRequest', 'InvokeResponse'],
  Cancel: ['Empty', 'Empty'],
} satisfies Record<string, [EngineMessage, EngineMessage]>;
type Method = keyof typeof METHODS;

const codecs = Object.fromEntries(
  Object.entries(METHODS).map(([m, [req, res]]) => [
    m,
    { path: `/pulumirpc.ResourceProvider/${m}`, req: engineCodec(req), res: engineCodec(res) },
  ]),
) as Record<Method, { path: string; req: ReturnType<typeof engineCodec>; res: ReturnType<typeof engineCodec> }>;
const statusCodec = engineCodec('Status');
const initFailedCodec = engineCodec('ErrorResourceInitFailed');

/** pulumirpc.DiffResponse.DiffChanges */
const DIFF_NONE = 1;
const DIFF_SOME = 2;

export interface PluginOptions {
  command: string[];
  engineAddress: string;
  env: NodeJS.ProcessEnv;
  programDir: string;
  onStderr(line: string): void;
}

/** One provider: a plugin process of its own, or an instance in another's (`host`), and its gRPC client. */
export class ProviderPlugin {
  acceptSecrets = false;
  supportsPreview = false;
  version = '';
  private child?: ChildProcess;
  private client?: grpc.Client;
  private exited = false;
  private stderrTail: string[] = [];
  /** The plugin whose process serves this instance (none: this one owns its process). */
  private host?: ProviderPlugin;
  /** The plugin process answered StartProvider with an error (not ocikit's plugin): ask no more. */
  private startsNoInstances = false;

  private constructor(private options: PluginOptions) {}

  /** The plugin's process id (its host's, for an instance). */
  get pid(): number | undefined {
    return this.host ? this.host.pid : this.child?.pid;
  }

  /** Whether the process still runs (a plugin handed to another run may have ended meanwhile). */
  get alive(): boolean {
    return !this.processExited && !!this.client;
  }

  private get processExited(): boolean {
    return this.host ? this.host.processExited : this.exited;
  }

  /**
   * Serves another engine run from now on (`up`'s update, after its preview): its stderr goes to
   * that run, and the next Handshake names that run's engine, which the plugin then logs to.
   * What the previous run configured is redone by the new run's Configure before any use.
   */
  adopt(o: Pick<PluginOptions, 'engineAddress' | 'onStderr'>): ProviderPlugin {
    this.options = { ...this.options, ...o };
    this.acceptSecrets = false;
    this.supportsPreview = false;
    return this;
  }

  static async start(options: PluginOptions): Promise<ProviderPlugin> {
    const p = new ProviderPlugin(options);
    await p.launch();
    return p;
  }

  /**
   * Another provider in the process of `plugin` (ocikit's StartProvider): its own configuration
   * and clients on a port of its own, in a few milliseconds instead of a process start. Undefined
   * when the process cannot (a plugin without the method, or one that ended).
   */
  static async startAlongside(plugin: ProviderPlugin, options: PluginOptions): Promise<ProviderPlugin | undefined> {
    const host = plugin.host ?? plugin;
    if (host.startsNoInstances || !host.alive) return undefined;
    const response = await new Promise<{ port?: number } | undefined>((resolve) =>
      host.client!.makeUnaryRequest(
        START_PROVIDER_PATH,
        startProviderCodec.serialize,
        startProviderCodec.deserialize,
        {},
        new grpc.Metadata(),
        {},
        (err, res?: { port?: number }) => resolve(err ? undefined : res),
      ),
    );
    if (!Number.isInteger(response?.port) || !response!.port) {
      host.startsNoInstances = true;
      return undefined;
    }
    trace.mark('plugin instance started');
    const p = new ProviderPlugin(options);
    p.host = host;
    p.connect(response!.port);
    return p;
  }

  private async launch(): Promise<void> {
    const [cmd, ...prefix] = this.options.command;
    const useNode = /\.(c?js|ts)$/.test(cmd);
    const file = useNode ? process.execPath : cmd;
    const args = useNode
      ? [...(cmd.endsWith('.ts') ? ['--import', 'tsx'] : []), cmd, ...prefix, this.options.engineAddress]
      : [...prefix, this.options.engineAddress];
    trace.mark('plugin spawned');
    const child = spawn(file, args, {
      env: this.options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: this.options.programDir,
      // Its own process group, as Pulumi starts plugins: a terminal's Ctrl-C reaches ocikit only,
      // which cancels (Cancel RPC) and lets the operations in flight finish and be recorded. In
      // ocikit's group the plugin died with its creates in flight, and the state forgot them.
      detached: true,
    });
    this.child = child;
    child.stderr!.setEncoding('utf8');
    let errBuf = '';
    child.stderr!.on('data', (d: string) => {
      errBuf += d;
      const lines = errBuf.split('\n');
      errBuf = lines.pop() ?? '';
      for (const l of lines) {
        this.stderrTail = [...this.stderrTail.slice(-19), l];
        this.options.onStderr(l);
      }
    });
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      const onData = (d: Buffer) => {
        out += d.toString('utf8');
        const nl = out.indexOf('\n');
        if (nl < 0) return;
        const port = Number(out.slice(0, nl).trim());
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        if (Number.isInteger(port) && port > 0) resolve(port);
        else reject(new Error(`pulumi-resource-oci printed '${out.slice(0, nl).trim()}' instead of its port`));
      };
      child.stdout!.on('data', onData);
      child.once('error', (e) => reject(new Error(`could not start pulumi-resource-oci: ${e.message}`)));
      child.once('exit', (code) => {
        this.exited = true;
        reject(
          new Error(
            `pulumi-resource-oci exited (code ${code}) before it listened: ${this.stderrTail.slice(-3).join(' ')}`,
          ),
        );
      });
    });
    child.on('exit', () => (this.exited = true));
    trace.mark('plugin port read');
    this.connect(port);
  }

  private connect(port: number): void {
    this.client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': 400 * 1024 * 1024,
      'grpc.max_send_message_length': 400 * 1024 * 1024,
    });
  }

  private call(method: Method, req: Props, metadata = new grpc.Metadata()): Promise<Props> {
    const t0 = trace.enabled ? performance.now() : 0;
    const c = codecs[method];
    return new Promise((resolve, reject) => {
      this.client!.makeUnaryRequest(c.path, c.req.serialize, c.res.deserialize, req, metadata, {}, (err, res) => {
        if (t0) trace.add(`rpc ${method}`, performance.now() - t0);
        if (!err) return resolve(res!);
        reject(this.translate(err));
      });
    });
  }

  private translate(err: grpc.ServiceError): Error {
    const raw = err.metadata?.get('grpc-status-details-bin')?.[0];
    if (raw) {
      try {
        const status = statusCodec.deserialize(raw as Buffer);
        for (const any of status.details as Array<{ typeUrl: string; value: Buffer }>) {
          if (!any.typeUrl.endsWith('pulumirpc.ErrorResourceInitFailed')) continue;
          const d = initFailedCodec.deserialize(any.value);
          return new InitFailedError(
            err.details || err.message,
            d.id as string,
            d.properties as Props,
            d.reasons as string[],
            d.inputs as Props | undefined,
          );
        }
      } catch {
        // fall through to a plain error
      }
    }
    if (this.processExited) {
      const tail = (this.host ?? this).stderrTail;
      return new ProviderError(`pulumi-resource-oci exited: ${tail.slice(-3).join(' ') || err.details}`);
    }
    return new ProviderError(err.details || err.message, err.code);
  }

  /** Outgoing properties: secrets kept only when the provider accepts them. */
  private out(props: Props | undefined): Props {
    return this.acceptSecrets ? (props ?? {}) : (stripSecrets(props ?? {}) as Props);
  }

  async handshake(): Promise<void> {
    try {
      await this.call('Handshake', {
        engineAddress: this.options.engineAddress,
        rootDirectory: this.options.programDir,
        programDirectory: this.options.programDir,
        configureWithUrn: true,
        invokeWithPreview: true,
      });
    } catch (e) {
      if (!(e instanceof ProviderError && e.code === grpc.status.UNIMPLEMENTED)) throw e;
    }
    try {
      const info = await this.call('GetPluginInfo', {});
      this.version = info.version as string;
    } catch {
      this.version = '';
    }
    trace.mark('plugin handshake done');
  }

  async checkConfig(urn: string, name: string, type: string, olds: Props, news: Props): Promise<CheckResult> {
    try {
      const res = await this.call('CheckConfig', { urn, name, type, olds, news });
      return { inputs: (res.inputs as Props | undefined) ?? news, failures: failures(res) };
    } catch (e) {
      if (e instanceof ProviderError && e.code === grpc.status.UNIMPLEMENTED) return { inputs: news, failures: [] };
      throw e;
    }
  }

  async diffConfig(urn: string, name: string, type: string, olds: Props, news: Props): Promise<DiffResult | undefined> {
    try {
      return diffResult(await this.call('DiffConfig', { urn, name, type, olds, oldInputs: olds, news }));
    } catch (e) {
      if (e instanceof ProviderError && e.code === grpc.status.UNIMPLEMENTED) return undefined;
      throw e;
    }
  }

  /** Configure with `args` and the deprecated `oci:config:<key>` variables, as the engine sends both. */
  async configure(pkg: string, urn: string, name: string, id: string, inputs: Props): Promise<void> {
    const variables: Record<string, string> = {};
    for (const [k, v] of Object.entries(inputs)) {
      if (k === 'version' || v === null || v === undefined) continue;
      const plain = unwrapSecret(v);
      variables[`${pkg}:config:${k}`] = typeof plain === 'string' ? plain : JSON.stringify(stripSecrets(plain));
    }
    const args = Object.fromEntries(Object.entries(inputs).filter(([k]) => k !== 'version'));
    const res = await this.call('Configure', {
      variables,
      args,
      acceptSecrets: true,
      acceptResources: false,
      sendsOldInputs: true,
      sendsOldInputsToDelete: true,
      urn,
      name,
      type: `pulumi:providers:${pkg}`,
      id,
    });
    this.acceptSecrets = res.acceptSecrets as boolean;
    this.supportsPreview = res.supportsPreview as boolean;
    trace.mark('plugin configured');
  }

  async check(urn: string, name: string, type: string, olds: Props | undefined, news: Props): Promise<CheckResult> {
    const res = await this.call('Check', {
      urn,
      name,
      type,
      // No olds (a replacement's Check) still goes as an empty Struct, as the Go engine marshals it.
      olds: this.out(olds ?? {}),
      news: this.out(news),
      randomSeed: randomBytes(32),
    });
    return { inputs: (res.inputs as Props | undefined) ?? news, failures: failures(res) };
  }

  async diff(
    urn: string,
    name: string,
    type: string,
    id: string,
    olds: Props,
    news: Props,
    oldInputs: Props,
    ignoreChanges: string[],
  ): Promise<DiffResult> {
    return diffResult(
      await this.call('Diff', {
        urn,
        name,
        type,
        id,
        olds: this.out(olds),
        news: this.out(news),
        oldInputs: this.out(oldInputs),
        ignoreChanges,
      }),
    );
  }

  /**
   * `createKey`: the create's key (its `created` time), sent as `ocikit-create-key` metadata; our
   * plugin derives the create's OCI retry token from it, so the same create sent again after an
   * interrupted run is answered with the resource it made (see resolvePending). Other plugins
   * ignore it.
   */
  async create(
    urn: string,
    name: string,
    type: string,
    props: Props,
    timeout: number | undefined,
    preview: boolean,
    createKey?: string,
  ): Promise<{ id: string; properties: Props }> {
    const metadata = new grpc.Metadata();
    if (createKey) metadata.set(CREATE_KEY_HEADER, createKey);
    const res = await this.call('Create', { urn, name, type, properties: this.out(props), timeout, preview }, metadata);
    return { id: res.id as string, properties: res.properties as Props };
  }

  async read(
    urn: string,
    name: string,
    type: string,
    id: string,
    props: Props | undefined,
    inputs: Props | undefined,
  ): Promise<{ id: string; properties: Props; inputs?: Props }> {
    const res = await this.call('Read', {
      urn,
      name,
      type,
      id,
      properties: props ? this.out(props) : undefined,
      inputs: inputs ? this.out(inputs) : undefined,
    });
    return { id: res.id as string, properties: res.properties as Props, inputs: res.inputs as Props | undefined };
  }

  async update(
    urn: string,
    name: string,
    type: string,
    id: string,
    olds: Props,
    news: Props,
    oldInputs: Props,
    timeout: number | undefined,
    ignoreChanges: string[],
    preview: boolean,
  ): Promise<Props> {
    const res = await this.call('Update', {
      urn,
      name,
      type,
      id,
      olds: this.out(olds),
      news: this.out(news),
      oldInputs: this.out(oldInputs),
      timeout,
      ignoreChanges,
      preview,
    });
    return res.properties as Props;
  }

  async delete(
    urn: string,
    name: string,
    type: string,
    id: string,
    props: Props,
    oldInputs: Props,
    timeout?: number,
  ): Promise<void> {
    await this.call('Delete', {
      urn,
      name,
      type,
      id,
      properties: this.out(props),
      oldInputs: this.out(oldInputs),
      timeout,
    });
  }

  async invoke(
    tok: string,
    args: Props,
    preview: boolean,
  ): Promise<{ result: Props; failures: Array<{ property: string; reason: string }> }> {
    const res = await this.call('Invoke', { tok, args: this.out(args), preview });
    return { result: res.return as Props, failures: failures(res) };
  }

  async cancel(): Promise<void> {
    if (this.processExited || !this.client) return;
    await this.call('Cancel', {}).catch(() => undefined);
  }

  /**
   * Closes the client and ends the process (SIGTERM, then SIGKILL if it lingers). An instance
   * only closes its client: its process ends with its host's stop (a run stops all its plugins).
   */
  async stop(): Promise<void> {
    this.client?.close();
    const child = this.child;
    if (!child || this.exited) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}

function failures(res: Props): Array<{ property: string; reason: string }> {
  return (res.failures as Array<{ property: string; reason: string }>).map((f) => ({
    property: f.property,
    reason: f.reason,
  }));
}

function diffResult(res: Props): DiffResult {
  const changes = res.changes as number;
  const detailed = res.detailedDiff as Record<string, { kind: number; inputDiff: boolean } | undefined>;
  return {
    changes: changes === DIFF_NONE ? 'none' : changes === DIFF_SOME ? 'some' : 'unknown',
    replaces: res.replaces as string[],
    stables: res.stables as string[],
    deleteBeforeReplace: res.deleteBeforeReplace as boolean,
    diffs: res.diffs as string[],
    // A map entry whose value is at its defaults has no value message on the wire.
    detailedDiff: res.hasDetailedDiff
      ? Object.fromEntries(
          Object.entries(detailed).map(([k, v]) => [k, { kind: v?.kind ?? 0, inputDiff: v?.inputDiff ?? false }]),
        )
      : undefined,
  };
}

/**
 * The run's plugins. The first plugin process starts ahead of need: it takes ~0.5 s of CPU to
 * start (Node, the OCI SDK, gRPC), which would otherwise wait for the program's first
 * registration of a provider, itself a second or more after the program starts; it starts (and
 * handshakes) while the program boots. Every other provider is an instance in that process,
 * started when taken (StartProvider: milliseconds); a process of its own only when the plugin
 * cannot host one. A first plugin never taken is stopped at `close`.
 */
export class PluginPool {
  /** The first plugin, started by `warm` and not taken yet. */
  private spare?: Promise<ProviderPlugin>;
  /** The first plugin process, which later providers start in. */
  private first?: Promise<ProviderPlugin | undefined>;
  /** Every plugin handed out, for cancel and stop. */
  readonly taken: ProviderPlugin[] = [];
  /** Running plugins of the command's previous run, used before any new one is started. */
  private adopted: ProviderPlugin[];

  constructor(
    private readonly options: Omit<PluginOptions, 'engineAddress'> & { engineAddress: () => string },
    adopted: ProviderPlugin[] = [],
  ) {
    this.adopted = adopted.filter((p) => p.alive);
  }

  /** A handshaken plugin: an adopted one if any is left (a new process if it fails), else a new process. */
  private async launch(): Promise<ProviderPlugin> {
    const engineAddress = this.options.engineAddress();
    const adopted = this.adopted.shift();
    const p = adopted
      ? adopted.adopt({ engineAddress, onStderr: this.options.onStderr })
      : await ProviderPlugin.start({ ...this.options, engineAddress });
    try {
      await p.handshake();
      return p;
    } catch (e) {
      await p.stop();
      // A handed-over plugin that ended meanwhile is replaced, as if there had been none.
      if (adopted) return this.launch();
      throw e;
    }
  }

  /** `launch`, remembered as the process later instances start in when it is the first. */
  private launchFirst(): Promise<ProviderPlugin> {
    const p = this.launch();
    this.first ??= p.catch(() => undefined);
    return p;
  }

  /** The next plugin: an adopted one, else an instance in the first process, else a new process. */
  private async next(): Promise<ProviderPlugin> {
    const host = this.adopted.length ? undefined : await this.first;
    if (!host) return this.launchFirst();
    const engineAddress = this.options.engineAddress();
    const p = await ProviderPlugin.startAlongside(host, { ...this.options, engineAddress });
    if (!p) return this.launch();
    try {
      await p.handshake();
      return p;
    } catch {
      await p.stop();
      return this.launch();
    }
  }

  private closed = false;

  /** Starts the first plugin now, when the run will (probably) need one. */
  warm(): void {
    if (this.closed || this.first) return;
    this.spare = this.launchFirst();
    this.spare.catch(() => undefined);
  }

  async take(): Promise<ProviderPlugin> {
    const spare = this.spare;
    this.spare = undefined;
    const plugin = await (spare ?? this.next());
    // The run ended while this plugin was starting (a failure elsewhere, as the program still
    // registered): nobody will stop it, so it is stopped here rather than left running.
    if (this.closed) {
      await plugin.stop();
      throw new Error('the run ended before its provider plugin had started');
    }
    this.taken.push(plugin);
    return plugin;
  }

  /** Stops the plugins nobody took (the taken ones are their owner's to stop). */
  async close(): Promise<void> {
    await Promise.all((await this.release()).map((p) => p.stop()));
  }

  /** Closes the pool and gives up its running spare (and adopted plugins it never used), unstopped. */
  async release(): Promise<ProviderPlugin[]> {
    this.closed = true;
    const spare = this.spare;
    this.spare = undefined;
    const adopted = this.adopted;
    this.adopted = [];
    const started = await spare?.catch(() => undefined);
    return started ? [...adopted, started] : adopted;
  }
}

/**
 * Plugin processes carried from one engine run of a command to the next: `up`, `refresh` and
 * `destroy` run a preview and then the operation, each an engine run. Pulumi starts every
 * plugin again for the second run; ocikit hands the preview's running plugins to it instead
 * (each gets a new Handshake, naming the new run's engine, and is configured again before use),
 * so the operation does not wait for Node to start and load the OCI SDK again.
 */
export class PluginHandover {
  private kept: ProviderPlugin[] = [];

  /** What a run leaves for the next one. */
  keep(plugins: ProviderPlugin[]): void {
    this.kept.push(...plugins.filter((p) => p.alive));
  }

  /** Everything kept, for the next run (which stops them when it ends). */
  take(): ProviderPlugin[] {
    const kept = this.kept;
    this.kept = [];
    return kept;
  }

  /** Stops what no run took (the command ends after its preview). */
  async stop(): Promise<void> {
    await Promise.all(this.take().map((p) => p.stop()));
  }
}
