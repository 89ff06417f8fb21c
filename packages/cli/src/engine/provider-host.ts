// Hosts one provider plugin process per provider resource, started as Pulumi's engine starts it:
// the plugin binary with one argument (the engine's gRPC address), the port read from its first
// stdout line, then Handshake → GetPluginInfo → CheckConfig → DiffConfig → Configure.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as grpc from '@grpc/grpc-js';
import { Empty } from 'google-protobuf/google/protobuf/empty_pb';
import * as providerRpc from '@pulumi/pulumi/proto/provider_grpc_pb';
import * as provider from '@pulumi/pulumi/proto/provider_pb';
import * as statusPb from '@pulumi/pulumi/proto/status_pb';
import { trace } from './trace';
import { fromStruct, stripSecrets, toStruct, unwrapSecret, type Props } from './values';

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

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
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

type Unary<Req, Res> = (
  req: Req,
  md: grpc.Metadata,
  opts: Partial<grpc.CallOptions>,
  cb: (e: grpc.ServiceError | null, r: Res) => void,
) => unknown;

export interface PluginOptions {
  command: string[];
  engineAddress: string;
  env: NodeJS.ProcessEnv;
  programDir: string;
  onStderr(line: string): void;
}

/** One running plugin process and its gRPC client. */
export class ProviderPlugin {
  acceptSecrets = false;
  supportsPreview = false;
  version = '';
  private child?: ChildProcess;
  private client?: providerRpc.ResourceProviderClient;
  private exited = false;
  private stderrTail: string[] = [];

  private constructor(private readonly options: PluginOptions) {}

