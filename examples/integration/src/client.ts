/**
 * A minimal Fulcrum client: typed documents (generated in ./gql) over HTTP, and subscriptions over graphql-ws,
 * both authenticated with an API token (`Authorization: Bearer fulcrum_pat_...`).
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { TypedDocumentString } from './gql/graphql.js';

export interface FulcrumConfig {
  /** The gateway, e.g. https://fulcrum.example.com (FULCRUM_URL). */
  url: string;
  /** An API token (FULCRUM_TOKEN). */
  token: string;
}

/** A GraphQL error as Fulcrum sends it: a stable code, and for bad input the fields at fault. */
export class FulcrumError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly fields: Record<string, string[]> = {},
    readonly status = 200,
  ) {
    super(message);
    this.name = 'FulcrumError';
  }
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string[]> } }[];
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): FulcrumConfig {
  const url = env.FULCRUM_URL?.replace(/\/+$/, '');
  const token = env.FULCRUM_TOKEN;
  if (!url || !token) throw new Error('Set FULCRUM_URL (e.g. http://127.0.0.1:4000) and FULCRUM_TOKEN (an API token from your profile menu).');
  return { url, token };
}

export function createFulcrum(config: FulcrumConfig) {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${config.token}` };

  async function request<TResult, TVariables>(
    document: TypedDocumentString<TResult, TVariables>,
    ...[variables]: TVariables extends Record<string, never> ? [] : [TVariables]
  ): Promise<TResult> {
    const response = await fetch(`${config.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: document.toString(), variables }) });
    const body = (await response.json().catch(() => ({}))) as GraphQLResponse<TResult>;
    const error = body.errors?.[0];
    if (error) throw new FulcrumError(error.message, error.extensions?.code ?? 'UNKNOWN', error.extensions?.fields, response.status);
    if (!response.ok || !body.data) throw new FulcrumError(`HTTP ${response.status}`, 'HTTP', {}, response.status);
    return body.data;
  }

  let ws: Client | undefined;
  let connected: (() => void) | undefined;
  /** Calls `next` for each event until the returned function is called; `connected` once the socket is accepted. */
  function subscribe<TResult, TVariables>(
    document: TypedDocumentString<TResult, TVariables>,
    variables: TVariables,
    handlers: { next: (data: TResult) => void; error?: (error: unknown) => void; connected?: () => void },
  ): () => void {
    connected = handlers.connected;
    ws ??= createClient({
      url: `${config.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${config.token}` },
      on: { connected: () => connected?.() },
    });
    const fail = handlers.error ?? (() => {});
    return ws.subscribe<TResult>(
      { query: document.toString(), variables: variables as Record<string, unknown> },
      {
        next: (message) => (message.data ? handlers.next(message.data) : fail(message.errors)),
        error: fail,
        complete: () => {},
      },
    );
  }

  return { request, subscribe, close: () => ws?.dispose() };
}
