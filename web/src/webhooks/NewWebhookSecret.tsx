import { useEffect, useRef, useState } from 'react';

/** A signing secret just issued (new endpoint or rotation), shown this once, with a copy button. */
export function NewWebhookSecret({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('copied');
    } catch {
      input.current?.select();
      setCopied('failed');
    }
  }

  return (
    <section className="card token-secret" aria-labelledby="webhook-secret-heading">
      <h2 id="webhook-secret-heading">{title}</h2>
      <p>
        Copy the signing secret now and keep it with your receiver: it is not shown again. Verify each request&apos;s
        <code> webhook-signature</code> header with it (any Standard Webhooks library does).
      </p>
      <div className="token-secret-row">
        <label className="visually-hidden" htmlFor="new-webhook-secret">
          Signing secret
        </label>
        <input id="new-webhook-secret" ref={input} className="token-secret-value" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button button-primary" onClick={copy}>
          Copy
        </button>
      </div>
      <p className="token-copy-status" role="status" aria-live="polite">
        {copied === 'copied' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Could not copy: the secret is selected, press Ctrl+C (or ⌘C).' : ''}
      </p>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </section>
  );
}
