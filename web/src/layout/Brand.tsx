import { Link } from 'react-router-dom';
import { useSession } from '../session/session';
import { LogoMark } from '../ui/Icons';

/** The stylised lowercase "fulcrum" with its subtitle; links to the dashboard when signed in, else home. */
export function Brand() {
  const me = useSession();
  return (
    <Link className="brand" to={me ? '/view/tickets/all' : '/'} aria-label="fulcrum workspace home">
      <LogoMark />
      <span className="brand-text">
        <span className="brand-name">fulcrum</span>
        <span className="brand-subtitle">workspace</span>
      </span>
    </Link>
  );
}
