import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { describeError, isGone, routeId } from '../apollo/errors';
import { graphql } from '../gql';
import { LoadFailed, PageLoading } from '../ui/PageStates';
import { ConfirmModal } from '../ui/ConfirmModal';
import { DataTable } from '../ui/DataTable';
import { NotFoundPanel } from '../ui/NotFoundPanel';
import { prependDelivery, removeWebhook } from './cache';
import { DeliveryRow } from './DeliveryRow';
import { eventLabel } from './eventNames';
import { NewWebhookSecret } from './NewWebhookSecret';
import { formatDateTime } from '../ui/formatDate';
import './webhooks.css';

const WEBHOOK_PAGE = graphql(`
  query WebhookPage($id: Int!) {
    webhook(id: $id) {
      id
      url
      events
      enabled
      disabledAt
      disabledReason
      consecutiveFailures
      previousSecretExpiresAt
      ...WebhookRow_webhook
      deliveries(first: 50) {
        nodes {
          id
          ...DeliveryRow_delivery
        }
        pageInfo {
          hasNextPage
        }
      }
    }
  }
`);

const SEND_TEST = graphql(`
  mutation SendTestWebhook($id: Int!) {
    sendTestWebhook(id: $id) {
      id
      succeeded
      statusCode
      error
      ...DeliveryRow_delivery
    }
  }
`);

const REDELIVER = graphql(`
  mutation RedeliverWebhookDelivery($id: Int!) {
    redeliverWebhookDelivery(id: $id) {
      id
      succeeded
      statusCode
      error
      ...DeliveryRow_delivery
    }
  }
`);

const ROTATE = graphql(`
  mutation RotateWebhookSecret($id: Int!) {
    rotateWebhookSecret(id: $id) {
      secret
      webhook {
        id
        previousSecretExpiresAt
      }
    }
  }
`);

const SET_ENABLED = graphql(`
  mutation SetWebhookEnabled($id: Int!, $enabled: Boolean!) {
    updateWebhook(id: $id, input: { enabled: $enabled }) {
      id
      enabled
      disabledAt
      disabledReason
      consecutiveFailures
    }
  }
`);

const DELETE_WEBHOOK = graphql(`
  mutation DeleteWebhook($id: Int!) {
    deleteWebhook(id: $id)
  }
`);

const outcome = (d: { succeeded: boolean; statusCode?: number | null; error?: string | null }) =>
  d.succeeded
    ? `Delivered: the endpoint answered ${d.statusCode}.`
    : `Failed: ${d.statusCode != null ? `the endpoint answered ${d.statusCode}` : (d.error ?? 'no answer')}.`;

