// Stack state: one file per stack under <programDir>/.ocikit/stacks/<stack>.json, in Pulumi's
// checkpoint format (apitype.CheckpointV3 on disk, apitype.UntypedDeployment for export), with a
// lock file against a concurrent run and a backup of the previous version.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { HookBinding } from './hooks';
import { trace } from './trace';
import { isObject, isSecret, secretSig, sigKey, type Props } from './values';
import { StackLockedError, type Crypter, type StackState } from './types';
import { processAlive } from '../process-alive';
import { APITYPE_MAPS, goJson, goTimeJson } from '../go-json';
import { removeBackups, removeHistory, unixNanos } from './history';
import { envFlag } from '../env';
import { deleteStackTags } from './stack-tags';

/** apitype.ResourceV3, with property values in wire form (secrets as plain secret objects). */
export interface ResourceState {
  urn: string;
  custom: boolean;
  delete?: boolean;
  id?: string;
  type: string;
  inputs: Props;
  outputs: Props;
  parent?: string;
  protect?: boolean;
  /** `state taint`: the next update replaces it (step_generator.go isTargetedReplace). */
  taint?: boolean;
  external?: boolean;
  dependencies?: string[];
  initErrors?: string[];
  provider?: string;
  /** Each input's dependencies; `null` (Go's nil slice) as a migrated version 1 or 2 deployment has it. */
  propertyDependencies?: Record<string, string[] | null>;
  pendingReplacement?: boolean;
  additionalSecretOutputs?: string[];
  customTimeouts?: { create?: number; update?: number; delete?: number };
  importID?: string;
  retainOnDelete?: boolean;
  ignoreChanges?: string[];
  replaceOnChanges?: string[];
  aliases?: string[];
  deletedWith?: string;
  replaceWith?: string[];
  replacementTrigger?: unknown;
  /** Hook names by type (hooks.ts), so delete hooks run once the program no longer declares the resource. */
  resourceHooks?: HookBinding;
  created?: string;
  modified?: string;
  /** `project:///index.ts#12,5`: where the program registered it (source-position.ts). */
  sourcePosition?: string;
}

/**
 * The order a resource's fields are written in, which a step that learns one later (a create's
 * `id`) must not change: Go's encoder writes a struct's fields as declared, here as ResourceV3
 * declares them (sdk/go/common/apitype/core.go: … additionalSecretOutputs, aliases,
 * customTimeouts, importID, retainOnDelete, deletedWith, created, modified, sourcePosition,
 * ignoreChanges, replaceOnChanges); `taint` after `protect`, where SerializeResource
 * (pkg/resource/stack/deployment.go) and resource.State list it.
 */
const RESOURCE_FIELDS: ReadonlyArray<keyof ResourceState> = [
  'urn',
  'custom',
  'delete',
  'id',
  'type',
  'inputs',
  'outputs',
  'parent',
  'protect',
  'taint',
  'external',
  'dependencies',
  'initErrors',
  'provider',
  'propertyDependencies',
  'pendingReplacement',
  'additionalSecretOutputs',
  'aliases',
  'customTimeouts',
  'importID',
  'retainOnDelete',
  'deletedWith',
  'created',
  'modified',
  'sourcePosition',
  'ignoreChanges',
  'replaceOnChanges',
  // Fields newer than the ResourceV3 read for this order, after it in the order ocikit had.
  'replaceWith',
  'replacementTrigger',
  'resourceHooks',
];
const knownField = new Set<string>(RESOURCE_FIELDS);

/**
 * The features a deployment needs, as Pulumi's ApplyFeatures (pkg/resource/stack/deployment.go)
 * finds them in its resources (not its pending operations), sorted: `hooks` for a resource with
 * resource hooks, `taint` for a tainted one (and `refreshBeforeUpdate` and `views`, which ocikit
 * never writes). A deployment that needs one is version 4 with its `features`, else version 3
 * (SerializeDeploymentWithMetadata), on disk (SerializeCheckpoint) as in `stack export`.
 */
export function deploymentFeatures(resources: ReadonlyArray<Partial<ResourceState>>): string[] {
  const features = new Set<string>();
  for (const r of resources) {
    if (isObject(r.resourceHooks) && Object.keys(r.resourceHooks).length > 0) features.add('hooks');
    if (r.taint === true) features.add('taint');
  }
  return [...features].sort();
}

/** The features of a version 4 deployment ocikit reads: those it writes. */
export const OCIKIT_FEATURES: readonly string[] = ['hooks', 'taint'];

