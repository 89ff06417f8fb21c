import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { startTestEmulator, type TestEmulator } from '../../../emulator/test/support/emulator';
import { scratchDir } from '../../../emulator/test/support/scratch';
import { readConfigProfile } from '../../src/embedded';
import { cleanEnv, ocikit, ocikitOnTerminal, spawnOcikit, type RunResult } from './ocikit';

const REPO = resolve(__dirname, '../../../..');
export const FIXTURES = resolve(__dirname, '../programs/fixtures');

export interface Cloud {
  t: TestEmulator;
  /** `oci:*` stack config that points a program's default provider at this emulator (not the embedded one). */
  ociConfig: Record<string, string>;
  /**
   * The same as environment variables: explicit providers (`new oci.Provider(...)`) read the
   * environment, not the stack config, as with the Pulumi CLI.
   */
  env: Record<string, string>;
  sandbox: {
    compartmentId: string;
    peerRegion: string;
    standbyGroupId: string;
    textModelId: string;
    nerModelId: string;
  };
  close(): Promise<void>;
}

/** An emulator of the test's own (faults, clock), reached through `oci:endpoint` and its credentials. */
export async function startCloud(options: { transitionDelaySeconds?: number } = {}): Promise<Cloud> {
  const t = await startTestEmulator({ seed: 'sandbox', ...options });
  const profile = readConfigProfile(t.emulator.configFile, 'DEFAULT');
  const sandbox = t.emulator.sandbox!;
  const dr = sandbox.disasterRecovery as unknown as Record<string, string>;
  const ai = sandbox.aiLanguage as unknown as { customModelIds: Record<string, string> };
  return {
    t,
    ociConfig: {
      'oci:endpoint': t.url,
      'oci:region': t.emulator.region,
      'oci:tenancyOcid': profile.tenancy,
      'oci:userOcid': profile.user,
      'oci:fingerprint': profile.fingerprint,
      'oci:privateKeyPath': profile.key_file,
    },
    env: {
      OCIKIT_ENDPOINT: t.url,
      OCI_REGION: t.emulator.region,
      OCI_TENANCY_OCID: profile.tenancy,
      OCI_USER_OCID: profile.user,
      OCI_FINGERPRINT: profile.fingerprint,
      OCI_PRIVATE_KEY_PATH: profile.key_file,
    },
    sandbox: {
      compartmentId: sandbox.compartmentId,
      peerRegion: sandbox.peerRegion,
      standbyGroupId: dr.standbyProtectionGroupId,
      textModelId: ai.customModelIds.textClassification,
      nerModelId: ai.customModelIds.namedEntityRecognition,
    },
    close: () => t.close(),
  };
}

/** The endpoints of the sandbox's compartment, not deleted nor being deleted, whose display name starts with `prefix`. */
export async function liveEndpoints(cloud: Cloud, prefix: string) {
  const { items } = (await cloud.t.language().listEndpoints({ compartmentId: cloud.sandbox.compartmentId }))
    .endpointCollection;
  return items.filter(
    (e) => e.lifecycleState !== 'DELETED' && e.lifecycleState !== 'DELETING' && e.displayName?.startsWith(prefix),
  );
}

/** An `error` fault for the emulator's admin API: the next matching call is refused with a 400. */
export const injectedError = { status: 400, code: 'InvalidParameter', message: 'injected by the test', count: 1 };

export interface Program {
  dir: string;
  /** Rewrites Pulumi.<stack>.yaml's config. */
  setConfig(config: Record<string, string | number | boolean>, stack?: string): void;
  run(args: string[], env?: Record<string, string | undefined>): Promise<RunResult>;
  spawn(args: string[], env?: Record<string, string | undefined>): ReturnType<typeof spawnOcikit>;
  /** Runs on a terminal and answers its confirmation question (see ocikitOnTerminal). */
  onTerminal(args: string[], answer: string): Promise<RunResult>;
}

/** A program folder written here: package.json, Pulumi.yaml (`runtime: nodejs` unless given) and index.ts. */
export function inlineProgram(name: string, index: string, pulumiYaml = `name: ${name}\nruntime: nodejs\n`): string {
  const source = scratchDir(name);
  writeFileSync(join(source, 'package.json'), `{ "name": "${name}", "private": true }\n`);
  writeFileSync(join(source, 'Pulumi.yaml'), pulumiYaml);
  writeFileSync(join(source, 'index.ts'), index);
  return source;
}

