import { Brand } from './Brand';
import { ProfileMenu } from './ProfileMenu';
import './shell.css';

export function Header() {
  return (
    <header className="topbar">
      <Brand />
      <ProfileMenu />
    </header>
  );
}
