import { useEffect, useRef, useState } from 'react';

/** The secret of a token just created, shown this once, with a copy button. */
export function NewTokenSecret({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('copied');
    } catch {
      // No clipboard permission (or not a secure context): the secret is selected; the agent copies it by hand.
      input.current?.select();
      setCopied('failed');
    }
  }

  return (
    <section className="card token-secret" aria-labelledby="token-secret-heading">
      <h2 id="token-secret-heading">Token “{name}” created</h2>
      <p>
        Copy the token now and keep it somewhere safe: it is not shown again. Send it as <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      <div className="token-secret-row">
        <label className="visually-hidden" htmlFor="new-token-secret">
          New token
        </label>
        <input id="new-token-secret" ref={input} className="token-secret-value" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button button-primary" onClick={copy}>
          Copy
        </button>
      </div>
      <p className="token-copy-status" role="status" aria-live="polite">
        {copied === 'copied' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Could not copy: the token is selected, press Ctrl+C (or ⌘C).' : ''}
      </p>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </section>
  );
}
