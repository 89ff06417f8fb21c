import type { FastifyPluginAsync } from 'fastify';
import type { FastifyRequest } from 'fastify';
import type { Principal } from './auth';
import { registerOperations, type HttpDependencies, type ServiceRoutes } from './operation';
import type { RateLimiter } from './rate-limit';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who signed the request; set by the OCI API's authentication hook, absent on admin routes. */
    principal?: Principal;
  }
}

export interface OciApiOptions extends HttpDependencies {
  services: ServiceRoutes[];
  rateLimiter?: RateLimiter;
  /** Verifies the request's signature and says who signed it (`ociAuthentication`). */
  authenticate: (request: FastifyRequest) => Principal;
}

/**
 * The OCI APIs as one fastify plugin: every service's operations, behind an authentication hook
 * (and per-tenancy throttling) that belongs to this plugin's routes only, so the admin API, a
 * sibling plugin, is never authenticated as OCI and no URL prefix decides who is.
 */
export const ociApi: FastifyPluginAsync<OciApiOptions> = async (
  app,
  { services, rateLimiter, authenticate, ...deps },
) => {
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      request.principal = authenticate(request);
      rateLimiter?.take(request.principal.tenancyId);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
  // A signed body digest with no body read (an empty POST) is compared with the empty body.
  app.addHook('preValidation', async (request) => request.checkRawBody?.(undefined));
  for (const routes of services) registerOperations(app, routes, deps);
};