/** `{ version, features, …body }`: version 4 with the features a deployment needs, else version 3 without. */
export function versioned<T extends object>(features: string[], body: T): { version: number; features?: string[] } & T {
  return features.length ? { version: 4, features, ...body } : { version: 3, ...body };
}

/**
 * ResourceV3's fields tagged `omitempty` (all but urn, custom and type): Go's encoder leaves out
 * false, "", an empty list or map, so Pulumi writes `"protect": false` or `"dependencies": []`
 * from an imported deployment as nothing. A customTimeouts is written only when one is set
 * (SerializeResource: `if res.CustomTimeouts.IsNotEmpty()`). replacementTrigger is a value, kept as it is.
 */
const OMITEMPTY = new Set<string>(
  RESOURCE_FIELDS.filter((f) => !['urn', 'custom', 'type', 'replacementTrigger'].includes(f)),
);

function isEmpty(key: string, value: unknown): boolean {
  if (value === false || value === '' || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (!isObject(value)) return false;
  if (key === 'customTimeouts') return Object.values(value).every((v) => !v);
  return Object.keys(value).length === 0;
}

/** A resource's fields in ResourceV3's order, then any other it holds (as it holds them). */
function fieldOrder(r: ResourceState): Array<keyof ResourceState> {
  const others = Object.keys(r).filter((k) => !knownField.has(k)) as Array<keyof ResourceState>;
  return others.length ? [...RESOURCE_FIELDS, ...others] : [...RESOURCE_FIELDS];
}

/** A resource as the state file holds it (apitype.ResourceV3: empty inputs and outputs left out). */
type WrittenResource = Omit<ResourceState, 'inputs' | 'outputs'> & Partial<Pick<ResourceState, 'inputs' | 'outputs'>>;

export type PendingKind = 'creating' | 'updating' | 'deleting' | 'reading' | 'importing';

/** apitype.OperationV2 */
export interface PendingOperation {
  resource: ResourceState;
  type: PendingKind;
}

/** apitype.ManifestV1 as a checkpoint holds it. */
export interface Manifest {
  time?: string;
  magic?: string;
  version?: string;
  plugins?: Array<{ name?: string; path?: string; type?: string; version?: string }>;
}

/** The parts of apitype.DeploymentV3 that `stack import` keeps. */
export interface ImportedDeployment {
  manifest?: Manifest;
  resources?: ResourceState[];
  pending_operations?: PendingOperation[];
}

export interface Snapshot {
  resources: ResourceState[];
  pendingOperations: PendingOperation[];
  /** The manifest to write (an imported deployment's); a new one (this write's time, ocikit's version) when none. */
  manifest?: Manifest;
}

/** What wrote the state: a manifest's `version`, and a history record's `pulumi.version`. */
export const engineVersion = 'ocikit-0.1.0';
/** Stands for the resources array in the skeleton of the checkpoint's text (see serialize). */
const resourcesMark = '@@ocikit-resources@@';
/** Indentation of an item of `checkpoint.latest.resources` in the file (4 spaces a level). */
const itemIndent = ' '.repeat(16);
const itemSeparator = Buffer.from(',\n');

/** Buffers per writev: below every system's IOV_MAX (1024 on Linux). */
const WRITEV_BATCH = 512;

/**
 * Writes `parts` to a new file (mode 0600), as writeFile writes their concatenation, without
 * copying them into one buffer first: a 100-resource state is a megabyte or more, written after
 * every step. A short write (writev may write less than asked) goes on from where it stopped.
 */
async function writeParts(file: string, parts: Buffer[]): Promise<void> {
  const handle = await open(file, 'w', 0o600);
  try {
    for (let i = 0; i < parts.length; i += WRITEV_BATCH) {
      const batch = parts.slice(i, i + WRITEV_BATCH);
      while (batch.length > 0) {
        let { bytesWritten } = await handle.writev(batch);
        while (batch.length > 0 && bytesWritten >= batch[0].length) bytesWritten -= batch.shift()!.length;
        if (bytesWritten > 0) batch[0] = batch[0].subarray(bytesWritten);
      }
    }
  } finally {
    await handle.close();
  }
}

/**
 * PULUMI_DIY_BACKEND_RETAIN_CHECKPOINTS (or its older name PULUMI_RETAIN_CHECKPOINTS), read at
 * each write as the DIY backend's saveCheckpoint reads it.
 */
function retainCheckpoints(): boolean {
  return envFlag('PULUMI_DIY_BACKEND_RETAIN_CHECKPOINTS', 'PULUMI_RETAIN_CHECKPOINTS');
}

/**
 * Runs `write`, which fills `tmp` and renames it into place; if it fails, `tmp` goes, as Pulumi's
 * DIY backend leaves no temporary file after a failed write (bucket.WriteAll closes gocloud's
 * fileblob writer, whose Close removes its temporary file: blob/fileblob/fileblob.go writer.Close).
 */
function removedOnFailure(tmp: string, write: () => void): void {
  try {
    write();
  } catch (e) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // The write's own error says more.
    }
    throw e;
  }
}

