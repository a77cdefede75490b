/**
 * Views: a saved filter plus a scope, its limits and messages, shared by the service and the web app's view form.
 */
import { collect, isControl, type FieldErrors } from './checks.js';

/**
 * Views: a saved filter plus a scope. MINE: the tickets assigned to the viewer; TEAM_UNASSIGNED: a team's
 * unassigned tickets; TEAM: a team's tickets; ALL: every ticket the viewer may read.
 */
export const VIEW_SCOPES = ['MINE', 'TEAM_UNASSIGNED', 'TEAM', 'ALL'] as const;
export type ViewScopeName = (typeof VIEW_SCOPES)[number];
export const VIEW_LIMITS = { name: { min: 1, max: 50 }, viewsPerAgent: 50 } as const;
export const VIEW_MESSAGES = {
  name: `View name must be ${VIEW_LIMITS.name.min} to ${VIEW_LIMITS.name.max} characters.`,
  scope: 'Scope must be one of MINE, TEAM_UNASSIGNED, TEAM, ALL.',
  teamRequired: 'Pick a team for a team view.',
  teamNotAllowed: 'Only TEAM and TEAM_UNASSIGNED views have a team.',
  teamNotMine: 'Pick one of your teams.',
  sharedScope: 'Only team views and ALL views can be shared.',
  sharedAll: 'Only an admin may share a view of ALL tickets.',
  shared: 'Shared must be true or false.',
  assignedToMe: 'A view filters by scope: use the MINE scope instead of assignedToMe.',
  builtIn: 'Default views cannot be changed or deleted: save a view of your own instead.',
  owner: 'Only its owner or an admin may change or delete a shared view.',
  limit: `You have ${VIEW_LIMITS.viewsPerAgent} views, the most one agent may keep: delete one first.`,
} as const;

export interface ViewFields {
  name: unknown;
  scope: unknown;
  teamId?: unknown;
  shared?: unknown;
}

export const isViewScope = (value: unknown): value is ViewScopeName => (VIEW_SCOPES as readonly unknown[]).includes(value);
export const isTeamViewScope = (value: unknown) => value === 'TEAM' || value === 'TEAM_UNASSIGNED';

/** A view's name: trimmed, 1 to 50 characters without control characters. Returns it, or null. */
export function checkViewName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.trim();
  return name.length >= VIEW_LIMITS.name.min && [...name].length <= VIEW_LIMITS.name.max && ![...name].some(isControl) ? name : null;
}

/** The checks of a view's input that need no database (the service adds the team's and the role's). */
export function validateView(input: ViewFields): FieldErrors {
  const teamScope = isTeamViewScope(input.scope);
  const hasTeam = input.teamId !== undefined && input.teamId !== null;
  const shared = input.shared === true;
  return collect([
    ['name', checkViewName(input.name) !== null, VIEW_MESSAGES.name],
    ['scope', isViewScope(input.scope), VIEW_MESSAGES.scope],
    ['teamId', !teamScope || hasTeam, VIEW_MESSAGES.teamRequired],
    ['teamId', !isViewScope(input.scope) || teamScope || !hasTeam, VIEW_MESSAGES.teamNotAllowed],
    ['shared', input.shared === undefined || input.shared === null || typeof input.shared === 'boolean', VIEW_MESSAGES.shared],
    ['shared', !shared || !isViewScope(input.scope) || input.scope !== 'MINE', VIEW_MESSAGES.sharedScope],
  ]);
}