  static async start(options: PluginOptions): Promise<ProviderPlugin> {
    const p = new ProviderPlugin(options);
    await p.launch();
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
    this.client = new providerRpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': 400 * 1024 * 1024,
      'grpc.max_send_message_length': 400 * 1024 * 1024,
    });
  }

  private call<Req, Res>(method: Unary<Req, Res>, req: Req, name = ''): Promise<Res> {
    const t0 = trace.enabled ? performance.now() : 0;
    return new Promise((resolve, reject) => {
      method.call(this.client, req, new grpc.Metadata(), {}, (err, res) => {
        if (t0) trace.add(`rpc ${name}`, performance.now() - t0);
        if (!err) return resolve(res);
        reject(this.translate(err));
      });
    });
  }

  private translate(err: grpc.ServiceError): Error {
    const raw = err.metadata?.get('grpc-status-details-bin')?.[0];
    if (raw) {
      try {
        const status = statusPb.Status.deserializeBinary(new Uint8Array(raw as Buffer));
        for (const any of status.getDetailsList()) {
          if (!any.getTypeUrl().endsWith('pulumirpc.ErrorResourceInitFailed')) continue;
          const d = provider.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
          return new InitFailedError(
            err.details || err.message,
            d.getId(),
            fromStruct(d.getProperties()),
            d.getReasonsList(),
            d.hasInputs() ? fromStruct(d.getInputs()) : undefined,
          );
        }
      } catch {
        // fall through to a plain error
      }
    }
    if (this.exited)
      return new ProviderError(`pulumi-resource-oci exited: ${this.stderrTail.slice(-3).join(' ') || err.details}`);
    return new ProviderError(err.details || err.message, err.code);
  }

  /** Outgoing properties: secrets kept only when the provider accepts them. */
  private out(props: Props | undefined): ReturnType<typeof toStruct> {
    return toStruct((this.acceptSecrets ? props : stripSecrets(props ?? {})) as Props);
  }

  async handshake(): Promise<void> {
    const req = new provider.ProviderHandshakeRequest();
    req.setEngineAddress(this.options.engineAddress);
    req.setRootDirectory(this.options.programDir);
    req.setProgramDirectory(this.options.programDir);
    req.setConfigureWithUrn(true);
    req.setInvokeWithPreview(true);
    try {
      await this.call(this.client!.handshake, req, 'handshake');
    } catch (e) {
      if (!(e instanceof ProviderError && e.code === grpc.status.UNIMPLEMENTED)) throw e;
    }
    try {
      const info = await this.call(this.client!.getPluginInfo, new Empty(), 'getPluginInfo');
      this.version = info.getVersion();
    } catch {
      this.version = '';
    }
    trace.mark('plugin handshake done');
  }

  async checkConfig(urn: string, name: string, type: string, olds: Props, news: Props): Promise<CheckResult> {
    const req = new provider.CheckRequest();
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    try {
      const res = await this.call(this.client!.checkConfig, req, 'checkConfig');
      return {
        inputs: res.hasInputs() ? fromStruct(res.getInputs()) : news,
        failures: failures(res.getFailuresList()),
      };
    } catch (e) {
      if (e instanceof ProviderError && e.code === grpc.status.UNIMPLEMENTED) return { inputs: news, failures: [] };
      throw e;
    }
  }

  async diffConfig(urn: string, name: string, type: string, olds: Props, news: Props): Promise<DiffResult | undefined> {
    const req = new provider.DiffRequest();
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setOlds(toStruct(olds));
    req.setOldInputs(toStruct(olds));
    req.setNews(toStruct(news));
    try {
      return diffResult(await this.call(this.client!.diffConfig, req, 'diffConfig'));
    } catch (e) {
      if (e instanceof ProviderError && e.code === grpc.status.UNIMPLEMENTED) return undefined;
      throw e;
    }
  }

  /** Configure with `args` and the deprecated `oci:config:<key>` variables, as the engine sends both. */
  async configure(pkg: string, urn: string, name: string, id: string, inputs: Props): Promise<void> {
    const req = new provider.ConfigureRequest();
    const vars = req.getVariablesMap();
    for (const [k, v] of Object.entries(inputs)) {
      if (k === 'version' || v === null || v === undefined) continue;
      const plain = unwrapSecret(v);
      vars.set(`${pkg}:config:${k}`, typeof plain === 'string' ? plain : JSON.stringify(stripSecrets(plain)));
    }
    const args = Object.fromEntries(Object.entries(inputs).filter(([k]) => k !== 'version'));
    req.setArgs(toStruct(args));
    req.setAcceptsecrets(true);
    req.setAcceptresources(false);
    req.setSendsOldInputs(true);
    req.setSendsOldInputsToDelete(true);
    req.setUrn(urn);
    req.setName(name);
    req.setType(`pulumi:providers:${pkg}`);
    req.setId(id);
    const res = await this.call(this.client!.configure, req, 'configure');
    this.acceptSecrets = res.getAcceptsecrets();
    this.supportsPreview = res.getSupportspreview();
    trace.mark('plugin configured');
  }

  async check(urn: string, name: string, type: string, olds: Props | undefined, news: Props): Promise<CheckResult> {
    const req = new provider.CheckRequest();
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    // No olds (a replacement's Check) still goes as an empty Struct, as the Go engine marshals it.
    req.setOlds(this.out(olds ?? {}));
    req.setNews(this.out(news));
    req.setRandomseed(randomBytes(32));
    const res = await this.call(this.client!.check, req, 'check');
    return { inputs: res.hasInputs() ? fromStruct(res.getInputs()) : news, failures: failures(res.getFailuresList()) };
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
    const req = new provider.DiffRequest();
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setId(id);
    req.setOlds(this.out(olds));
    req.setNews(this.out(news));
    req.setOldInputs(this.out(oldInputs));
    req.setIgnorechangesList(ignoreChanges);
    return diffResult(await this.call(this.client!.diff, req, 'diff'));
  }

  async create(
    urn: string,
    name: string,
    type: string,
    props: Props,
    timeout: number | undefined,
    preview: boolean,
  ): Promise<{ id: string; properties: Props }> {
    const req = new provider.CreateRequest();
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setProperties(this.out(props));
    if (timeout) req.setTimeout(timeout);
    req.setPreview(preview);
    const res = await this.call(this.client!.create, req, 'create');
    return { id: res.getId(), properties: fromStruct(res.getProperties()) };
  }

  async read(
    urn: string,
    name: string,
    type: string,
    id: string,
    props: Props | undefined,
    inputs: Props | undefined,
  ): Promise<{ id: string; properties: Props; inputs?: Props }> {
    const req = new provider.ReadRequest();
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setId(id);
    if (props) req.setProperties(this.out(props));
    if (inputs) req.setInputs(this.out(inputs));
    const res = await this.call(this.client!.read, req, 'read');
    return {
      id: res.getId(),
      properties: fromStruct(res.getProperties()),
      inputs: res.hasInputs() ? fromStruct(res.getInputs()) : undefined,
    };
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
    const req = new provider.UpdateRequest();
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setId(id);
    req.setOlds(this.out(olds));
    req.setNews(this.out(news));
    req.setOldInputs(this.out(oldInputs));
    if (timeout) req.setTimeout(timeout);
    req.setIgnorechangesList(ignoreChanges);
    req.setPreview(preview);
    const res = await this.call(this.client!.update, req, 'update');
    return fromStruct(res.getProperties());
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
    const req = new provider.DeleteRequest();
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setId(id);
    req.setProperties(this.out(props));
    req.setOldInputs(this.out(oldInputs));
    if (timeout) req.setTimeout(timeout);
    await this.call(this.client!.delete, req, 'delete');
  }

  async invoke(
    tok: string,
    args: Props,
    preview: boolean,
  ): Promise<{ result: Props; failures: Array<{ property: string; reason: string }> }> {
    const req = new provider.InvokeRequest();
    req.setTok(tok);
    req.setArgs(this.out(args));
    req.setPreview(preview);
    const res = await this.call(this.client!.invoke, req, 'invoke');
    return { result: fromStruct(res.getReturn()), failures: failures(res.getFailuresList()) };
  }

  async cancel(): Promise<void> {
    if (this.exited || !this.client) return;
    await this.call(this.client.cancel, new Empty(), 'cancel').catch(() => undefined);
  }

  /** Closes the client and ends the process (SIGTERM, then SIGKILL if it lingers). */
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

