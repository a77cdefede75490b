import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { LoadFailed, PageLoading } from '../ui/PageStates';
import { ConfirmModal } from '../ui/ConfirmModal';
import { ApiTokenRow } from './ApiTokenRow';
import { CreateApiTokenForm } from './CreateApiTokenForm';
import { SecretOnce } from '../ui/SecretOnce';
import { DataTable } from '../ui/DataTable';
import { removeApiTokenFromList } from './cache';

const API_TOKENS_PAGE = graphql(`
  query ApiTokensPage {
    apiTokens {
      id
      ...ApiTokenRow_token
    }
  }
`);

const REVOKE_API_TOKEN = graphql(`
  mutation RevokeApiToken($id: Int!) {
    revokeApiToken(id: $id) {
      id
      revokedAt
    }
  }
`);

/** Personal access tokens for integrations (docs/integrators.md): create (the secret shown once), list, revoke. */
export default function ApiTokensPage() {
  const { data, error, refetch } = useQuery(API_TOKENS_PAGE);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<{ id: number; name: string } | null>(null);
  const [revoke] = useMutation(REVOKE_API_TOKEN, {
    update(cache, { data: result }) {
      if (result) removeApiTokenFromList(cache, result.revokeApiToken.id);
    },
  });
  if (!data) return error ? <LoadFailed what="API tokens" error={error} retry={refetch} /> : <PageLoading />;

  return (
    <section className="page">
      <header className="page-header">
        <p className="eyebrow">Integrations</p>
        <h1>API Tokens</h1>
        <p className="page-subtitle">Tokens let scripts and other systems use the GraphQL API as you. Treat them like passwords.</p>
      </header>
      {created ? (
        <SecretOnce heading={`Token “${created.name}” created`} label="New token" noun="token" secret={created.secret} onDone={() => setCreated(null)}>
          Copy the token now and keep it somewhere safe: it is not shown again. Send it as <code>Authorization: Bearer &lt;token&gt;</code>.
        </SecretOnce>
      ) : (
        <CreateApiTokenForm onCreated={setCreated} />
      )}
      <DataTable
        className="token-table"
        caption="Your API tokens"
        columns={['Name', 'Scopes', 'Ends in', 'Created', 'Expires', 'Last used']}
        empty={data.apiTokens.length === 0 ? 'No tokens yet.' : undefined}
      >
        {data.apiTokens.map((token) => (
          <ApiTokenRow key={token.id} token={token} onRevoke={setRevoking} />
        ))}
      </DataTable>
      {revoking && (
        <ConfirmModal
          title="Revoke Token"
          question={`Revoke “${revoking.name}”? Anything using it stops working at once.`}
          confirmLabel="Revoke Token"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await revoke({ variables: { id: revoking.id } });
            setRevoking(null);
          }}
        />
      )}
    </section>
  );
}
