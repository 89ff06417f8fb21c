import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { AdminClient } from './admin/client';
import { registerIdentityRoutes } from './admin/identities';
import { registerAdminRoutes } from './admin/routes';
import { AdjustableClock } from './core/clock';
import { loadOrCreateCredentials, writeOciConfig } from './core/credentials';
import { Identities } from './core/identities';
import { errors, isOciServiceError, OciServiceError } from './core/errors';
import { newRequestId } from './core/ids';
import { isKnownRegion } from './core/regions';
import { peerRegionFor, type EmulatorSettings } from './core/settings';
import { createAuthentication, type Authentication, type AuthMode } from './http/authentication';
import { FaultInjector } from './http/faults';
import { registerService } from './http/operation';
import { RateLimiter } from './http/rate-limit';
import { RetryTokens } from './http/retry-tokens';
import { toOciError, validatorCompiler } from './http/validation';
import { createAiLanguageService } from './services/ai-language';
import { ObjectStore } from './services/common/objects';
import { createDisasterRecoveryService } from './services/disaster-recovery';
import type { SandboxContext } from './services/service';
import { SqliteStore } from './store/sqlite-store';

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
   * The emulator's time source (default: wall clock plus the offset `POST /_ocikit/clock` adds).
   * Tests can pass their own `AdjustableClock` and move it forward in-process.
   */
  clock?: AdjustableClock;
  /** `signature` (default) verifies OCI request signatures; `none` accepts any request as the first user. */
  auth?: AuthMode;
  /** Bearer token of the admin API; a random one when omitted. Written to `<dataDir>/admin-token`. */
  adminToken?: string;
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

export type SandboxIds = SandboxContext & {
  disasterRecovery: ReturnType<ReturnType<typeof createDisasterRecoveryService>['seedSandbox']>;
  aiLanguage: ReturnType<ReturnType<typeof createAiLanguageService>['seedSandbox']>;
};

/** Largest request body accepted; bigger ones are refused with 413 before they are parsed. */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

function seconds(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!Number.isFinite(v) || v < 0) throw new RangeError(`${name} must be a non-negative number of seconds`);
  return Math.round(v * 1000);
}

/** Maps anything thrown while serving a request to OCI's error; only real bugs become 500. */
function toServiceError(error: FastifyError | Error): OciServiceError {
  if (isOciServiceError(error)) return error;
  const fe = error as FastifyError;
  if (fe.validation) return toOciError(fe.validation as any, fe.validationContext ?? 'body');
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge(BODY_LIMIT_BYTES);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.cannotParseRequest('The request body must be JSON (Content-Type: application/json).');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.cannotParseRequest('The Content-Length header does not match the body.');
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new OciServiceError(fe.statusCode, 'InvalidParameter', error.message);
  }
  return errors.internal();
}

/**
 * JSON.parse reviver: an object member whose value is null is dropped, as OCI treats an explicit
 * null like an absent optional field (array elements are kept, so `[null]` still fails validation).
 */
function withoutNullMembers(this: unknown, _key: string, value: unknown): unknown {
  return value === null && !Array.isArray(this) ? undefined : value;
}

