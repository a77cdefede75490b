import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { CreateWebhookForm } from './CreateWebhookForm';
import { NewWebhookSecret } from './NewWebhookSecret';
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
  const { data } = useQuery(WEBHOOKS_PAGE);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  if (!data) return null;

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
      {data.webhooks.length === 0 ? (
        <div className="card empty-state">
          <p>No endpoints yet.</p>
        </div>
      ) : (
        <div className="card table-card">
          <table className="data-table token-table">
            <caption className="visually-hidden">Your webhook endpoints</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.webhooks.map((webhook) => (
                <WebhookRow key={webhook.id} webhook={webhook} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
