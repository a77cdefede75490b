import { ApolloClient, ApolloLink } from '@apollo/client';
import UploadHttpLink from 'apollo-upload-client/UploadHttpLink.mjs';
import { OperationTypeNode } from 'graphql';
import { createLiveLink } from '../live/connection';
import { createCache } from '../apollo/cache';

/**
 * The link chain. Subscriptions go over graphql-ws (web/src/live/connection.ts owns the socket: opened for a
 * signed-in session, reconnecting with backoff); queries and mutations go over HTTP: JSON, or a multipart request
 * when the variables hold a File (ticket images). Apollo Server's CSRF prevention requires the preflight header on
 * multipart.
 */
export function createLink(): ApolloLink {
  const httpLink = new UploadHttpLink({
    uri: '/graphql',
    credentials: 'same-origin',
    headers: { 'Apollo-Require-Preflight': 'true' },
  });
  return ApolloLink.split(({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION, createLiveLink(), httpLink);
}

export function createApolloClient(): ApolloClient {
  return new ApolloClient({
    link: createLink(),
    cache: createCache(),
  });
}
