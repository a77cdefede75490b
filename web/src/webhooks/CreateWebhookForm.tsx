import { useEffect, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { validateWebhook, WEBHOOK_LIMITS, type FieldErrors } from '@fulcrum/schema/validation';
import { graphql } from '../gql';
import type { WebhookEventType } from '../gql/graphql';
import { Field } from '../ui/Field';
import { FormActions } from '../ui/FormActions';
import { FormError, useFormState } from '../ui/useFormState';
import { addWebhookToList } from './cache';
import { EVENT_GROUPS, eventLabel } from './eventNames';
import './webhooks.css';
import '../ui/settings.css';

const CREATE_WEBHOOK = graphql(`
  mutation CreateWebhook($input: WebhookInput!) {
    createWebhook(input: $input) {
      secret
      webhook {
        id
        ...WebhookRow_webhook
      }
    }
  }
`);

/** URL and events; the server checks the address (docs/webhooks.md) and hands back the secret, shown once. */
export function CreateWebhookForm({ onCreated }: { onCreated: (created: { url: string; secret: string }) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['TICKET_CREATED', 'TICKET_UPDATED']);
  const form = useFormState();
  const [createWebhook] = useMutation(CREATE_WEBHOOK, {
    update(cache, { data }) {
      if (data) addWebhookToList(cache, data.createWebhook.webhook.id);
    },
  });

  const toggle = (event: WebhookEventType, on: boolean) => setEvents((list) => (on ? [...list, event] : list.filter((e) => e !== event)));

  // The same check the server runs (schema/src/validation): the address's shape and the events.
  const found: FieldErrors = validateWebhook({ url, events });
  // After a submit, a field showing an error is checked again as it changes (useFormState's rule).
  useEffect(() => form.recheck({ url, events }, found));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!form.check(found)) return;
    let secret = '';
    const ok = await form.run(async () => {
      const result = await createWebhook({ variables: { input: { url: url.trim(), events } } });
      secret = result.data?.createWebhook.secret ?? '';
    });
    if (ok && secret) onCreated({ url: url.trim(), secret });
  }

  return (
    <form className="form card token-form" onSubmit={submit} noValidate aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">New endpoint</h2>
      <Field
        label="Endpoint URL"
        errors={form.errors.url}
        hint="An https:// address on the internet. LAN and http:// endpoints need your administrator to allowlist them."
      >
        {(props) => (
          <input
            {...props}
            name="url"
            type="url"
            inputMode="url"
            maxLength={WEBHOOK_LIMITS.urlLength}
            placeholder="https://hooks.example.com/fulcrum"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <fieldset className="field webhook-events" aria-describedby={form.errors.events ? 'webhook-event-errors' : undefined}>
        <legend>Events</legend>
        <p className="field-hint">Only about records you may read: your tickets, macros and conversations, and the shared customer directory.</p>
        <div className="webhook-event-groups">
          {EVENT_GROUPS.map((group) => (
            <div key={group.record} role="group" aria-label={group.label} className="webhook-event-group">
              <span className="webhook-event-group-label" aria-hidden="true">
                {group.label}
              </span>
              {group.events.map((e) => (
                <label key={e}>
                  <input type="checkbox" name="events" value={e} checked={events.includes(e)} onChange={(change) => toggle(e, change.target.checked)} />{' '}
                  {eventLabel(e)}
                </label>
              ))}
            </div>
          ))}
        </div>
        {form.errors.events && (
          <ul className="field-errors" id="webhook-event-errors">
            {form.errors.events.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
      </fieldset>
      <FormError message={form.formError} />
      <FormActions label="Add endpoint" loading={form.loading} />
    </form>
  );
}
