import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { LIMITS, TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES } from '@fulcrum/schema/validation';
import type { TicketFilter, TicketOrder, TicketPriority, TicketStatus, TicketType } from '../gql/graphql';

/**
 * The dashboard's filter lives in the URL (shareable; the back button walks through earlier filters):
 *   ?q=printer&status=OPEN,PENDING&priority=High,Urgent&type=Incident&order=PRIORITY
 * No `status` means the default, the unsolved tickets (OPEN and PENDING); `status=all` means every status.
 */
// The lists are the shared validation module's (the server's GraphQL enums are built from the same lists).
export const STATUSES = TICKET_STATUSES satisfies readonly TicketStatus[];
export const PRIORITIES = TICKET_PRIORITIES satisfies readonly TicketPriority[];
export const TYPES = TICKET_TYPES satisfies readonly TicketType[];
export const ORDERS = [
  ['NEWEST', 'Newest'],
  ['OLDEST', 'Oldest'],
  ['PRIORITY', 'Priority'],
  ['UPDATED', 'Last update'],
  ['RELEVANCE', 'Best match'],
] as const satisfies readonly (readonly [TicketOrder, string])[];
export const DEFAULT_STATUSES: TicketStatus[] = ['OPEN', 'PENDING'];

export interface DashboardState {
  search: string;
  statuses: TicketStatus[];
  priorities: TicketPriority[];
  types: TicketType[];
  order: TicketOrder | null;
}

/** Known values only, in canonical order (one cached list per filter, whatever order the URL named them in). */
function pick<T extends string>(raw: string | null, allowed: readonly T[]): T[] {
  const wanted = new Set((raw ?? '').split(','));
  return allowed.filter((value) => wanted.has(value));
}

export function readState(params: URLSearchParams): DashboardState {
  const status = params.get('status');
  const order = params.get('order');
  return {
    search: (params.get('q') ?? '').slice(0, LIMITS.search.max),
    statuses: status === null ? DEFAULT_STATUSES : status === 'all' ? [...STATUSES] : pick(status, STATUSES),
    priorities: pick(params.get('priority'), PRIORITIES),
    types: pick(params.get('type'), TYPES),
    order: ORDERS.some(([value]) => value === order) ? (order as TicketOrder) : null,
  };
}

function writeState(state: DashboardState, view: string | null = null): URLSearchParams {
  const params = new URLSearchParams();
  if (view) params.set('view', view);
  if (state.search) params.set('q', state.search);
  const isDefault = state.statuses.length === DEFAULT_STATUSES.length && DEFAULT_STATUSES.every((s) => state.statuses.includes(s));
  if (!isDefault) params.set('status', state.statuses.length === 0 || state.statuses.length === STATUSES.length ? 'all' : state.statuses.join(','));
  if (state.priorities.length) params.set('priority', state.priorities.join(','));
  if (state.types.length) params.set('type', state.types.join(','));
  if (state.order) params.set('order', state.order);
  return params;
}

export function isDefaultState(state: DashboardState): boolean {
  return writeState(state).toString() === '';
}

/** The GraphQL variables of a state: the same state always gives the same variables (and cached list). */
export function toVariables(state: DashboardState, viewId: number | null = null): { filter: TicketFilter; orderBy: TicketOrder | null } {
  const all = state.statuses.length === 0 || state.statuses.length === STATUSES.length;
  if (viewId != null) {
    // A view brings its own scope and filter: only what the agent changed on top of it is sent (a part
    // sent replaces the view's), so an untouched view's list total is the view's count.
    const isDefault = !all && state.statuses.length === DEFAULT_STATUSES.length && DEFAULT_STATUSES.every((s) => state.statuses.includes(s));
    return {
      filter: {
        search: state.search.trim() || null,
        status: isDefault ? null : all ? [...STATUSES] : state.statuses,
        priority: state.priorities.length ? state.priorities : null,
        type: state.types.length ? state.types : null,
      },
      orderBy: state.order,
    };
  }
  return {
    filter: {
      // The dashboard is "My tickets": the tickets assigned to the agent (a team's or an admin's wider list is not
      // this screen's), under its "(n) Open Tickets" heading.
      assignedToMe: true,
      search: state.search.trim() || null,
      status: all ? null : state.statuses,
      priority: state.priorities.length ? state.priorities : null,
      type: state.types.length ? state.types : null,
    },
    orderBy: state.order,
  };
}

/** The view chosen in the sidebar (`?view=<id>`); null: the agent's own tickets, as always. */
export function useSelectedView(): number | null {
  const [params] = useSearchParams();
  return viewIdOf(params);
}

/** The view a dashboard address names (`?view=<id>`); null: the agent's own tickets. */
export function viewIdOf(params: URLSearchParams): number | null {
  const raw = params.get('view');
  const id = raw != null && /^-?\d{1,9}$/.test(raw) ? Number(raw) : null;
  return id === -1 ? null : id;
}

/**
 * The state and its setter. A filter change is a new history entry; typing into the search box replaces the
 * entry it made itself, so Back returns to the filter before the search, not to every letter typed.
 */
export function useDashboardState(): [DashboardState, (next: Partial<DashboardState>, options?: { typing?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readState(params), [params]);
  const update = useCallback(
    (next: Partial<DashboardState>, options: { typing?: boolean } = {}) => {
      setParams((current) => writeState({ ...readState(current), ...next }, current.get('view')), { replace: !!options.typing && params.has('q') });
    },
    [params, setParams],
  );
  return [state, update];
}

export function toggle<T>(values: readonly T[], value: T): T[] {
  return values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
}
