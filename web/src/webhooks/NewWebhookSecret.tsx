import { SecretOnce } from '../ui/SecretOnce';
import './webhooks.css';

/** A signing secret just issued (new endpoint or rotation), shown this once, with a copy button. */
export function NewWebhookSecret({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  return (
    <SecretOnce heading={title} label="Signing secret" noun="signing secret" secret={secret} onDone={onDone}>
      Copy the signing secret now and keep it with your receiver: it is not shown again. Verify each request&apos;s
      <code> webhook-signature</code> header with it (any Standard Webhooks library does).
    </SecretOnce>
  );
}