function buildApp(auth: Authentication, rateLimiter?: RateLimiter): FastifyInstance {
  const app = fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // OCIDs run to ~100 characters; longer path parameters are still an id that does not exist.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    return503OnClosing: true,
    // Requests Node's HTTP parser rejects (e.g. headers and URL over 16 KiB) still get OCI's error form.
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return socket.destroy(error);
      const body = JSON.stringify(
        errors
          .cannotParseRequest(
            `The HTTP request could not be read: ${(error as NodeJS.ErrnoException).code ?? error.message}.`,
          )
          .toBody(),
      );
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `opc-request-id: ${newRequestId()}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    // Errors fastify raises before any hook runs (bad URL encoding, over-long parameters) in OCI's form.
    frameworkErrors: (error, _request, reply) => {
      const requestId = newRequestId();
      (reply as unknown as FastifyReply)
        .code(400)
        .header('opc-request-id', requestId)
        .send(errors.invalidParameter(`The request path is not valid: ${error.message.slice(0, 300)}`).toBody());
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  // Bodies are read as bytes: the signed x-content-sha256 is compared with exactly what arrived.
  // OCI SDKs send `content-type: application/json` on GETs and DELETEs too: an empty body is no body.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    try {
      auth.checkBody(request, raw as Buffer);
      done(null, (raw as Buffer).length === 0 ? undefined : JSON.parse(raw.toString('utf8'), withoutNullMembers));
    } catch (error) {
      done(isOciServiceError(error) ? error : errors.cannotParseRequest(), undefined);
    }
  });
  app.addContentTypeParser(['text/plain', 'application/octet-stream'], { parseAs: 'buffer' }, (request, body, done) => {
    try {
      auth.checkBody(request, body as Buffer);
      done(null, body);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.decorateRequest('requestId', '');
  app.decorateRequest('bodyDigest', undefined);
  app.decorateRequest('bodyDigestChecked', false);
  app.addHook('onRequest', async (request, reply) => {
    const given = request.headers['opc-request-id'];
    request.requestId = (Array.isArray(given) ? given[0] : given) || newRequestId();
    reply.header('opc-request-id', request.requestId);
    auth.authenticate(request);
    if (request.principal) rateLimiter?.take(request.principal.tenancyId);
  });
  // A signed body digest with no body read (an empty POST) is compared with the empty body.
  app.addHook('preValidation', async (request) => {
    if (request.bodyDigest !== undefined) auth.checkBody(request, undefined);
  });
  app.setErrorHandler((error, request, reply) => {
    const serviceError = toServiceError(error as Error);
    if (serviceError.status >= 500 && !isOciServiceError(error))
      console.error('ocikit emulator: internal error:', error);
    if (serviceError.code === 'TooManyRequests') reply.header('retry-after', '1');
    reply.code(serviceError.status).header('opc-request-id', request.requestId).send(serviceError.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(errors.notFound(`No such operation: ${request.method} ${request.url.split('?')[0]}.`).toBody());
  });
  return app;
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
  const dataDir = options.inMemory ? mkdtempSync(join(tmpdir(), 'ocikit-')) : resolve(options.dataDir ?? '.ocikit');
  mkdirSync(dataDir, { recursive: true });
  const store = new SqliteStore(options.inMemory ? ':memory:' : join(dataDir, 'emulator.db'));
  const clock = options.clock ?? new AdjustableClock();
  const credentials = loadOrCreateCredentials(store);
  const identities = new Identities(store, credentials);
  const savedSandbox = store.getMeta('sandbox');
  // Data directories seeded before tenancies existed: their sandbox compartment is the first tenancy's.
  if (savedSandbox)
    identities.addCompartment(credentials.tenancyId, (JSON.parse(savedSandbox) as SandboxIds).compartmentId);
  const objects = new ObjectStore(store, clock);
  const deps = { store, clock, settings, credentials, objects };
  const disasterRecovery = createDisasterRecoveryService(deps);
  const aiLanguage = createAiLanguageService(deps);
  const faults = new FaultInjector();

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
      const ids: SandboxIds = {
        ...context,
        disasterRecovery: disasterRecovery.seedSandbox(context),
        aiLanguage: aiLanguage.seedSandbox(context),
      };
      store.setMeta('sandbox', JSON.stringify(ids));
      return ids;
    });
  };

  if (options.rateLimit !== undefined && !(options.rateLimit > 0))
    throw new RangeError('rateLimit must be a positive number');
  const authMode = options.auth ?? 'signature';
  if (authMode !== 'signature' && authMode !== 'none') throw new RangeError(`unknown auth mode '${String(authMode)}'`);
  const adminToken = options.adminToken ?? randomBytes(24).toString('base64url');
  if (!/^[\x21-\x7e]+$/.test(adminToken)) throw new RangeError('adminToken must be printable ASCII without spaces');
  const authentication = createAuthentication({
    mode: authMode,
    identities,
    adminToken,
    defaultPrincipal: {
      tenancyId: credentials.tenancyId,
      userId: credentials.userId,
      fingerprint: credentials.fingerprint,
    },
  });
  const app = buildApp(authentication, options.rateLimit ? new RateLimiter(options.rateLimit) : undefined);
  const httpDeps = { store, retryTokens: new RetryTokens(store, clock), faults, homeRegion };
  registerService(app, disasterRecovery.routes, httpDeps);
  registerService(app, aiLanguage.routes, httpDeps);
  registerAdminRoutes(app, {
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
  registerIdentityRoutes(app, { identities, homeRegion });

  let sandbox: SandboxIds | undefined;
  try {
    if (options.seed === 'sandbox') sandbox = seedSandbox();
    await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  } catch (error) {
    store.close();
    throw error;
  }
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
      store.close();
      if (options.inMemory) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