function failures(list: provider.CheckFailure[]): Array<{ property: string; reason: string }> {
  return list.map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
}

function diffResult(res: provider.DiffResponse): DiffResult {
  const changes = res.getChanges();
  const detailed: Record<string, { kind: number; inputDiff: boolean }> = {};
  res.getDetaileddiffMap().forEach((v, k) => {
    detailed[k] = { kind: v.getKind(), inputDiff: v.getInputdiff() };
  });
  return {
    changes:
      changes === provider.DiffResponse.DiffChanges.DIFF_NONE
        ? 'none'
        : changes === provider.DiffResponse.DiffChanges.DIFF_SOME
          ? 'some'
          : 'unknown',
    replaces: res.getReplacesList(),
    stables: res.getStablesList(),
    deleteBeforeReplace: res.getDeletebeforereplace(),
    diffs: res.getDiffsList(),
    detailedDiff: res.getHasdetaileddiff() ? detailed : undefined,
  };
}

/**
 * Plugin processes, started ahead of need: a plugin takes ~0.5 s of CPU to start (Node, the OCI
 * SDK, gRPC), which otherwise waits for the program's first registration of a provider, itself
 * seconds after the program starts. Spares start (and handshake) while the program boots;
 * `take` hands out a spare or starts a new plugin. Spares never taken are stopped at `close`.
 */
export class PluginPool {
  private spares: Array<Promise<ProviderPlugin>> = [];
  /** Every plugin handed out, for cancel and stop. */
  readonly taken: ProviderPlugin[] = [];

  constructor(private readonly options: Omit<PluginOptions, 'engineAddress'> & { engineAddress: () => string }) {}

  private launch(): Promise<ProviderPlugin> {
    return ProviderPlugin.start({ ...this.options, engineAddress: this.options.engineAddress() }).then(async (p) => {
      try {
        await p.handshake();
        return p;
      } catch (e) {
        await p.stop();
        throw e;
      }
    });
  }

  /** Starts `n` spares (none past the first failure: `take` reports it). */
  warm(n: number): void {
    for (let i = 0; i < n; i++) {
      const p = this.launch();
      p.catch(() => undefined);
      this.spares.push(p);
    }
  }

  async take(): Promise<ProviderPlugin> {
    const plugin = await (this.spares.shift() ?? this.launch());
    this.taken.push(plugin);
    return plugin;
  }

  /** Stops the spares nobody took (the taken ones are their owner's to stop). */
  async close(): Promise<void> {
    const spares = this.spares;
    this.spares = [];
    await Promise.all(spares.map((s) => s.then((p) => p.stop()).catch(() => undefined)));
  }
}
