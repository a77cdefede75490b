import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import './SecretOnce.css';
import './forms.css';

interface SecretOnceProps {
  /** The card's heading, e.g. `Token “ci” created`. */
  heading: string;
  /** The value's accessible name ("New token", "Signing secret"). */
  label: string;
  /** What the secret is called in the copy status ("token", "signing secret"). */
  noun: string;
  secret: string;
  /** What to do with it: one or two sentences under the heading. */
  children: ReactNode;
  onDone: () => void;
}

/**
 * A secret the server shows only once (an API token, a webhook signing secret): selected at once, with a copy
 * button whose outcome is announced, and an explicit "I have copied it" to put it away.
 */
export function SecretOnce({ heading, label, noun, secret, children, onDone }: SecretOnceProps) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
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
    <section className="card token-secret" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{heading}</h2>
      <p>{children}</p>
      <div className="token-secret-row">
        <label className="visually-hidden" htmlFor={`${id}-value`}>
          {label}
        </label>
        <input id={`${id}-value`} ref={input} className="token-secret-value" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button button-primary" onClick={copy}>
          Copy
        </button>
      </div>
      <p className="token-copy-status" role="status" aria-live="polite">
        {copied === 'copied' ? 'Copied to the clipboard.' : copied === 'failed' ? `Could not copy: the ${noun} is selected, press Ctrl+C (or ⌘C).` : ''}
      </p>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </section>
  );
}
