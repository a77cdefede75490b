import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { LoadFailed, PageLoading } from '../ui/PageStates';
import { CreateWebhookForm } from './CreateWebhookForm';
import { NewWebhookSecret } from './NewWebhookSecret';
import { DataTable } from '../ui/DataTable';
import { WebhookRow } from './WebhookRow';

const WEBHOOKS_PAGE = graphql(`
  query WebhooksPage {
    webhooks {
      id
      ...WebhookRow_webhook
    }
  }
`);

/** Webhook endpoints (docs/webhooks.md): add one (the secret shown once), list them, open one's log. */
export default function WebhooksPage() {
  const { data, error, refetch } = useQuery(WEBHOOKS_PAGE);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  if (!data) return error ? <LoadFailed what="webhooks" error={error} retry={refetch} /> : <PageLoading />;

  return (
    <section className="page">
      <header className="page-header">
        <p className="eyebrow">Integrations</p>
        <h1>Webhooks</h1>
        <p className="page-subtitle">
          Fulcrum POSTs a signed JSON event to your endpoint when something you can see changes, and retries for about a day if it fails.
        </p>
      </header>
      {created ? (
        <NewWebhookSecret title={`Endpoint ${created.url} added`} secret={created.secret} onDone={() => setCreated(null)} />
      ) : (
        <CreateWebhookForm onCreated={setCreated} />
      )}
      <DataTable
        className="token-table"
        caption="Your webhook endpoints"
        columns={['URL', 'Events', 'State']}
        empty={data.webhooks.length === 0 ? 'No endpoints yet.' : undefined}
      >
        {data.webhooks.map((webhook) => (
          <WebhookRow key={webhook.id} webhook={webhook} />
        ))}
      </DataTable>
    </section>
  );
}
