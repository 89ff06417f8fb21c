import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { RunningEmulator, SandboxIds } from '@ocikit/emulator';
import { configEnvNames } from '@ocikit/pulumi-resource-oci';
import { processAlive } from './process-alive';

/** Stack config keys that point `oci` at a real cloud (or an emulator of the user's choosing). */
const CLOUD_CONFIG_KEYS = [
  'endpoint',
  'tenancyOcid',
  'userOcid',
  'fingerprint',
  'privateKey',
  'privateKeyPath',
  'configFileProfile',
  'auth',
] as const;
/**
 * Environment variables that do the same: each key's as the plugin reads it (`OCI_<KEY>`, then
 * Terraform's `TF_VAR_<key>`), and the config file the OCI SDKs read when there is no ~/.oci/config.
 */
const CLOUD_ENV = [...CLOUD_CONFIG_KEYS.flatMap((k) => configEnvNames(k)), 'OCI_CONFIG_FILE'];

/** Why a configured cloud is used instead of the embedded emulator; undefined when nothing is configured. */
export function configuredCloud(
  config: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const key = CLOUD_CONFIG_KEYS.find((k) => config[`oci:${k}`]);
  if (key) return `stack config oci:${key}`;
  const name = CLOUD_ENV.find((k) => env[k]);
  if (name) return `environment ${name}`;
  const file = join(homedir(), '.oci', 'config');
  if (existsSync(file)) return file;
  return undefined;
}

export interface EmbeddedCloud {
  emulator: RunningEmulator;
  /** Environment of the plugin process (the contract's names). */
  providerEnv: Record<string, string>;
  /**
   * Config the program sees: the sandbox ids under `ocikit:*`, and `oci:region` / `oci:tenancyOcid`
   * of the emulator, so `oci.config.region` and `oci.config.tenancyOcid` answer as they would with a
   * configured tenancy. Keys the stack file sets win.
   */
  config: Record<string, string>;
  /** The one line that says what happened. */
  message: string;
  close(): Promise<void>;
}

/**
 * Starts the emulator in-process with its data (and sandbox) in `<program>/.ocikit/emulator/`,
 * so resources survive between runs exactly as the state file remembers them.
 */
export async function startEmbeddedCloud(programDir: string): Promise<EmbeddedCloud> {
  const dataDir = join(programDir, '.ocikit', 'emulator');
  // The emulator's database holds its tenancy's data: the folder is the user's alone, as the
  // emulator makes its own (an existing one keeps its mode).
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Loaded here so commands that never start an emulator do not pay for fastify and SQLite.
  const { startEmulator } = await import('@ocikit/emulator');
  const owner = join(dataDir, 'owner.json');
  const emulator = await startEmulator({ dataDir, seed: 'sandbox', apiKeyFile: embeddedApiKeyFile() }).catch(
    (error: Error) => {
      throw /in use by another emulator/.test(error.message) ? inUse(dataDir, owner) : error;
    },
  );
  let profile: Record<string, string | undefined>;
  try {
    // Who holds the data directory, for the message another command gets (see inUse).
    writeFileSync(owner, JSON.stringify({ pid: process.pid, command: ownCommand() }), { mode: 0o600 });
    profile = readConfigProfile(emulator.configFile, 'DEFAULT');
  } catch (error) {
    // Not left running (holding the database and its port) by a command that cannot use it.
    rmSync(owner, { force: true });
    await emulator.close();
    throw error;
  }
  const providerEnv: Record<string, string> = {
    OCIKIT_ENDPOINT: emulator.url,
    OCI_REGION: emulator.region,
    OCI_TENANCY_OCID: profile.tenancy ?? '',
    OCI_USER_OCID: profile.user ?? '',
    OCI_FINGERPRINT: profile.fingerprint ?? '',
    OCI_PRIVATE_KEY_PATH: profile.key_file ?? '',
  };
  return {
    emulator,
    providerEnv,
    config: {
      ...(emulator.sandbox ? sandboxConfig(emulator.sandbox) : {}),
      'oci:region': emulator.region,
      ...(profile.tenancy ? { 'oci:tenancyOcid': profile.tenancy } : {}),
    },
    message: `Using the embedded OCI emulator at ${emulator.url} (sandbox in ${dataDir}; set oci:endpoint or OCI credentials to use another cloud)`,
    close: () => {
      rmSync(owner, { force: true });
      return emulator.close();
    },
  };
}