export class FileStackState implements StackState {
  readonly dir: string;
  readonly file: string;
  readonly lockFile: string;
  /** The takeover guard of a stale lock (see removeStaleLock). */
  private readonly takeoverGuard: string;
  readonly backupFile: string;
  private locked = false;
  /** Pulumi.<stack>.yaml's salt, read once per run (not once per write). */
  private saltCache?: { value: string | undefined };
  private encryptedSinceSaltRead = false;

  constructor(
    readonly programDir: string,
    readonly stack: string,
    private readonly crypter?: Crypter,
    /** Pulumi.<stack>.yaml (it holds the salt): beside Pulumi.yaml unless the project says otherwise. */
    private readonly stackConfigFile = join(programDir, `Pulumi.${stack}.yaml`),
  ) {
    this.dir = join(programDir, '.ocikit', 'stacks');
    this.file = join(this.dir, `${stack}.json`);
    this.lockFile = join(this.dir, `${stack}.lock`);
    this.takeoverGuard = `${this.lockFile}.takeover`;
    this.backupFile = join(this.dir, `${stack}.json.bak`);
  }

  lock(): void {
    if (this.locked) return;
    mkdirSync(this.dir, { recursive: true });
    const mine = { pid: process.pid, host: hostname(), time: new Date().toISOString() };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(this.lockFile, JSON.stringify(mine), { flag: 'wx' });
        this.locked = true;
        this.removeDeadWrites();
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = readLock(this.lockFile);
      // A lock left by a process of this host that no longer runs is stale: take it over.
      if (holder && holder.host === hostname() && !processAlive(holder.pid)) {
        if (this.removeStaleLock(holder)) continue;
        throw new StackLockedError(
          `stack '${this.stack}' is being taken over from a dead process by another run; if no other run is starting, delete ${this.takeoverGuard}`,
        );
      }
      const who = holder ? `process ${holder.pid} on ${holder.host} since ${holder.time}` : 'another process';
      throw new StackLockedError(
        `stack '${this.stack}' is locked by ${who} (another update is running); if it is not, delete ${this.lockFile}`,
      );
    }
    throw new StackLockedError(`stack '${this.stack}' is locked; delete ${this.lockFile} if no update is running`);
  }

  /**
   * Removes a dead process's lock, under a takeover guard (an exclusive mkdir): two runs that
   * both found it stale must not each remove it, or the second would remove the lock the first
   * had just taken and both would run. Only the same stale lock is removed. False: another run
   * holds the guard. (A guard left by a run that died in those few milliseconds is not removed
   * by age: a check-then-remove would reopen the race; the error names it.)
   */
  private removeStaleLock(stale: { pid: number; time: string }): boolean {
    const guard = this.takeoverGuard;
    try {
      mkdirSync(guard);
    } catch {
      return false;
    }
    try {
      const now = readLock(this.lockFile);
      if (now && now.pid === stale.pid && now.time === stale.time) rmSync(this.lockFile, { force: true });
    } finally {
      rmSync(guard, { recursive: true, force: true });
    }
    return true;
  }

  /** The half-written state files of runs that were killed mid-write (`<stack>.json.<pid>[.sync|.bak].tmp`). */
  private removeDeadWrites(): void {
    const prefix = `${this.stack}.json.`;
    for (const name of readdirSync(this.dir)) {
      const pid = /^(\d+)(\.sync|\.bak)?\.tmp$/.exec(name.startsWith(prefix) ? name.slice(prefix.length) : '')?.[1];
      if (pid && Number(pid) !== process.pid && !processAlive(Number(pid)))
        rmSync(join(this.dir, name), { force: true });
    }
  }

  unlock(): void {
    if (!this.locked) return;
    this.locked = false;
    rmSync(this.lockFile, { force: true });
  }

  get isLocked(): boolean {
    return this.locked;
  }

  exists(): boolean {
    return existsSync(this.file);
  }

  /**
   * The raw file: apitype.VersionedCheckpoint `{ version: 3, checkpoint: { stack, latest } }`, or
   * version 4 with the `features` it needs, its checkpoint a CheckpointV3 all the same
   * (UnmarshalVersionedCheckpointToLatestCheckpoint), with the features it names.
   */
  private readCheckpoint(): { latest?: Record<string, unknown>; features?: string[] } | undefined {
    if (!existsSync(this.file)) return undefined;
    let raw: { version?: number; features?: unknown; checkpoint?: { latest?: Record<string, unknown> } } | null;
    // Name the file, and the way back: the previous version is kept beside it.
    const restore = existsSync(this.backupFile)
      ? `; to restore the previous version: ocikit stack import --file ${this.backupFile}`
      : '';
    try {
      raw = JSON.parse(readFileSync(this.file, 'utf8')) as typeof raw;
    } catch (e) {
      throw new StackStateError(`${this.file} is not a Pulumi checkpoint: ${(e as Error).message}${restore}`);
    }
    const features = raw?.version === 4 && Array.isArray(raw.features) ? (raw.features as string[]) : undefined;
    if (
      typeof raw !== 'object' ||
      raw === null ||
      !(raw.version === 3 || (features && features.every((f) => OCIKIT_FEATURES.includes(f)))) ||
      typeof raw.checkpoint !== 'object' ||
      !raw.checkpoint
    )
      throw new StackStateError(
        `${this.file} is not a Pulumi checkpoint ocikit reads (version 3, or 4 with the features ${OCIKIT_FEATURES.join(' and ')})${restore}`,
      );
    return { latest: raw.checkpoint.latest, features };
  }

  /**
   * The latest deployment, secrets decrypted (wire form), or an empty one. With `manifest`, its
   * manifest too, as Pulumi reads it into a snapshot (`read`: deserializedManifest) or as the file
   * holds it (`raw`), for the commands that write the snapshot back unchanged or show when it was
   * made; a run leaves it out, so its writes get a new one. No manifest before the stack's first
   * update (Pulumi's nil snapshot): the way to tell a stack that has a deployment from one with
   * only its Pulumi.<stack>.yaml.
   */
  load(options: { manifest?: 'read' | 'raw' } = {}): Snapshot {
    const latest = this.readCheckpoint()?.latest;
    if (!latest) return { resources: [], pendingOperations: [] };
    const crypter = this.readerOf(latest);
    const resources = ((latest.resources as ResourceState[] | undefined) ?? []).map((r) =>
      this.decodeResource(r, crypter),
    );
    const pendingOperations = ((latest.pending_operations as PendingOperation[] | undefined) ?? []).map((op) => ({
      type: op.type,
      resource: this.decodeResource(op.resource, crypter),
    }));
    if (!options.manifest) return { resources, pendingOperations };
    const manifest = (latest.manifest as Manifest | undefined) ?? {};
    return {
      resources,
      pendingOperations,
      manifest: options.manifest === 'raw' ? manifest : deserializedManifest(manifest),
    };
  }

  /**
   * The crypter that reads a checkpoint's secrets: the one of the salt its secrets_providers names
   * (Pulumi reads a deployment with the provider it names: DeserializeDeploymentV3), which is not
   * Pulumi.<stack>.yaml's when that file was made again since. Writes use the file's salt.
   */
  private readerOf(deployment: Record<string, unknown>): Crypter | undefined {
    const salt = passphraseSalt(deployment);
    return typeof salt === 'string' && this.crypter?.forSalt ? this.crypter.forSalt(salt) : this.crypter;
  }

  /**
   * Copies the current file aside once per run, before the run changes it: to a temporary file
   * renamed over the backup, as every write of the state, so a run killed meanwhile leaves the
   * previous backup whole (Pulumi's DIY backend copies through gocloud's fileblob writer, which
   * renames a temporary file too).
   */
  backup(): void {
    if (!existsSync(this.file)) return;
    const tmp = `${this.file}.${process.pid}.bak.tmp`;
    removedOnFailure(tmp, () => {
      copyFileSync(this.file, tmp);
      renameSync(tmp, this.backupFile);
    });
  }

  /** Writes the snapshot now, synchronously: for use outside a run (a run writes with requestSave). */
  save(snapshot: Snapshot): void {
    trace.timeSync('state write', () => {
      mkdirSync(this.dir, { recursive: true });
      const tmp = `${this.file}.${process.pid}.sync.tmp`;
      const bytes = Buffer.concat(this.serialize(snapshot));
      removedOnFailure(tmp, () => {
        writeFileSync(tmp, bytes, { mode: 0o600 });
        renameSync(tmp, this.file);
      });
      if (retainCheckpoints()) writeFileSync(this.retainedFile(), bytes, { mode: 0o600 });
    });
  }

  /**
   * saveCheckpoint's copy of each write, with PULUMI_DIY_BACKEND_RETAIN_CHECKPOINTS true: the
   * same bytes as `<stack>.json.<unix nanoseconds>` beside the state file, never removed.
   */
  private retainedFile(): string {
    return `${this.file}.${unixNanos()}`;
  }

  /**
   * Asks for the state to be written; resolves once a write that began after this call (so it
   * holds every change made before it) is on disk. One write is in flight at a time and the
   * changes made meanwhile are folded into the next one, so n steps cost far fewer than n writes
   * (Pulumi's snapshot manager batches the same way) while a step still waits for its own record:
   * a pending operation is on disk before the provider is called, a result before the program
   * hears of it. `source` is read when the write starts, so it sees the latest state.
   */
  requestSave(source: () => Snapshot): Promise<void> {
    this.source = source;
    if (!this.queued) {
      let resolve!: () => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.queued = { promise, resolve, reject };
    }
    const waited = this.queued.promise;
    if (!this.draining) this.draining = this.drain();
    return waited;
  }

  /** Resolves when every requested write is on disk (rejects with the first failure since the last flush). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
    const failed = this.writeFailure;
    this.writeFailure = undefined;
    if (failed) throw failed;
  }

  /**
   * A hard exit (a second Ctrl-C) must not lose a step's record that is queued or being written:
   * write the latest state now. Only before exiting: the write in flight could land after it.
   */
  flushSync(): void {
    if (this.source && (this.queued || this.draining)) this.save(this.source());
  }

  private source?: () => Snapshot;
  private queued?: { promise: Promise<void>; resolve(): void; reject(e: unknown): void };
  private draining?: Promise<void>;
  private writeFailure?: unknown;
  private dirMade = false;

  private async drain(): Promise<void> {
    try {
      while (this.queued) {
        // Let the changes of the current turn of the event loop join this write.
        await new Promise<void>((r) => setImmediate(r));
        const batch = this.queued;
        this.queued = undefined;
        const tmp = `${this.file}.${process.pid}.tmp`;
        try {
          const t0 = trace.enabled ? performance.now() : 0;
          const parts = this.serialize(this.source!());
          // Once per run: a recursive mkdir per write was a syscall round on every step's path.
          if (!this.dirMade) await mkdir(this.dir, { recursive: true });
          this.dirMade = true;
          await writeParts(tmp, parts);
          await rename(tmp, this.file);
          if (retainCheckpoints()) await writeParts(this.retainedFile(), parts);
          if (t0) trace.add('state write', performance.now() - t0);
          batch.resolve();
        } catch (e) {
          // Nothing half-written stays (see removedOnFailure); the state file is still the last whole write.
          await rm(tmp, { force: true }).catch(() => undefined);
          this.writeFailure ??= e;
          batch.reject(e);
        }
      }
    } finally {
      this.draining = undefined;
    }
  }

  /**
   * The file's bytes, in parts: the checkpoint as Go's encoder writes it (goJson, 4 spaces: a
   * negative zero stays `-0`, as Pulumi's state keeps it), with each resource's bytes
   * kept from the previous write (resources are replaced, never changed in place, so an object's
   * text stays valid, and its secrets are not encrypted again on every write).
   */
  private serialize(snapshot: Snapshot): Buffer[] {
    // The resources are encoded first: their first secret may create the stack's salt, which the
    // skeleton's secrets_providers must then name.
    const items: Buffer[] = [Buffer.from('[\n')];
    snapshot.resources.forEach((r, i) => {
      let bytes = this.encoded.get(r);
      if (bytes === undefined) {
        const text = goJson(this.encodeResource(r), { indent: '    ', margin: itemIndent, maps: APITYPE_MAPS });
        bytes = Buffer.from(itemIndent + text);
        this.encoded.set(r, bytes);
      }
      if (i > 0) items.push(itemSeparator);
      items.push(bytes);
    });
    items.push(Buffer.from(`\n${itemIndent.slice(4)}]`));
    const deployment = this.deployment(snapshot, resourcesMark);
    const checkpoint = versioned(deploymentFeatures(snapshot.resources), {
      checkpoint: { stack: this.stack, latest: deployment },
    });
    const skeleton = goJson(checkpoint, { indent: '    ', maps: APITYPE_MAPS }) + '\n';
    const at = skeleton.indexOf(`"${resourcesMark}"`);
    if (at < 0) return [Buffer.from(skeleton)];
    return [Buffer.from(skeleton.slice(0, at)), ...items, Buffer.from(skeleton.slice(at + resourcesMark.length + 2))];
  }

  private readonly encoded = new WeakMap<ResourceState, Buffer>();

  /**
   * apitype.DeploymentV3, its fields in their declared order (manifest, secrets_providers,
   * resources, pending_operations, metadata). `resourcesAs` stands in for the resources list (see
   * serialize), which is then encoded already.
   */
  private deployment(snapshot: Snapshot, resourcesAs?: string): Record<string, unknown> {
    const out: Record<string, unknown> = {
      manifest: snapshot.manifest ?? {
        time: goTimeJson(new Date(), 'local'),
        magic: createHash('sha256').update(engineVersion).digest('hex'),
        version: engineVersion,
      },
    };
    const resources = resourcesAs ?? snapshot.resources.map((r) => this.encodeResource(r));
    const pending = snapshot.pendingOperations.map((op) => ({
      resource: this.encodeResource(op.resource),
      type: op.type,
    }));
    // Read again once something was encrypted: the first secret of a stack creates its salt.
    if (!this.saltCache || (this.saltCache.value === undefined && this.encryptedSinceSaltRead)) {
      this.saltCache = { value: this.salt() };
      this.encryptedSinceSaltRead = false;
    }
    const salt = this.saltCache.value;
    // Pulumi needs it to read the ciphertexts back (`pulumi stack import` refuses them without).
    if (salt) out.secrets_providers = { type: 'passphrase', state: { salt } };
    // No resources, no list (DeploymentV3's `resources,omitempty`): a destroyed stack's deployment.
    if (snapshot.resources.length > 0) out.resources = resources;
    if (pending.length > 0) out.pending_operations = pending;
    return withMetadata(out);
  }

  /**
   * `stack export`: the checkpoint's deployment. With `showSecrets`, as `pulumi stack export
   * --show-secrets` writes it: each secret's ciphertext becomes `plaintext` (its value as JSON,
   * written again as SerializePropertyValue writes it: an object's keys sorted),
   * which `stack import` (ocikit's and Pulumi's) reads back and encrypts again.
   */
  exportDeployment(options: { showSecrets?: boolean } = {}): unknown {
    const exported = this.exportedDeployment() as { deployment: Record<string, unknown> };
    return options.showSecrets ? this.revealed(exported, this.readerOf(exported.deployment)) : exported;
  }

  private revealed(v: unknown, crypter: Crypter | undefined): unknown {
    if (isObject(v) && v[sigKey] === secretSig && typeof v.ciphertext === 'string') {
      if (!crypter) throw new Error('the stack state holds secrets but no secrets passphrase is set');
      return { [sigKey]: secretSig, plaintext: goJson(JSON.parse(crypter.decrypt(v.ciphertext)), { sorted: true }) };
    }
    if (Array.isArray(v)) return v.map((x) => this.revealed(x, crypter));
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.revealed(x, crypter)]));
    return v;
  }

  private exportedDeployment(): unknown {
    const checkpoint = this.readCheckpoint();
    const latest = checkpoint?.latest;
    if (!latest) return { version: 3, deployment: this.deployment({ resources: [], pendingOperations: [] }) };
    // A checkpoint written before its stack had a salt: name the salt it was encrypted with.
    const salt = latest.secrets_providers ? undefined : this.salt();
    const { manifest, secrets_providers, resources, pending_operations, ...rest } = latest;
    // As Pulumi's `stack export` re-encodes the checkpoint (DIY backend ExportDeployment): in
    // DeploymentV3's order, with its metadata, whatever order an older ocikit wrote them in.
    const deployment = withMetadata({
      manifest,
      ...(secrets_providers || salt
        ? { secrets_providers: secrets_providers ?? { type: 'passphrase', state: { salt } } }
        : {}),
      ...(resources ? { resources } : {}),
      ...(pending_operations ? { pending_operations } : {}),
      ...rest,
    });
    // The version and features the checkpoint names, as the DIY backend's ExportDeployment.
    return versioned(checkpoint.features ?? [], { deployment });
  }

  /**
   * `stack import`: `deployment` (apitype.DeploymentV3, already checked) becomes this stack's
   * state and the current file its backup; its pending operations are dropped, as Pulumi's
   * SaveSnapshot drops them. Its secrets are read with `from` (the crypter of the
   * salt the deployment names) and written with this stack's own, so they move between salts.
   */
  importDeployment(deployment: ImportedDeployment, from: Crypter | undefined): void {
    const snapshot: Snapshot = {
      resources: (deployment.resources ?? []).map((r) => this.decodeResource(r, from)),
      pendingOperations: [],
      manifest: deserializedManifest(deployment.manifest ?? {}),
    };
    this.replace(snapshot);
  }

  /** An edit outside a run (`stack import`, `state …`): the current file becomes the backup. */
  replace(snapshot: Snapshot): void {
    this.backup();
    this.save(snapshot);
  }

  /**
   * `stack rm`: the state file becomes the backup (as Pulumi's DIY backend keeps one of a removed
   * stack), or goes with its backup and the backups folder when `removeBackups`; the stack's
   * history goes in any case (the DIY backend's removeStack deletes its history folder), and so do
   * its tags (removeStack's deleteStackTags) unless `keepTags` (`stack rename`: the DIY backend's
   * renameStack backs the old state up without removeStack, so its tags file stays under the old
   * name).
   */
  remove(options: { removeBackups: boolean; keepTags?: boolean }): void {
    removeHistory(this.programDir, this.stack);
    if (!options.keepTags) deleteStackTags(this.programDir, this.stack);
    if (options.removeBackups) {
      rmSync(this.backupFile, { force: true });
      removeBackups(this.programDir, this.stack);
    }
    if (!existsSync(this.file)) return;
    if (options.removeBackups) rmSync(this.file);
    else renameSync(this.file, this.backupFile);
  }

  /** How many resources the state holds (what `stack rm` refuses to leave behind). */
  resourceCount(): number {
    return ((this.readCheckpoint()?.latest?.resources as unknown[] | undefined) ?? []).length;
  }

  outputs(): Record<string, unknown> {
    return rootStackOutputs(this.load().resources) ?? {};
  }

  /** The passphrase provider's salt, from Pulumi.<stack>.yaml (`encryptionsalt`), as Pulumi records it. */
  private salt(): string | undefined {
    const file = this.stackConfigFile;
    if (!existsSync(file)) return undefined;
    try {
      const doc = parseYaml(readFileSync(file, 'utf8')) as { encryptionsalt?: string } | null;
      return doc?.encryptionsalt;
    } catch {
      return undefined;
    }
  }

  /**
   * A resource as the file holds it: its secrets encrypted, and none of its `omitempty` fields that
   * are empty (OMITEMPTY), as Pulumi writes a resource (a component's inputs, a read's).
   */
  private encodeResource(r: ResourceState): WrittenResource {
    const out: Record<string, unknown> = {};
    for (const key of fieldOrder(r)) {
      const value = r[key];
      if (value === undefined || (OMITEMPTY.has(key) && isEmpty(key, value))) continue;
      const properties = key === 'inputs' || key === 'outputs';
      // A replacementTrigger may be secret too.
      out[key] = properties || key === 'replacementTrigger' ? this.encode(value) : value;
    }
    return out as WrittenResource;
  }

  /** A resource as the file holds it, in wire form; `crypter` reads its secrets (default: this stack's). */
  private decodeResource(r: ResourceState, crypter = this.crypter): ResourceState {
    const decode = (v: unknown) => this.decode(v, crypter);
    const out = { ...r, inputs: decode(r.inputs ?? {}) as Props, outputs: decode(r.outputs ?? {}) as Props };
    if (r.replacementTrigger !== undefined) out.replacementTrigger = decode(r.replacementTrigger);
    return out;
  }

  /** Secrets are written as Pulumi does: `{ <sig>: <secret>, ciphertext: encrypt(JSON(value)) }`. */
  private encode(v: unknown): unknown {
    if (isSecret(v)) {
      if (!this.crypter)
        throw new Error('a secret must be written to the stack state but no secrets passphrase is set');
      this.encryptedSinceSaltRead = true;
      // json.Marshal of the serialized value (SerializePropertyValue): an object's keys sorted.
      return { [sigKey]: secretSig, ciphertext: this.crypter.encrypt(goJson(v.value, { sorted: true })) };
    }
    if (Array.isArray(v)) return v.map((x) => this.encode(x));
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.encode(x)]));
    return v;
  }

  private decode(v: unknown, crypter = this.crypter): unknown {
    if (isObject(v) && v[sigKey] === secretSig) {
      if (typeof v.ciphertext === 'string') {
        if (!crypter) throw new Error('the stack state holds secrets but no secrets passphrase is set');
        return { [sigKey]: secretSig, value: this.decode(JSON.parse(crypter.decrypt(v.ciphertext)), crypter) };
      }
      if (typeof v.plaintext === 'string')
        return { [sigKey]: secretSig, value: this.decode(JSON.parse(v.plaintext), crypter) };
      return v;
    }
    if (Array.isArray(v)) return v.map((x) => this.decode(x, crypter));
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.decode(x, crypter)]));
    return v;
  }
}

