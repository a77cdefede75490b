import { Brand } from './Brand';
import { ProfileMenu } from './ProfileMenu';

export function Header() {
  return (
    <header className="topbar">
      <Brand />
      <ProfileMenu />
    </header>
  );
}
