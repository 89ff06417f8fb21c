import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AdminClient } from './admin/client';
import { adminApi } from './admin/routes';
import { AdjustableClock } from './core/clock';
import { loadOrCreateCredentials, writeOciConfig } from './core/credentials';
import { Identities } from './core/identities';
import { isKnownRegion } from './core/regions';
import { peerRegionFor, type EmulatorSettings } from './core/settings';
import { ociAuthentication, type AuthMode } from './http/authentication';
import { FaultInjector, type FaultSpec } from './http/faults';
import { ociApi } from './http/oci-api';
import { createHttpApp } from './http/pipeline';
import { RateLimiter } from './http/rate-limit';
import { RetryTokens } from './http/retry-tokens';
import { ObjectStore } from './services/common/objects';
import { SERVICES, type SandboxIds } from './services/registry';
import type { SandboxContext } from './services/service';
import { SqliteStore } from './store/sqlite-store';

export { BODY_LIMIT_BYTES } from './http/pipeline';

export interface EmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Directory for the database and the OCI config file. Default `.ocikit`. */
  dataDir?: string;
  /** Keep everything in memory (`:memory:` SQLite); the config file goes to a temporary directory. */
  inMemory?: boolean;
  /** Home region: requests without `/r/<region>` belong to it. Default `us-ashburn-1`. */
  region?: string;
  /** Seed on start: `sandbox` creates ready-to-use resources (idempotent). */
  seed?: 'sandbox';
  /** Seconds CREATING/UPDATING/DELETING states and work requests last. Default 1; 0 in tests. */
  transitionDelaySeconds?: number;
  /** Seconds a custom AI Language model trains. Default 5. */
  trainingDurationSeconds?: number;
  /** Seconds a deleted resource stays readable as DELETED before it answers 404. Default 3600. */
  deletedRetentionSeconds?: number;
  /** Requests per second per tenancy before 429 TooManyRequests. Default: no limit. */
  rateLimit?: number;
  /**
   * The emulator's time source (default: wall clock plus the offset `POST /_ocikit/clock` adds,
   * kept in the data directory across restarts). Tests can pass their own `AdjustableClock` and
   * move it forward in-process; it starts at its own offset, and its advances are saved too.
   */
  clock?: AdjustableClock;
  /** `signature` (default) verifies OCI request signatures; `none` accepts any request as the first user. */
  auth?: AuthMode;
  /** Faults armed at start, as `POST /_ocikit/faults` takes them (`--faults <json file>`). */
  faults?: FaultSpec[];
  /** Bearer token of the admin API; a random one when omitted. Written to `<dataDir>/admin-token`. */
  adminToken?: string;
  /**
   * Keep the data directory's API private key in this file (created if missing) rather than in
   * its database and `<dataDir>/oci_api_key.pem`; the config file names it, and the data directory
   * remembers it for later starts. ocikit's embedded emulator uses a file of the user's, so that no
   * private key lies in a program's `.ocikit/`.
   */
  apiKeyFile?: string;
}

