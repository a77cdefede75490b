import { graphql, useFragment, type FragmentType } from '../gql';
import { formatDay } from '../ui/formatDate';
import '../ui/settings.css';
import '../ui/table.css';

export const ApiTokenRow_token = graphql(`
  fragment ApiTokenRow_token on ApiToken {
    id
    name
    scopes
    hint
    createdAt
    expiresAt
    lastUsedAt
  }
`);

/** One token: what it may do, when it expires and was last used, and its hint; never the secret. */
export function ApiTokenRow({
  token: ref,
  onRevoke,
}: {
  token: FragmentType<typeof ApiTokenRow_token>;
  onRevoke: (token: { id: number; name: string }) => void;
}) {
  const token = useFragment(ApiTokenRow_token, ref);
  // eslint-disable-next-line react-hooks/purity -- judged when the list renders; a token that runs out meanwhile is refused by the server all the same
  const expired = new Date(token.expiresAt).getTime() <= Date.now();
  return (
    <tr>
      <td>
        <span className="cell-label">Name</span>
        <strong>{token.name}</strong>
      </td>
      <td>
        <span className="cell-label">Scopes</span>
        {token.scopes.join(', ')}
      </td>
      <td>
        <span className="cell-label">Ends in</span>
        <code>…{token.hint}</code>
      </td>
      <td>
        <span className="cell-label">Created</span>
        <time dateTime={token.createdAt}>{formatDay(token.createdAt)}</time>
      </td>
      <td>
        <span className="cell-label">Expires</span>
        {expired ? <span className="token-expired">Expired {formatDay(token.expiresAt)}</span> : formatDay(token.expiresAt)}
      </td>
      <td>
        <span className="cell-label">Last used</span>
        {token.lastUsedAt ? <time dateTime={token.lastUsedAt}>{formatDay(token.lastUsedAt)}</time> : 'Never'}
      </td>
      <td>
        <button
          type="button"
          className="button button-danger-ghost button-small"
          onClick={() => onRevoke({ id: token.id, name: token.name })}
          aria-label={`Revoke ${token.name}`}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}
