import type { Request } from 'express';
import { createLoaders, forkEm, type GraphQLContext, type ServiceContext, type ServiceDeps } from '@fulcrum/schema';
import { sessionPort } from '../session/sessions.js';
import '../apiTokens/bearer.js';

/** A fresh em.fork() and the caller, for one HTTP request. */
export function serviceContextFor(req: Request, deps: ServiceDeps): ServiceContext {
  // A bearer request (apiTokens/bearer.ts) acts as the token's agent and has no session to change.
  if (req.apiToken) return { em: forkEm(deps.orm), viewerId: req.apiToken.userId, deps, token: req.apiToken, clientIp: req.ip ?? 'unknown' };
  return { em: forkEm(deps.orm), viewerId: req.session?.userId ?? null, deps, session: sessionPort(req), clientIp: req.ip ?? 'unknown' };
}

export function graphqlContextFor(service: ServiceContext): GraphQLContext {
  return { service, loaders: createLoaders(service) };
}
