import { memo } from 'react';
import { RelativeTime } from '../../../ui/RelativeTime';
import { actorName, viaWords, type ActorValue, type ChangeValue } from '../entries';
import { historySentence } from '../history';

interface ChangeRowProps {
  actor: ActorValue;
  via: string;
  at: string;
  changes: readonly ChangeValue[];
}

/** "Marnie changed the priority from High to Urgent · 2 min. ago" (history.ts): one actor's changes within a minute. */
export const ChangeRow = memo(
  function ChangeRow({ actor, via, at, changes }: ChangeRowProps) {
    const door = viaWords(via);
    return (
      <li className="timeline-row timeline-change">
        <p className="timeline-line">
          <span className="timeline-actor">{actorName(actor)}</span> {historySentence(changes)}
          {door && ` ${door}`}
          {' · '}
          <RelativeTime value={at} />
        </p>
      </li>
    );
  },
  // A group is rebuilt on every render of the list: it is the same row while it holds the same entries.
  (before, after) =>
    before.at === after.at && before.changes.length === after.changes.length && before.changes.every((change, index) => change === after.changes[index]),
);