function readLock(file: string): { pid: number; host: string; time: string } | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { pid: number; host: string; time: string };
  } catch {
    return undefined;
  }
}

/** The passphrase salt a deployment's `secrets_providers` names, when it names the passphrase provider. */
export function passphraseSalt(deployment: { secrets_providers?: unknown }): unknown {
  const provider = deployment.secrets_providers as { type?: string; state?: { salt?: unknown } } | undefined;
  return provider?.type === 'passphrase' ? provider.state?.salt : undefined;
}

export function openStackState(options: {
  programDir: string;
  stack: string;
  crypter?: Crypter;
  stackConfigFile?: string;
}): FileStackState {
  return new FileStackState(options.programDir, options.stack, options.crypter, options.stackConfigFile);
}

/**
 * DeploymentV3's `metadata` (apitype.SnapshotMetadataV1) last: a struct, which Go's encoder writes
 * despite its `omitempty`, `{}` when it holds no integrity error (SerializeDeployment).
 */
function withMetadata(deployment: Record<string, unknown>): Record<string, unknown> {
  const { metadata, ...rest } = deployment;
  return { ...rest, metadata: isObject(metadata) ? metadata : {} };
}

/** A stack file that cannot be read: a one-line reason for the user (see errors.ts). */
export class StackStateError extends Error {
  override name = 'StackStateError';
}

