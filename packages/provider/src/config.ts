// Provider configuration: the keys pulumi-oci names, from Configure `args` and from the
// `oci:config:<key>` variables, each with its environment default, then ~/.oci/config.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { levenshtein } from './levenshtein';
import { reveal, type Props } from './wire';

export interface ProviderConfig {
  endpoint?: string;
  region?: string;
  tenancyOcid?: string;
  userOcid?: string;
  fingerprint?: string;
  privateKey?: string;
  privateKeyPath?: string;
  privateKeyPassword?: string;
  configFileProfile?: string;
  auth?: string;
  retryDurationSeconds?: number;
  disableAutoRetries?: boolean;
  ignoreDefinedTags: string[];
}

type Kind = 'string' | 'integer' | 'boolean' | 'list';
/** Key → kind and environment default (pulumi-oci's `OCI_<KEY>` names; `endpoint` is ocikit's). */
export const CONFIG_KEYS: Record<keyof ProviderConfig, { kind: Kind; env?: string }> = {
  endpoint: { kind: 'string', env: 'OCIKIT_ENDPOINT' },
  region: { kind: 'string', env: 'OCI_REGION' },
  tenancyOcid: { kind: 'string', env: 'OCI_TENANCY_OCID' },
  userOcid: { kind: 'string', env: 'OCI_USER_OCID' },
  fingerprint: { kind: 'string', env: 'OCI_FINGERPRINT' },
  privateKey: { kind: 'string', env: 'OCI_PRIVATE_KEY' },
  privateKeyPath: { kind: 'string', env: 'OCI_PRIVATE_KEY_PATH' },
  privateKeyPassword: { kind: 'string', env: 'OCI_PRIVATE_KEY_PASSWORD' },
  configFileProfile: { kind: 'string', env: 'OCI_CONFIG_FILE_PROFILE' },
  auth: { kind: 'string', env: 'OCI_AUTH' },
  retryDurationSeconds: { kind: 'integer', env: 'OCI_RETRY_DURATION_SECONDS' },
  disableAutoRetries: { kind: 'boolean', env: 'OCI_DISABLE_AUTO_RETRIES' },
  ignoreDefinedTags: { kind: 'list' },
};

/**
 * pulumi-oci 4.20.0's keys (its config/vars.ts) that this provider does not serve: a stack written
 * for pulumi-oci may set them, so they are accepted, and have no effect.
 */
const UNSERVED_KEYS = [
  'dualStackEndpointEnabled',
  'realmSpecificServiceEndpointTemplateEnabled',
  'retriesConfigFile',
  'testTimeMaintenanceRebootDue',
  'tokenExchangeAuth',
  'tokenExchangeClientId',
  'tokenExchangeClientSecret',
  'tokenExchangeDomainUrl',
  'tokenExchangePublicKey',
  'tokenExchangeRequestedTokenType',
  'tokenExchangeResourceType',
  'tokenExchangeRpstExp',
  'tokenExchangeSubjectTokenType',
  'workloadIdentityTokenPath',
];
/** What the engine adds to a provider's inputs (Pulumi's pkg/resource/deploy/providers/registry.go). */
const ENGINE_KEYS = ['version', 'pluginDownloadURL', 'pluginChecksums', 'parameter', '__internal'];

/**
 * One failure per key that is not a provider setting, worded as pulumi-oci's bridge words it
 * (pulumi-terraform-bridge pkg/tfbridge/check_failures.go): for the default provider, set in stack
 * config, the `oci:<key>` to fix with the keys it may be a typo of; for an explicit provider, the
 * argument. Without a property, as the bridge leaves it: the engine would show the default
 * provider's key as a resource's property with its value.
 */
