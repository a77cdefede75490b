import { ApolloClient, ApolloLink } from '@apollo/client';
import UploadHttpLink from 'apollo-upload-client/UploadHttpLink.mjs';
import { createCache } from './cache';

/**
 * The link chain. Today: one terminating link that sends JSON, or a multipart request when the variables
 * hold a File (ticket images). Apollo Server's CSRF prevention requires the preflight header on multipart.
 *
 * Live updates (a later issue) split subscriptions off to graphql-ws here:
 *   ApolloLink.split(isSubscription, new GraphQLWsLink(createClient({ url: wsUrl('/graphql') })), httpLink)
 */
export function createLink(): ApolloLink {
  const httpLink = new UploadHttpLink({
    uri: '/graphql',
    credentials: 'same-origin',
    headers: { 'Apollo-Require-Preflight': 'true' },
  });
  return httpLink;
}

export function createApolloClient(): ApolloClient {
  return new ApolloClient({
    link: createLink(),
    cache: createCache(),
  });
}
