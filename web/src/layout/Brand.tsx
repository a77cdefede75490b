import { Link } from 'react-router-dom';
import { useSession } from '../app/session';
import { LogoMark } from '../ui/Icons';
import './shell.css';

/**
 * The stylised lowercase "fulcrum" with its subtitle; links to the dashboard when signed in, else home. The link's
 * name is its visible text, "fulcrum workspace" (the space keeps the two words apart for screen readers; the flex
 * column does not render it), so speech input can say what it sees (WCAG 2.5.3).
 */
export function Brand() {
  const me = useSession();
  return (
    <Link className="brand" to={me ? '/view/tickets/all' : '/'}>
      <LogoMark />
      <span className="brand-text">
        <span className="brand-name">fulcrum</span> <span className="brand-subtitle">workspace</span>
      </span>
    </Link>
  );
}
