import type { FastifyPluginAsync } from 'fastify';
import type { Identities } from '../core/identities';

export interface IdentityRouteDependencies {
  identities: Identities;
  homeRegion: string;
}

const emptyObject = { type: 'object', additionalProperties: false, properties: {} } as const;

/**
 * Admin API for the identity domain: tenancies, their users, API keys and compartments. Each
 * answer carries what a client needs to sign requests as the new identity (the private key is
 * returned once and never stored).
 */
export const identityAdminApi: FastifyPluginAsync<IdentityRouteDependencies> = async (app, deps) => {
  app.post(
    '/_ocikit/tenancies',
    {
      schema: {
        body: { type: 'object', additionalProperties: false, properties: { name: { type: 'string', minLength: 1 } } },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as { name?: string };
      return { ...deps.identities.createTenancy(body.name), region: deps.homeRegion };
    },
  );

  app.post('/_ocikit/tenancies/:tenancyId/users', { schema: { body: emptyObject } }, async (request) => {
    const { tenancyId } = request.params as { tenancyId: string };
    return deps.identities.createUser(tenancyId);
  });

  app.post(
    '/_ocikit/users/:userId/keys',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { publicKeyPem: { type: 'string', minLength: 1 } },
        },
      },
    },
    async (request) => {
      const { userId } = request.params as { userId: string };
      return deps.identities.addKey(userId, (request.body as { publicKeyPem?: string } | undefined)?.publicKeyPem);
    },
  );

  app.post(
    '/_ocikit/tenancies/:tenancyId/compartments',
    {
      schema: {
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 1 } },
        },
      },
    },
    async (request) => {
      const { tenancyId } = request.params as { tenancyId: string };
      return { compartmentId: deps.identities.addCompartment(tenancyId) };
    },
  );
};
