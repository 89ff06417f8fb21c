import type { FastifyPluginAsync } from 'fastify';
import { principalFrom, type Principal } from './auth';
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
}

/**
 * The OCI APIs as one fastify plugin: every service's operations, behind an authentication hook
 * (and per-tenancy throttling) that belongs to this plugin's routes only, so the admin API, a
 * sibling plugin, is never authenticated as OCI and no URL prefix decides who is.
 */
export const ociApi: FastifyPluginAsync<OciApiOptions> = async (app, { services, rateLimiter, ...deps }) => {
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      request.principal = principalFrom(request.headers.authorization);
      rateLimiter?.take(request.principal.tenancyId);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
  for (const routes of services) registerOperations(app, routes, deps);
};
