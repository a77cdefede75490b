/** Test helpers for API tokens: create one through the session, and speak GraphQL with it as a bearer. */
import type { GqlResult, TestClient } from '../../src/testing/client.js';

export const CREATE_TOKEN =
  'mutation($input: ApiTokenInput!) { createApiToken(input: $input) { secret token { id name scopes hint createdAt expiresAt lastUsedAt revokedAt } } }';
export const REVOKE_TOKEN = 'mutation($id: Int!) { revokeApiToken(id: $id) { id revokedAt } }';

export interface CreatedToken {
  secret: string;
  id: number;
  token: Record<string, any>;
}

/** A token of the client's agent, made through its browser session. */
export async function createToken(client: TestClient, input: { name?: string; scopes?: string[]; expiresInDays?: number | null } = {}): Promise<CreatedToken> {
  const r = await client.gql(CREATE_TOKEN, {
    input: { name: input.name ?? 'test token', scopes: input.scopes ?? ['READ'], expiresInDays: input.expiresInDays },
  });
  if (!r.data?.createApiToken) throw new Error(`createApiToken failed: ${JSON.stringify(r.errors)}`);
  return { secret: r.data.createApiToken.secret, id: r.data.createApiToken.token.id, token: r.data.createApiToken.token };
}

/** POST /graphql with `Authorization: Bearer <secret>` (and any other headers), no cookie unless given. */
export async function bearerGql<T = Record<string, any>>(
  baseUrl: string,
  secret: string | null,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<GqlResult<T> & { text: string; extensions?: Record<string, any> }> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret === null ? {} : { authorization: `Bearer ${secret}` }), ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: res.status, headers: res.headers, text, ...(json as object) };
}
