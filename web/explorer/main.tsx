import { StrictMode, useEffect, useId, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { createClient } from 'graphql-ws';
import { buildSchema } from 'graphql';
// The published schema (schema/schema.graphql), bundled: the explorer documents and completes every field even
// where the gateway answers no introspection (production), and needs no schema request.
import sdl from '../../schema/schema.graphql?raw';
import 'graphiql/style.css';
import './explorer.css';

const START = `# Welcome to the Fulcrum GraphQL explorer.
# Signed in to Fulcrum in this browser? Queries run as you. Otherwise paste an API token above.
# Ctrl-Enter runs the query; Ctrl-Space completes; the book icon opens the documentation.

query FirstPage {
  me { id username }
  tickets(first: 5) {
    totalCount
    nodes { id title priority requester { name } }
    pageInfo { hasNextPage endCursor }
  }
}
`;

/**
 * Requests go to this gateway's /graphql: with the session cookie of the signed-in agent (same origin, sent by
 * the browser; the JSON body and the preflight header satisfy the CSRF check), or with a pasted API token as
 * `Authorization: Bearer ...`, over HTTP and in the websocket's connection parameters. The token lives in this
 * tab only (never stored).
 */
function useFetcher(token: string) {
  const fetcher = useMemo(() => {
    const bearer = token.trim() ? { authorization: `Bearer ${token.trim()}` } : undefined;
    const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
    const wsClient = createClient({ url: wsUrl, lazy: true, connectionParams: () => bearer ?? {} });
    const fetch = createGraphiQLFetcher({
      url: '/graphql',
      headers: { 'apollo-require-preflight': 'true', ...bearer },
      wsClient: wsClient,
    });
    return { fetch, wsClient };
  }, [token]);
  useEffect(() => () => void fetcher.wsClient.dispose(), [fetcher]);
  return fetcher.fetch;
}

const schema = buildSchema(sdl);

function Explorer() {
  const [token, setToken] = useState('');
  const tokenId = useId();
  const hintId = useId();
  const fetcher = useFetcher(token);
  return (
    <div className="explorer">
      <header className="explorer-bar">
        <a className="explorer-home" href="/">
          Fulcrum
        </a>
        <h1>GraphQL explorer</h1>
        <form className="explorer-token" onSubmit={(event) => event.preventDefault()} autoComplete="off">
          <label htmlFor={tokenId}>API token</label>
          <input
            id={tokenId}
            type="password"
            placeholder="fulcrum_pat_..."
            value={token}
            spellCheck={false}
            autoComplete="off"
            aria-describedby={hintId}
            onChange={(event) => setToken(event.target.value)}
          />
          <span id={hintId} className="explorer-hint">
            {token.trim() ? 'Requests send this token (Authorization: Bearer).' : 'Empty: requests use your signed-in session.'}
          </span>
        </form>
      </header>
      <main className="explorer-main">
        <GraphiQL fetcher={fetcher} schema={schema} defaultQuery={START} shouldPersistHeaders={false} />
      </main>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Explorer />
  </StrictMode>,
);