export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:41234`: set it as an OCI client's `endpoint`. */
  url: string;
  /** OCI config file (profile DEFAULT) whose key the emulator accepts. */
  configFile: string;
  /** The home region. */
  region: string;
  /** Sandbox ids when seeded (also at `GET /_ocikit/sandbox`). */
  sandbox?: SandboxIds;
  /** Client of this emulator's `/_ocikit` admin API (carries the admin token). */
  admin: AdminClient;
  /** The admin API's bearer token (also in `<dataDir>/admin-token`). */
  adminToken: string;
  /** Whether request signatures are verified. */
  auth: AuthMode;
  close(): Promise<void>;
}

export type { SandboxIds } from './services/registry';

/** Meta key of the clock's offset, in milliseconds. */
const CLOCK_OFFSET = 'clock_offset_ms';

function seconds(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!Number.isFinite(v) || v < 0) throw new RangeError(`${name} must be a non-negative number of seconds`);
  return Math.round(v * 1000);
}

/**
 * Starts an emulator: opens (or creates) its database, writes its OCI config file, registers the
 * Disaster Recovery and AI Language APIs and the `/_ocikit` admin API, and listens.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const homeRegion = options.region ?? 'us-ashburn-1';
  if (!isKnownRegion(homeRegion)) throw new RangeError(`unknown region '${homeRegion}'`);
  const settings: EmulatorSettings = {
    homeRegion,
    transitionDelayMs: seconds(options.transitionDelaySeconds, 1, 'transitionDelaySeconds'),
    trainingDurationMs: seconds(options.trainingDurationSeconds, 5, 'trainingDurationSeconds'),
    deletedRetentionMs: seconds(options.deletedRetentionSeconds, 3600, 'deletedRetentionSeconds'),
  };
  if (options.rateLimit !== undefined && !(options.rateLimit > 0))
    throw new RangeError('rateLimit must be a positive number');
  const authMode = options.auth ?? 'signature';
  if (authMode !== 'signature' && authMode !== 'none') throw new RangeError(`unknown auth mode '${String(authMode)}'`);
  const adminToken = options.adminToken ?? randomBytes(24).toString('base64url');
  if (!/^[\x21-\x7e]+$/.test(adminToken)) throw new RangeError('adminToken must be printable ASCII without spaces');
  const dataDir = options.inMemory ? mkdtempSync(join(tmpdir(), 'ocikit-')) : resolve(options.dataDir ?? '.ocikit');
  // The data directory holds the database, the API key and the admin token: the owner's alone when made here.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const store = new SqliteStore(options.inMemory ? ':memory:' : join(dataDir, 'emulator.db'));
  // The clock's offset (POST /_ocikit/clock) is kept with the data, so a restart does not move
  // time back: what was scheduled or stamped in the moved time still comes due in order.
  const clock = options.clock ?? new AdjustableClock(Number(store.getMeta(CLOCK_OFFSET) ?? 0));
  const stopSavingClock = clock.onAdvance((offsetMs) => store.setMeta(CLOCK_OFFSET, String(offsetMs)));
  const release = () => {
    stopSavingClock();
    store.close();
    if (options.inMemory) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    return await serve(options, { homeRegion, settings, authMode, adminToken, dataDir, store, clock, release });
  } catch (error) {
    // Whatever fails (an unreadable apiKeyFile, a bad fault, a port in use) leaves the database unlocked.
    release();
    throw error;
  }
}

/** The rest of startEmulator, on its open store; `release` closes what startEmulator opened. */
async function serve(
  options: EmulatorOptions,
  {
    homeRegion,
    settings,
    authMode,
    adminToken,
    dataDir,
    store,
    clock,
    release,
  }: {
    homeRegion: string;
    settings: EmulatorSettings;
    authMode: AuthMode;
    adminToken: string;
    dataDir: string;
    store: SqliteStore;
    clock: AdjustableClock;
    release: () => void;
  },
): Promise<RunningEmulator> {
  const credentials = loadOrCreateCredentials(store, options.apiKeyFile);
  const identities = new Identities(store, credentials);
  const savedSandbox = store.getMeta('sandbox');
  // Data directories seeded before tenancies existed: their sandbox compartment is the first tenancy's.
  if (savedSandbox)
    identities.addCompartment(credentials.tenancyId, (JSON.parse(savedSandbox) as SandboxIds).compartmentId);
  const objects = new ObjectStore(store, clock);
  const deps = { store, clock, settings, credentials, objects };
  const services = SERVICES.map((registration) => ({ key: registration.key, service: registration.create(deps) }));
  const faults = new FaultInjector();
  for (const fault of options.faults ?? []) faults.add(fault);

  const seedSandbox = (): SandboxIds => {
    const saved = store.getMeta('sandbox');
    if (saved) return JSON.parse(saved) as SandboxIds;
    return store.transaction(() => {
      const context: SandboxContext = {
        tenancyId: credentials.tenancyId,
        compartmentId: identities.addCompartment(credentials.tenancyId),
        homeRegion,
        peerRegion: peerRegionFor(homeRegion),
      };
      const ids = { ...context } as SandboxIds;
      for (const { key, service } of services) Object.assign(ids, { [key]: service.seedSandbox(context) });
      store.setMeta('sandbox', JSON.stringify(ids));
      return ids;
    });
  };

  const app = createHttpApp();
  app.register(ociApi, {
    services: services.map(({ service }) => service.routes),
    store,
    retryTokens: new RetryTokens(store, clock),
    faults,
    homeRegion,
    tenancies: identities,
    rateLimiter: options.rateLimit ? new RateLimiter(options.rateLimit) : undefined,
    authenticate: ociAuthentication({
      mode: authMode,
      identities,
      defaultPrincipal: {
        tenancyId: credentials.tenancyId,
        userId: credentials.userId,
        fingerprint: credentials.fingerprint,
      },
    }),
  });
  app.register(adminApi, {
    adminToken,
    identities,
    homeRegion,
    clock,
    faults,
    objects,
    seedSandbox,
    sandbox: () => {
      const saved = store.getMeta('sandbox');
      return saved ? (JSON.parse(saved) as SandboxIds) : undefined;
    },
    reset: () => {
      store.clearAll();
      store.setMeta('sandbox', '');
      faults.clear();
    },
  });

  const sandbox = options.seed === 'sandbox' ? seedSandbox() : undefined;
  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const configFile = writeOciConfig(dataDir, credentials, homeRegion, url);
  writeFileSync(join(dataDir, 'admin-token'), `${adminToken}\n`, { mode: 0o600 });
  return {
    url,
    configFile,
    region: homeRegion,
    sandbox,
    admin: new AdminClient(url, adminToken),
    adminToken,
    auth: authMode,
    close: async () => {
      await app.close();
      release();
    },
  };
}