export function listStacks(programDir: string): Array<{ name: string; lastUpdate?: string; resourceCount?: number }> {
  const dir = join(programDir, '.ocikit', 'stacks');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const name = f.slice(0, -'.json'.length);
      // As Pulumi's DIY backend summarises a stack (diyStackSummary): its last update is the
      // deployment's manifest time and its resource count the deployment's length, each only when
      // the checkpoint holds a deployment (an unreadable file holds none).
      try {
        const raw = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
          checkpoint?: { latest?: { manifest?: { time?: string }; resources?: unknown[] } };
        };
        const latest = raw.checkpoint?.latest;
        if (!latest) return { name };
        const time = Date.parse(latest.manifest?.time ?? '');
        return {
          name,
          // Go's zero time is no time (LastUpdate's t.IsZero()).
          ...(Number.isFinite(time) && time > GO_ZERO_TIME ? { lastUpdate: new Date(time).toISOString() } : {}),
          resourceCount: latest.resources?.length ?? 0,
        };
      } catch {
        return { name };
      }
    });
}

/**
 * A manifest as Pulumi reads it into a snapshot and writes it back (an import, a state edit):
 * DeserializeManifest and Manifest.Serialize (pkg/resource/deploy/manifest.go) keep its time (Go's
 * zero time when it has none), magic and version, and of each plugin its name, kind and version
 * (semver.ParseTolerant's: no leading `v`), not its path.
 */
function deserializedManifest(m: Manifest): Manifest {
  const manifest: Manifest = { time: m.time ?? '0001-01-01T00:00:00Z', magic: m.magic ?? '', version: m.version ?? '' };
  if (m.plugins?.length)
    manifest.plugins = m.plugins.map((p) => ({
      name: p.name ?? '',
      path: '',
      type: p.type ?? '',
      version: pluginVersion(p.version),
    }));
  return manifest;
}

/** A manifest plugin's version as Pulumi reads it (semver.ParseTolerant, then String): no leading `v`. */
function pluginVersion(version: string | undefined): string {
  return (version ?? '').trim().replace(/^v/, '');
}

/** 0001-01-01T00:00:00Z, Go's zero time.Time, in milliseconds since the epoch. */
export const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

/** The root stack's outputs among a snapshot's resources; undefined when the stack has no state. */
export function rootStackOutputs(resources: ResourceState[]): Record<string, unknown> | undefined {
  const stack = resources.find((r) => r.type === 'pulumi:pulumi:Stack');
  return stack ? (stack.outputs ?? {}) : undefined;
}