export function unknownKeyFailures(inputs: Props, urn: string): ConfigFailure[] {
  const known = [...Object.keys(CONFIG_KEYS), ...UNSERVED_KEYS].sort();
  const { name, explicit } = providerOf(urn);
  return Object.keys(inputs)
    .filter((k) => !known.includes(k) && !ENGINE_KEYS.includes(k))
    .map((key) => {
      if (explicit) {
        return {
          property: '',
          reason: `could not validate provider configuration: Invalid or unknown key. Examine values at '${name}.${key}'.`,
        };
      }
      const near = known.filter((k) => levenshtein(k, key) <= 2).map((k) => `\`oci:${k}\``);
      return {
        property: '',
        reason: [
          `\`oci:${key}\` is not a valid configuration key for the oci provider.`,
          ...(near.length ? [`Did you mean ${near.join(' or ')}?`] : []),
          'If the key is not intended for the provider, please choose a different namespace from `oci:`.',
        ].join(' '),
      };
    });
}

/**
 * One warning per pulumi-oci setting that `inputs` sets and this provider does not serve: a stack
 * written for pulumi-oci runs unchanged, and its user learns what has no effect here (named as
 * the failures above name a key: `oci:<key>` in stack config, the argument of an explicit provider).
 */
export function unservedKeyWarnings(inputs: Props, urn: string): string[] {
  const { explicit } = providerOf(urn);
  // Unset, empty or (the two switches) off, as their default is: nothing is lost.
  const unset = (v: unknown): boolean => v === undefined || v === null || v === '' || v === false || v === 'false';
  return UNSERVED_KEYS.filter((k) => !unset(inputs[k])).map(
    (k) => `${explicit ? `\`${k}\`` : `\`oci:${k}\``} is not served by ocikit's oci provider and has no effect`,
  );
}

/**
 * A provider's name from its URN, and whether it is explicit: the bridge's own test
 * (check_failures.go isExplicitProvider), which is Pulumi's too (resource.IsDefaultProvider: a
 * provider whose name starts with "default").
 */
function providerOf(urn: string): { name: string; explicit: boolean } {
  const name = urn.split('::').pop() ?? '';
  return { name, explicit: urn !== '' && !name.startsWith('default') };
}

/** Keys whose values are secrets (schema.json's `config.variables[key].secret`). */
export function secretConfigKeys(): Set<string> {
  const { packageSchema } = require('./schema') as typeof import('./schema');
  const vars = packageSchema().config.variables;
  return new Set(Object.keys(vars).filter((k) => vars[k].secret));
}

const VARIABLE_PREFIX = 'oci:config:';