function WebhookScreen({ id }: { id: number }) {
  const navigate = useNavigate();
  const { data, error, refetch } = useQuery(WEBHOOK_PAGE, { variables: { id } });
  const [announcement, setAnnouncement] = useState('');
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const addToLog = {
    update: (cache: Parameters<typeof prependDelivery>[0], result: { data?: { [k: string]: { id: number } } | null }) => {
      const delivery = result.data && Object.values(result.data)[0];
      if (delivery) prependDelivery(cache, id, delivery.id);
    },
  };
  const [sendTest] = useMutation(SEND_TEST, addToLog);
  const [redeliver] = useMutation(REDELIVER, addToLog);
  const [rotate] = useMutation(ROTATE);
  const [setEnabled] = useMutation(SET_ENABLED);
  const [remove] = useMutation(DELETE_WEBHOOK, {
    update(cache, { data: result }) {
      if (result) removeWebhook(cache, result.deleteWebhook);
    },
  });

  if (isGone(error)) return <NotFoundPanel what="webhook" />;
  if (!data) return error ? <LoadFailed what="webhook" error={error} retry={refetch} /> : <PageLoading />;
  const webhook = data.webhook;

  async function act(label: string, run: () => Promise<string>) {
    setBusy(true);
    setAnnouncement(`${label}…`);
    try {
      setAnnouncement(await run());
    } catch (caught) {
      setAnnouncement(`${label} failed: ${describeError(caught).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="page">
      <header className="page-header">
        <p className="eyebrow">
          <Link to="/settings/webhooks">Webhooks</Link>
        </p>
        <h1 className="webhook-title">{webhook.url}</h1>
        <p className="page-subtitle">{webhook.events.map(eventLabel).join(', ')}</p>
      </header>

      {!webhook.enabled && (
        <div className="card webhook-disabled" role="alert">
          <h2>This endpoint is disabled</h2>
          <p>{webhook.disabledReason}</p>
          <p>It receives nothing until you enable it again. Fix the receiver first, then send a test.</p>
        </div>
      )}
      {secret && <NewWebhookSecret title="New signing secret" secret={secret} onDone={() => setSecret(null)} />}

      <div className="card webhook-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy || !webhook.enabled}
          onClick={() => act('Sending a test event', async () => outcome((await sendTest({ variables: { id } })).data!.sendTestWebhook))}
        >
          Send test
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() =>
            act(webhook.enabled ? 'Disabling' : 'Enabling', async () => {
              const result = await setEnabled({ variables: { id, enabled: !webhook.enabled } });
              return result.data!.updateWebhook.enabled ? 'Enabled: new events will be delivered.' : 'Disabled: nothing will be delivered until you enable it.';
            })
          }
        >
          {webhook.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" className="button button-secondary" disabled={busy} onClick={() => setConfirm('rotate')}>
          Rotate secret
        </button>
        <button type="button" className="button button-danger-ghost" disabled={busy} onClick={() => setConfirm('delete')}>
          Delete
        </button>
        {webhook.previousSecretExpiresAt && (
          <p className="field-hint">
            The previous secret also signs until <time dateTime={webhook.previousSecretExpiresAt}>{formatDateTime(webhook.previousSecretExpiresAt)}</time>.
          </p>
        )}
        <p className="webhook-announcement" role="status" aria-live="polite">
          {announcement}
        </p>
      </div>

      <DataTable
        className="webhook-log"
        captionShown
        caption={`Deliveries (newest first; kept 14 days${webhook.deliveries.pageInfo.hasNextPage ? '; the latest 50 shown' : ''})`}
        columns={['Time', 'Event', 'Attempt', 'Result', 'Duration', 'Response']}
      >
        {webhook.deliveries.nodes.length === 0 ? (
          <tr>
            <td colSpan={7}>No deliveries yet. Send a test to check the endpoint.</td>
          </tr>
        ) : (
          webhook.deliveries.nodes.map((d) => (
            <DeliveryRow
              key={d.id}
              delivery={d}
              busy={busy || !webhook.enabled}
              onRedeliver={(deliveryId) =>
                act('Redelivering', async () => outcome((await redeliver({ variables: { id: deliveryId } })).data!.redeliverWebhookDelivery))
              }
            />
          ))
        )}
      </DataTable>

      {confirm === 'rotate' && (
        <ConfirmModal
          title="Rotate Secret"
          question="Issue a new signing secret? The current one keeps signing beside it for 24 hours, so you can update your receiver meanwhile."
          confirmLabel="Rotate Secret"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            const result = await rotate({ variables: { id } });
            setSecret(result.data!.rotateWebhookSecret.secret);
            setConfirm(null);
          }}
        />
      )}
      {confirm === 'delete' && (
        <ConfirmModal
          title="Delete Endpoint"
          question={`Delete ${webhook.url}? Pending deliveries and the log go with it.`}
          confirmLabel="Delete Endpoint"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await remove({ variables: { id } });
            void navigate('/settings/webhooks');
          }}
        />
      )}
    </section>
  );
}

/** One endpoint: its state, the delivery log with redelivery, test, enable/disable, rotate, delete. */
export default function WebhookPage() {
  const id = routeId(useParams().webhookId);
  return id ? <WebhookScreen id={id} /> : <NotFoundPanel what="webhook" />;
}
