import { graphql, useFragment, type FragmentType } from '../gql';
import { eventLabel } from './eventNames';
import { formatDateTime } from '../ui/formatDate';
import './webhooks.css';
import '../ui/settings.css';
import '../ui/table.css';

export const DeliveryRow_delivery = graphql(`
  fragment DeliveryRow_delivery on WebhookDelivery {
    id
    event
    messageId
    attempt
    statusCode
    succeeded
    durationMs
    error
    responseExcerpt
    createdAt
  }
`);

/** One attempt of the delivery log, with its redeliver button. */
export function DeliveryRow({
  delivery: ref,
  onRedeliver,
  busy,
}: {
  delivery: FragmentType<typeof DeliveryRow_delivery>;
  onRedeliver: (id: number) => void;
  busy: boolean;
}) {
  const d = useFragment(DeliveryRow_delivery, ref);
  const event = d.event === 'WEBHOOK_TEST' ? 'Test' : eventLabel(d.event);
  return (
    <tr>
      <td>
        <span className="cell-label">Time</span>
        <time dateTime={d.createdAt}>{formatDateTime(d.createdAt, { seconds: true })}</time>
      </td>
      <td>
        <span className="cell-label">Event</span>
        {event}{' '}
        <code className="webhook-message-id" title="webhook-id">
          {d.messageId}
        </code>
      </td>
      <td>
        <span className="cell-label">Attempt</span>
        {d.attempt}
      </td>
      <td>
        <span className="cell-label">Result</span>
        <span className={d.succeeded ? 'webhook-ok' : 'token-expired'}>{d.statusCode ?? 'No answer'}</span>
        {d.error && <span className="webhook-error"> {d.error}</span>}
      </td>
      <td>
        <span className="cell-label">Duration</span>
        {d.durationMs} ms
      </td>
      <td>
        <span className="cell-label">Response</span>
        {d.responseExcerpt ? <code className="webhook-excerpt">{d.responseExcerpt.slice(0, 200)}</code> : '—'}
      </td>
      <td>
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={busy}
          onClick={() => onRedeliver(d.id)}
          aria-label={`Redeliver ${event} event ${d.messageId}`}
        >
          Redeliver
        </button>
      </td>
    </tr>
  );
}
