import { Link } from 'react-router-dom';
import { graphql, useFragment, type FragmentType } from '../gql';
import { eventLabel } from './eventNames';
import './webhooks.css';
import '../ui/settings.css';
import '../ui/table.css';

export const WebhookRow_webhook = graphql(`
  fragment WebhookRow_webhook on Webhook {
    id
    url
    events
    enabled
    disabledReason
    consecutiveFailures
  }
`);

/** One endpoint: where, which events, and whether it is enabled (or why not). */
export function WebhookRow({ webhook: ref }: { webhook: FragmentType<typeof WebhookRow_webhook> }) {
  const webhook = useFragment(WebhookRow_webhook, ref);
  return (
    <tr>
      <td>
        <span className="cell-label">URL</span>
        <Link to={`/settings/webhooks/${webhook.id}`} className="webhook-url">
          {webhook.url}
        </Link>
      </td>
      <td>
        <span className="cell-label">Events</span>
        {webhook.events.map(eventLabel).join(', ')}
      </td>
      <td>
        <span className="cell-label">State</span>
        {webhook.enabled ? (
          webhook.consecutiveFailures > 0 ? (
            <span className="webhook-warning">Enabled, {webhook.consecutiveFailures} failed in a row</span>
          ) : (
            'Enabled'
          )
        ) : (
          <span className="token-expired">Disabled: {webhook.disabledReason}</span>
        )}
      </td>
      <td>
        <Link to={`/settings/webhooks/${webhook.id}`} className="button button-secondary button-small" aria-label={`Deliveries and settings of ${webhook.url}`}>
          Deliveries
        </Link>
      </td>
    </tr>
  );
}
