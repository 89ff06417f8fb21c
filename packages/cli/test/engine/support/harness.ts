// Test harness: throw-away Pulumi program folders (Pulumi.yaml + index.ts, node_modules linked to
// the repository's), a test Crypter in Pulumi's "v1:<nonce>:<ciphertext>" form, and one call to
// run the engine that collects its events.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, beforeEach } from 'node:test';
import {
  openStackState,
  runEngine,
  type Crypter,
  type EngineEvent,
  type EngineOptions,
  type EngineResult,
} from '../../../src/engine';

const repoNodeModules = resolve(__dirname, '../../../../../node_modules');

export const testCrypter = (): Crypter => {
  const key = Buffer.alloc(32, 7);
  return {
    encrypt(plaintext) {
      const nonce = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, nonce);
      const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final(), c.getAuthTag()]);
      return `v1:${nonce.toString('base64')}:${ct.toString('base64')}`;
    },
    decrypt(ciphertext) {
      const [, n, ct] = ciphertext.split(':');
      const raw = Buffer.from(ct, 'base64');
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(n, 'base64'));
      d.setAuthTag(raw.subarray(raw.length - 16));
      return Buffer.concat([d.update(raw.subarray(0, raw.length - 16)), d.final()]).toString('utf8');
    },
  };
};

/** A resource of the stack's checkpoint, as the tests read it. */
export interface StateResource {
  urn: string;
  id?: string;
  delete?: boolean;
  protect?: boolean;
  aliases?: string[];
  parent?: string;
  provider?: string;
  dependencies?: string[];
  inputs: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

export interface TestProgram {
  dir: string;
  /** The resources of the dev stack's checkpoint file. */
  resources(): StateResource[];
  /** Replaces index.ts. */
  write(source: string): void;
  run(
    overrides?: Partial<EngineOptions> & { pluginCommand?: string[] },
  ): Promise<EngineResult & { events: EngineEvent[] }>;
  remove(): void;
}

export function makeProgram(
  source: string,
  defaults: Partial<EngineOptions> & { pluginCommand?: string[] } = {},
): TestProgram {
  const dir = mkdtempSync(join(tmpdir(), 'ocikit-engine-'));
  symlinkSync(repoNodeModules, join(dir, 'node_modules'), 'dir');
  writeFileSync(
    join(dir, 'Pulumi.yaml'),
    'name: enginetest\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n',
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'es2020',
        module: 'commonjs',
        moduleResolution: 'node',
        esModuleInterop: true,
        skipLibCheck: true,
        // Pulumi's cmd/run then runs ts-node transpile-only, which keeps these tests fast.
        noCheck: true,
      },
    }),
  );
  mkdirSync(join(dir, '.ocikit'), { recursive: true });
  const write = (s: string) => writeFileSync(join(dir, 'index.ts'), s);
  write(source);
  const crypter = testCrypter();
  return {
    dir,
    write,
    // A stack with no resources has no list (DeploymentV3 `resources,omitempty`).
    resources: () =>
      JSON.parse(readFileSync(join(dir, '.ocikit/stacks/dev.json'), 'utf8')).checkpoint.latest.resources ?? [],
    async run(overrides = {}) {
      const events: EngineEvent[] = [];
      const options = {
        programDir: dir,
        project: { name: 'enginetest', runtimeOptions: { typescript: true } },
        stack: 'dev',
        operation: 'update' as const,
        preview: false,
        config: {},
        secretKeys: [],
        state: openStackState({ programDir: dir, stack: 'dev', crypter }),
        onEvent: (e: EngineEvent) => events.push(e),
        ...defaults,
        ...overrides,
      };
      const result = await runEngine(options);
      return { ...result, events };
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The steps the engine reported, as `op name` strings in order. */
export function steps(events: EngineEvent[]): string[] {
  return events
    .filter((e) => e.resOutputsEvent && !e.resOutputsEvent.metadata.type.startsWith('pulumi:'))
    .map((e) => `${e.resOutputsEvent!.metadata.op} ${e.resOutputsEvent!.metadata.urn.split('::').pop()}`);
}

export function diagnostics(events: EngineEvent[], severity?: string): string[] {
  return events
    .filter((e) => e.diagnosticEvent && (!severity || e.diagnosticEvent.severity === severity))
    .map((e) => e.diagnosticEvent!.message.trim());
}

/** The fake provider's call log (FAKE_PROVIDER_LOG) without its Check and Configure calls, and its cloud file. */
export function fakeProviderFiles(dir: string) {
  const log = join(dir, 'calls.log');
  const cloud = join(dir, 'cloud.json');
  process.env.FAKE_PROVIDER_STORE = cloud;
  process.env.FAKE_PROVIDER_LOG = log;
  const all = () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
  return {
    log,
    cloud,
    calls: () => all().filter((c) => !c.startsWith('check') && c !== 'configure'),
    /** Every call, Configure included. */
    allCalls: all,
    reset: () => writeFileSync(log, ''),
    // No file yet: the fake provider has created nothing (it writes the file on its first create).
    cloudState: () =>
      (existsSync(cloud) ? JSON.parse(readFileSync(cloud, 'utf8')) : {}) as Record<string, Record<string, unknown>>,
  };
}

/**
 * A fresh program for each test of a suite, run against the plugin in fake-provider.ts (removed
 * after the suite): `run(source)` writes `header + source`, clears the call log and runs it.
 */
export function fakeProviderSuite(header: string) {
  const progs: TestProgram[] = [];
  let prog: TestProgram | undefined;
  let files: ReturnType<typeof fakeProviderFiles> | undefined;
  beforeEach(() => {
    prog = makeProgram(header, { pluginCommand: [resolve(__dirname, 'fake-provider.ts')] });
    progs.push(prog);
    files = fakeProviderFiles(prog.dir);
  });
  after(() => progs.forEach((p) => p.remove()));
  return {
    get prog(): TestProgram {
      return prog!;
    },
    get files(): ReturnType<typeof fakeProviderFiles> {
      return files!;
    },
    run(source: string, options: Partial<EngineOptions> = {}) {
      prog!.write(header + source);
      files!.reset();
      return prog!.run(options);
    },
    /** The fake cloud's record of the resource named `name`. */
    cloud(name: string): Record<string, unknown> | undefined {
      return Object.entries(files!.cloudState()).find(([id]) => id.startsWith(`fake-${name}-`))?.[1];
    },
  };
}