/**
 * A copy of a program folder in a temporary directory, with the repository's node_modules linked
 * in so the program finds its own @pulumi/pulumi, ts-node, @ocikit/oci and @pulumi/oci, as an
 * installed project does. Without the stacks' config files: a test sets its own (setConfig), and
 * one there was left by a user's runs (the README's "Try it" writes examples/quickstart/Pulumi.dev.yaml).
 */
export function program(source: string, baseEnv: Record<string, string | undefined> = {}): Program {
  const dir = scratchDir('program');
  for (const entry of readdirSync(source))
    if (entry !== 'node_modules' && entry !== '.ocikit' && !/^Pulumi\..+\.(ya?ml|json)$/.test(entry))
      cpSync(join(source, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const env = (extra: Record<string, string | undefined> = {}) => cleanEnv({ ...baseEnv, ...extra });
  return {
    dir,
    setConfig(config, stack = 'dev') {
      writeFileSync(join(dir, `Pulumi.${stack}.yaml`), stringify({ config }));
    },
    run: (args, extra) => ocikit(['--cwd', dir, ...args], { env: env(extra) }),
    spawn: (args, extra) => spawnOcikit(['--cwd', dir, ...args], { env: env(extra) }),
    onTerminal: (args, answer) => ocikitOnTerminal(['--cwd', dir, ...args], answer, env()),
  };
}

/** Fails with ocikit's own output when a run did not exit 0. */
export function ok(result: RunResult, what = 'ocikit'): RunResult {
  if (result.code !== 0)
    throw new Error(
      `${what} exited ${result.code ?? result.signal}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
    );
  return result;
}

export function outputs(result: RunResult): Record<string, unknown> {
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** A resource of a checkpoint, as far as the integrity rules read it. */
interface CheckpointResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  delete?: boolean;
  inputs?: Record<string, unknown>;
  parent?: string;
  provider?: string;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
  deletedWith?: string;
  taint?: boolean;
  created?: string;
}
export interface CheckpointDeployment {
  manifest: { version: string; magic: string };
  resources?: CheckpointResource[];
  pending_operations?: Array<{ type: string; resource: CheckpointResource }>;
}

/** The stack's checkpoint as ocikit left it on disk (`<program>/.ocikit/stacks/<stack>.json`). */
export function readCheckpoint(p: Program, stack = 'dev'): CheckpointDeployment {
  const file = JSON.parse(readFileSync(join(p.dir, '.ocikit', 'stacks', `${stack}.json`), 'utf8'));
  // Version 4 names the features it needs (hooks, taint); its checkpoint is a CheckpointV3 all the same.
  assert.ok(file.version === 3 || (file.version === 4 && file.features.length > 0), 'a versioned CheckpointV3 file');
  return file.checkpoint.latest as CheckpointDeployment;
}

/**
 * Fails unless the deployment keeps the rules Pulumi checks when it loads a state (its snapshot
 * integrity check, run by `pulumi stack import` and every backend): the manifest's magic is the
 * SHA-256 of its version; every parent, dependency, property dependency, `deletedWith` target and
 * provider comes before the resource that names it; a provider reference names a provider
 * resource with that id; a URN appears once unless the other copies are marked for deletion.
 */
export function assertIntegrity(deployment: CheckpointDeployment): void {
  const { manifest } = deployment;
  assert.equal(manifest.magic, createHash('sha256').update(manifest.version).digest('hex'), 'manifest magic');
  const seen = new Map<string, CheckpointResource>();
  for (const r of deployment.resources ?? []) {
    const before = (urn: string, what: string) =>
      assert.ok(seen.has(urn), `${r.urn}: its ${what} ${urn} does not come before it`);
    if (r.parent) before(r.parent, 'parent');
    for (const dep of r.dependencies ?? []) before(dep, 'dependency');
    for (const [key, deps] of Object.entries(r.propertyDependencies ?? {}))
      for (const dep of deps) before(dep, `property dependency (${key})`);
    if (r.deletedWith) before(r.deletedWith, 'deletedWith target');
    if (r.provider) {
      const at = r.provider.lastIndexOf('::');
      const [providerUrn, providerId] = [r.provider.slice(0, at), r.provider.slice(at + 2)];
      before(providerUrn, 'provider');
      const provider = seen.get(providerUrn)!;
      assert.match(provider.type, /^pulumi:providers:/, `${r.urn}: its provider reference names a provider`);
      assert.equal(provider.id, providerId, `${r.urn}: its provider reference names the provider's id`);
    }
    const earlier = seen.get(r.urn);
    // VerifyIntegrity: a URN seen before is refused unless this later copy is the one marked for deletion.
    assert.ok(!earlier || r.delete, `${r.urn} appears twice, the later copy not marked for deletion`);
    seen.set(r.urn, r);
  }
}
