import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useDemoLogin } from '../app/auth';
import { describeError } from '../apollo/errors';
import heroUrl from './hero.svg';
import './landing.css';
import { useSession } from '../app/session';

/** The landing page: name, headline, tagline, Demo Login, the hero image and the footer. Stacks below 1400 px. */
export default function LandingPage() {
  const me = useSession();
  const demoLogin = useDemoLogin();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function startDemo() {
    setBusy(true);
    setError(null);
    try {
      await demoLogin();
    } catch (caught) {
      setError(describeError(caught).message);
      setBusy(false);
    }
  }

  return (
    <div className="landing">
      <section className="landing-hero">
        <div className="landing-copy">
          <p className="landing-wordmark">
            <span className="landing-name">fulcrum</span> <span className="landing-subtitle">workspace</span>
          </p>
          <h1 className="landing-headline">Balance Your Work</h1>
          <p className="landing-tagline">
            Tickets, customers, canned replies and team conversations in one calm workspace, so every request lands on solid ground.
          </p>
          <div className="landing-actions">
            {me ? (
              <Link className="button button-primary button-large" to="/view/tickets/all">
                Open Dashboard
              </Link>
            ) : (
              <button type="button" className="button button-primary button-large" onClick={startDemo} disabled={busy}>
                {busy ? 'Loading...' : 'Demo Login'}
              </button>
            )}
            {!me && (
              <Link className="button button-ghost button-large" to="/signup">
                Create an account
              </Link>
            )}
          </div>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="landing-art">
          <img src={heroUrl} alt="A lever resting on a fulcrum, balancing tickets against conversations" width="640" height="480" />
        </div>
      </section>
      <footer className="landing-footer">
        <p className="landing-footer-title">Fulcrum</p>
        <nav aria-label="Profiles" className="landing-footer-links">
          <a href="https://github.com/" target="_blank" rel="noopener noreferrer">
            GitHub
          </a>
          <a href="https://www.linkedin.com/" target="_blank" rel="noopener noreferrer">
            LinkedIn
          </a>
        </nav>
      </footer>
    </div>
  );
}
