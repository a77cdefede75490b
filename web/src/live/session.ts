import { makeVar } from '@apollo/client';

/**
 * True while this tab changes who is signed in (from just before the login/logout call until the store has been
 * reset and `me` fetched again). The shell mounts no live connection meanwhile: the old socket belongs to the
 * old session (logout closes it with 4401 anyway) and the next one must carry the new session cookie.
 */
export const sessionSwitchingVar = makeVar(false);

let depth = 0;

/** Marks a session change; call the returned function when it is over (also after a failure). */
export function beginSessionSwitch(): () => void {
  depth += 1;
  sessionSwitchingVar(true);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    depth -= 1;
    if (depth === 0) sessionSwitchingVar(false);
  };
}
