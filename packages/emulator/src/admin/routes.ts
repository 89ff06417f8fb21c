import type { FastifyPluginAsync } from 'fastify';
import { adminTokenCheck } from '../http/authentication';
import { bodyParser } from '../http/pipeline';
import { identityAdminApi, type IdentityRouteDependencies } from './identities';
import { errors } from '../core/errors';
import type { AdjustableClock } from '../core/clock';
import type { FaultInjector, FaultSpec } from '../http/faults';
import type { ObjectStore } from '../services/common/objects';

export interface AdminDependencies extends IdentityRouteDependencies {
  /** Every admin call but the health check needs `Authorization: Bearer <adminToken>`. */
  adminToken: string;
  clock: AdjustableClock;
  faults: FaultInjector;
  objects: ObjectStore;
  seedSandbox(): object;
  sandbox(): object | undefined;
  reset(): void;
}

/**
 * The emulator's own control API under `/_ocikit` (not OCI; not signed, but behind the admin bearer token): health, the sandbox seed,
 * reset, moving the clock forward, injecting faults, and uploading objects (training data).
 */
export const adminApi: FastifyPluginAsync<AdminDependencies> = async (app, deps) => {
  const checkToken = adminTokenCheck(deps.adminToken);
  app.addHook('onRequest', async (request) => checkToken(request));
  await app.register(identityAdminApi, deps);
  app.get('/_ocikit/health', async () => ({ status: 'ok' }));

  app.post(
    '/_ocikit/seed',
    { schema: { body: { type: 'object', properties: { seed: { enum: ['sandbox'] } } } } },
    async () => deps.seedSandbox(),
  );

  app.get('/_ocikit/sandbox', async () => {
    const ids = deps.sandbox();
    if (!ids)
      throw errors.notFound('The sandbox has not been seeded: start with --seed sandbox or POST /_ocikit/seed.');
    return ids;
  });

  app.post('/_ocikit/reset', async (_request, reply) => {
    deps.reset();
    return reply.code(204).send();
  });

  app.post(
    '/_ocikit/clock',
    {
      schema: {
        body: {
          type: 'object',
          required: ['advanceSeconds'],
          properties: { advanceSeconds: { type: 'number', minimum: 0 } },
        },
      },
    },
    async (request) => {
      try {
        deps.clock.advance((request.body as { advanceSeconds: number }).advanceSeconds * 1000);
      } catch (error) {
        // JSON reads 1e400 as Infinity, and a huge advance would pass the latest time a date can hold.
        if (!(error instanceof RangeError)) throw error;
        throw errors.invalidParameter(`Invalid field 'advanceSeconds': ${error.message}.`);
      }
      return { now: new Date(deps.clock.now()).toISOString() };
    },
  );

  app.get('/_ocikit/faults', async () => ({ items: deps.faults.list() }));
  // Validated by validateFault (also used for --faults files), so both accept exactly the same.
  app.post('/_ocikit/faults', async (request, reply) => {
    deps.faults.add(request.body as FaultSpec);
    return reply.code(204).send();
  });
  app.delete('/_ocikit/faults', async (_request, reply) => {
    deps.faults.clear();
    return reply.code(204).send();
  });

  // Objects are text sent as it is: the one place a body is not JSON.
  app.addContentTypeParser(
    ['text/plain', 'application/octet-stream'],
    { parseAs: 'buffer' },
    bodyParser((raw) => raw),
  );
  app.put('/_ocikit/objects/:namespace/:bucket/*', async (request, reply) => {
    const { namespace, bucket, '*': name } = request.params as { namespace: string; bucket: string; '*': string };
    const body = request.body;
    const content = Buffer.isBuffer(body) ? body.toString('utf8') : undefined;
    if (!name || content === undefined)
      throw errors.invalidParameter('Send the object as a text/plain or application/octet-stream body.');
    deps.objects.put(namespace, bucket, name, content);
    return reply.code(204).send();
  });
};