/**
 * One emulator serves a data directory (its clock, retry tokens and settlement assume one
 * writer), so a second command on the same program's embedded cloud cannot start one while the
 * first runs: it is told which command holds it and what to do instead.
 */
function inUse(dataDir: string, ownerFile: string): Error {
  let holder = 'another ocikit command';
  try {
    const { pid, command } = JSON.parse(readFileSync(ownerFile, 'utf8')) as { pid?: number; command?: string };
    // A file left by a command that died names nobody: the folder is held otherwise.
    if (pid && processAlive(pid)) holder = `another ocikit command (pid ${pid}${command ? `: ${command}` : ''})`;
  } catch {
    // (no owner file: an emulator started otherwise, such as `ocikit-emulator --data`)
  }
  return new Error(
    `its data in ${dataDir} is in use by ${holder}; one emulator serves a program's embedded cloud at a time: run this command after it ends`,
  );
}

/** `ocikit up` and the like: what the owner file names. */
function ownCommand(): string {
  return ['ocikit', ...process.argv.slice(2)].join(' ');
}

/**
 * The private key the embedded emulators accept, one per user as `~/.oci/oci_api_key.pem` is
 * for OCI: `$XDG_CONFIG_HOME/ocikit/` (by default `~/.config/ocikit/`), made on first use. Kept
 * out of the program's folder, where the contract wants no private key in `.ocikit/`.
 */
export function embeddedApiKeyFile(env: NodeJS.ProcessEnv = process.env): string {
  const configHome =
    env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(configHome, 'ocikit', 'embedded_api_key.pem');
}

/**
 * The sandbox ids as `ocikit:*` config: `ocikit:sandbox` holds the whole object (read it with
 * `config.requireObject('sandbox')` under the `ocikit` namespace) and the ids a program needs most
 * have flat keys, e.g. `ocikit:sandboxCompartmentId`.
 */
export function sandboxConfig(sandbox: SandboxIds): Record<string, string> {
  const dr = sandbox.disasterRecovery as unknown as Record<string, unknown>;
  const ai = sandbox.aiLanguage as unknown as Record<string, unknown>;
  const custom = (ai.customModelIds ?? {}) as Record<string, unknown>;
  const flat: Record<string, unknown> = {
    sandboxCompartmentId: sandbox.compartmentId,
    sandboxTenancyId: sandbox.tenancyId,
    sandboxHomeRegion: sandbox.homeRegion,
    sandboxPeerRegion: sandbox.peerRegion,
    sandboxPrimaryProtectionGroupId: dr.primaryProtectionGroupId,
    sandboxStandbyProtectionGroupId: dr.standbyProtectionGroupId,
    sandboxProjectId: ai.projectId,
    sandboxTextClassificationModelId: custom.textClassification,
    sandboxNamedEntityRecognitionModelId: custom.namedEntityRecognition,
  };
  const config: Record<string, string> = { 'ocikit:sandbox': JSON.stringify(sandbox) };
  for (const [key, value] of Object.entries(flat)) if (typeof value === 'string') config[`ocikit:${key}`] = value;
  return config;
}

/** One profile of an OCI config file (INI). */
export function readConfigProfile(file: string, profile: string): Record<string, string> {
  const values: Record<string, string> = {};
  let current: string | undefined;
  for (const raw of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) current = section[1].trim();
    else if (current === profile && line.includes('=')) {
      const at = line.indexOf('=');
      values[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
  }
  return values;
}