/** Merges `variables` (`oci:config:<key>`, string-encoded) and `args` (which win), secrets revealed. */
export function configInputs(args: Props, variables: Record<string, string>): Props {
  const out: Props = {};
  for (const [name, value] of Object.entries(variables)) {
    if (name.startsWith(VARIABLE_PREFIX)) out[name.slice(VARIABLE_PREFIX.length)] = value;
  }
  for (const [k, v] of Object.entries(reveal(args) as Props)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

interface Coerced {
  value?: unknown;
  error?: string;
}
/**
 * A refused value as the user wrote it: the Pulumi SDKs send a typed provider argument JSON-encoded
 * (`'abc'` arrives as `"abc"` with its quotes), which would otherwise be shown quoted twice.
 */
function shown(v: unknown): string {
  if (typeof v === 'string' && /^".*"$/s.test(v)) {
    try {
      return JSON.stringify(JSON.parse(v));
    } catch {
      // Not JSON after all: shown as it came.
    }
  }
  return JSON.stringify(v);
}

function coerce(kind: Kind, v: unknown): Coerced {
  if (v === undefined || v === null || v === '') return {};
  switch (kind) {
    case 'string':
      return typeof v === 'string' ? { value: v } : { error: 'must be a string' };
    case 'integer': {
      // Negative is allowed: pulumi-oci (Terraform) then retries for as long as it takes.
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
      return typeof n === 'number' && Number.isInteger(n)
        ? { value: n }
        : { error: `must be a whole number of seconds, got ${shown(v)}` };
    }
    case 'boolean':
      if (typeof v === 'boolean') return { value: v };
      if (v === 'true' || v === 'false') return { value: v === 'true' };
      return { error: `must be true or false, got ${shown(v)}` };
    case 'list': {
      let list = v;
      if (typeof v === 'string') {
        try {
          list = v.trim().startsWith('[') ? JSON.parse(v) : v.split(',').map((s) => s.trim());
        } catch {
          return { error: 'must be a list of tag keys' };
        }
      }
      return Array.isArray(list) && list.every((x) => typeof x === 'string')
        ? { value: list }
        : { error: 'must be a list of tag keys' };
    }
  }
}

export interface ConfigFailure {
  property: string;
  reason: string;
}

/**
 * The environment variables a key is read from, in order: the names pulumi-oci's Terraform
 * provider reads, `OCI_<SNAKE_KEY>`, then `TF_VAR_<snake_key>`. Terraform tries TF_VAR_ first;
 * ocikit tries OCI_ first because the ocikit CLI hands its embedded emulator to the plugin through
 * OCI_*, which a TF_VAR_region left in a user's shell must not override.
 */
export function configEnvNames(key: keyof ProviderConfig): string[] {
  const envName = CONFIG_KEYS[key].env;
  if (!envName) return [];
  return envName.startsWith('OCI_') ? [envName, `TF_VAR_${envName.slice(4).toLowerCase()}`] : [envName];
}

function envDefault(key: keyof ProviderConfig, env: NodeJS.ProcessEnv): string | undefined {
  const name = configEnvNames(key).find((n) => env[n]);
  return name ? env[name] : undefined;
}

/** Applies environment defaults and types; one failure per bad key. */
export function resolveConfig(
  inputs: Props,
  env: NodeJS.ProcessEnv = process.env,
): { config: ProviderConfig; failures: ConfigFailure[] } {
  const config: ProviderConfig = { ignoreDefinedTags: [] };
  const failures: ConfigFailure[] = [];
  const target = config as unknown as Props;
  for (const [key, { kind }] of Object.entries(CONFIG_KEYS)) {
    const raw = inputs[key] ?? envDefault(key as keyof ProviderConfig, env);
    const { value, error } = coerce(kind, raw);
    if (error) failures.push({ property: key, reason: `${key} ${error}` });
    else if (value !== undefined) target[key] = value;
  }
  failures.push(...validate(config));
  if (config.configFileProfile !== undefined) {
    const filePath = configFilePath(env);
    try {
      if (fs.existsSync(filePath)) readProfile(filePath, config.configFileProfile);
    } catch (e) {
      // Only a missing profile is CheckConfig's to report; an unreadable file is reported when
      // the credentials are read.
      if (e instanceof MissingProfileError) failures.push({ property: 'configFileProfile', reason: e.message });
    }
  }
  return { config, failures };
}

/** pulumi-oci's `auth` values (Terraform's SchemaMap: validation.StringInSlice, case-insensitive). */
const AUTH_VALUES = [
  'ApiKey',
  'InstancePrincipal',
  'InstancePrincipalWithCerts',
  'SecurityToken',
  'ResourcePrincipal',
  'OKEWorkloadIdentity',
];

function validate(c: ProviderConfig): ConfigFailure[] {
  const failures: ConfigFailure[] = [];
  if (c.endpoint !== undefined) {
    let ok: boolean;
    try {
      const u = new URL(c.endpoint);
      ok = (u.protocol === 'http:' || u.protocol === 'https:') && !!u.host;
    } catch {
      ok = false;
    }
    if (!ok) failures.push({ property: 'endpoint', reason: `endpoint must be an http(s) URL, got "${c.endpoint}"` });
  }
  if (c.region !== undefined && !knownRegion(c.region)) {
    failures.push({
      property: 'region',
      reason: `region "${c.region}" is not an OCI region (for example us-ashburn-1)`,
    });
  }
  if (c.privateKeyPath !== undefined && !fs.existsSync(expandHome(c.privateKeyPath))) {
    failures.push({ property: 'privateKeyPath', reason: `privateKeyPath: no key file at ${c.privateKeyPath}` });
  }
  if (c.auth !== undefined && c.auth.toLowerCase() !== 'apikey') {
    // pulumi-oci's values (case-insensitive); only ApiKey is implemented.
    const known = AUTH_VALUES.some((a) => a.toLowerCase() === c.auth!.toLowerCase());
    failures.push({
      property: 'auth',
      reason: known
        ? `auth "${c.auth}" is not supported yet: ocikit supports ApiKey (tenancyOcid, userOcid, fingerprint and a private key)`
        : `auth "${c.auth}" is not an OCI auth type: use one of ${AUTH_VALUES.join(', ')} (ocikit supports ApiKey today)`,
    });
  }
  return failures;
}

/**
 * The OCI config file: ~/.oci/config, or when there is none the file OCI_CONFIG_FILE names, as the
 * OCI SDKs find it (Go's DefaultConfigProvider under pulumi-oci, TypeScript's ConfigFileReader).
 */
function configFilePath(env: NodeJS.ProcessEnv): string {
  const home = expandHome('~/.oci/config');
  return !fs.existsSync(home) && env.OCI_CONFIG_FILE ? expandHome(env.OCI_CONFIG_FILE) : home;
}

class MissingProfileError extends Error {}

/** One profile of the OCI config file, parsed by the SDK; its errors name the setting and the file. */
function readProfile(filePath: string, profile: string): { get(key: string): string | undefined | null } {
  const common = require('oci-common') as typeof import('oci-common');
  try {
    return common.ConfigFileReader.parseFileFromPath(filePath, profile);
  } catch (e) {
    // The SDK's text names neither the key nor the file: say which setting to fix.
    const message = (e as Error).message;
    const missing = /No profile named/.test(message);
    const ErrorType = missing ? MissingProfileError : Error;
    throw new ErrorType(`configFileProfile "${profile}": ${missing ? 'no such profile' : message} in ${filePath}`, {
      cause: e,
    });
  }
}

function knownRegion(region: string): boolean {
  // Loaded here, not at start: oci-common costs ~0.1 s to require and is only needed after the port line.
  const { Region } = require('oci-common') as typeof import('oci-common');
  const r = region.toLowerCase();
  return Region.values().some((x) => x.regionId === r || x.regionCode === r);
}

export function expandHome(p: string): string {
  return p.startsWith('~') ? path.join(os.homedir(), p.slice(1)) : p;
}

export interface Credentials {
  tenancy: string;
  user: string;
  fingerprint: string;
  privateKey: string;
  passphrase?: string;
  region: string;
}

/** Explicit values (config, then env) win; what is missing comes from the OCI config file profile. */
export function credentials(c: ProviderConfig, env: NodeJS.ProcessEnv = process.env): Credentials {
  let file: { get(key: string): string | undefined | null } | undefined;
  const needFile = !(c.tenancyOcid && c.userOcid && c.fingerprint && (c.privateKey || c.privateKeyPath) && c.region);
  if (needFile) {
    const filePath = configFilePath(env);
    if (fs.existsSync(filePath)) file = readProfile(filePath, c.configFileProfile ?? 'DEFAULT');
  }
  const pick = (v: string | undefined, fileKey: string): string | undefined => v ?? file?.get(fileKey) ?? undefined;
  const keyPath = pick(c.privateKeyPath, 'key_file');
  // A key written on one line (a CI secret, an env file): Terraform's provider turns each backslash-n
  // into a newline (ResourceDataConfigProvider.PrivateRSAKey), so pulumi-oci reads it too.
  let privateKey = c.privateKey?.replace(/\\n/g, '\n');
  if (!privateKey && keyPath) {
    try {
      privateKey = fs.readFileSync(expandHome(keyPath), 'utf8');
    } catch (e) {
      throw new Error(`cannot read the OCI private key ${keyPath}: ${(e as Error).message}`, { cause: e });
    }
  }
  const creds = {
    tenancy: pick(c.tenancyOcid, 'tenancy'),
    user: pick(c.userOcid, 'user'),
    fingerprint: pick(c.fingerprint, 'fingerprint'),
    privateKey,
    passphrase: c.privateKeyPassword ?? file?.get('pass_phrase') ?? undefined,
    region: pick(c.region, 'region'),
  };
  const missing = Object.entries({
    tenancyOcid: creds.tenancy,
    userOcid: creds.user,
    fingerprint: creds.fingerprint,
    'privateKey or privateKeyPath': creds.privateKey,
    region: creds.region,
  })
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length) {
    throw new Error(
      `OCI provider configuration is incomplete: missing ${missing.join(', ')} (set oci:<key> config, the OCI_* environment variables, or ~/.oci/config)`,
    );
  }
  return creds as Credentials;
}
