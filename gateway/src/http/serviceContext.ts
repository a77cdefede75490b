import type { Request } from 'express';
import { createLoaders, forkEm, type GraphQLContext, type ServiceContext, type ServiceDeps } from '@fulcrum/schema';
import { sessionPort } from '../session/sessions.js';
import '../apiTokens/bearer.js';

/** Which transport serves the request: GraphQL (`/graphql`) or the REST facade (`/api`). */
export type Transport = 'graphql' | 'rest';

/**
 * A fresh em.fork() and the caller, for one HTTP request, with the door it came through (the event record's `via`):
 * REST for the `/api` facade, and for GraphQL API_TOKEN with a bearer token, WEB with a session cookie.
 */
export function serviceContextFor(req: Request, deps: ServiceDeps, transport: Transport): ServiceContext {
  // A bearer request (apiTokens/bearer.ts) acts as the token's agent and has no session to change.
  if (req.apiToken)
    return {
      em: forkEm(deps.orm),
      viewerId: req.apiToken.userId,
      deps,
      token: req.apiToken,
      clientIp: req.ip ?? 'unknown',
      via: transport === 'rest' ? 'REST' : 'API_TOKEN',
    };
  return {
    em: forkEm(deps.orm),
    viewerId: req.session?.userId ?? null,
    deps,
    session: sessionPort(req),
    clientIp: req.ip ?? 'unknown',
    via: transport === 'rest' ? 'REST' : 'WEB',
  };
}

export function graphqlContextFor(service: ServiceContext): GraphQLContext {
  return { service, loaders: createLoaders(service) };
}
