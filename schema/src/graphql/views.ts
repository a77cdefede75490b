/**
 * Views over GraphQL: `views`, `createView`, `updateView`, `deleteView`, `Subscription.viewCountEvents`
 * and their types; `tickets(viewId)` is in resolvers.ts. Thin: the rules are in services/views.ts and the live
 * counts in services/viewCounts.ts.
 */
import { Arg, Ctx, Field, FieldResolver, InputType, Int, Mutation, ObjectType, Query, Resolver, Root, Subscription, registerEnumType } from 'type-graphql';
import { views, viewCounts } from '../services/index.js';
import { VIEW_LIMITS, VIEW_SCOPES } from '../validation/rules.js';
import type { LiveViewRecord, ViewCountRecord, ViewRecord } from '../services/views.js';
import type { GraphQLContext } from './context.js';
import { TicketFilter } from './inputs.js';
import { Team, TicketPriority, TicketStatus, TicketType } from './types.js';

export const ViewScope = Object.fromEntries(VIEW_SCOPES.map((s) => [s, s])) as { [K in (typeof VIEW_SCOPES)[number]]: K };

registerEnumType(ViewScope, {
  name: 'ViewScope',
  description: 'Which tickets a view starts from, before its filter; always within the tickets its viewer may read, whoever made the view.',
  valuesConfig: {
    MINE: { description: 'The tickets assigned to the viewer.' },
    TEAM_UNASSIGNED: { description: "The team's tickets nobody is assigned to." },
    TEAM: { description: "The team's tickets." },
    ALL: { description: "Every ticket the viewer may read (theirs and their teams'; an admin: all)." },
  },
});

@ObjectType({ simpleResolvers: true, description: "A view's filter, as saved (null: no restriction on that part)." })
export class ViewFilter {
  @Field(() => String, { nullable: true, description: 'Words and word prefixes, as in TicketFilter.search.' }) search!: string | null;
  @Field(() => [TicketStatus], { nullable: true, description: 'Any of these statuses.' }) status!: string[] | null;
  @Field(() => [TicketPriority], { nullable: true, description: 'Any of these priorities.' }) priority!: string[] | null;
  @Field(() => [TicketType], { nullable: true, description: 'Any of these types.' }) type!: string[] | null;
  @Field(() => Int, { nullable: true, description: 'Only tickets this customer asked.' }) requesterId!: number | null;
}

@ObjectType({
  simpleResolvers: true,
  description:
    'A saved filter plus a scope, or one of the defaults (My tickets; for each of your teams its unassigned and its unsolved tickets; their ids are below 1). `tickets(viewId: id)` pages its tickets.',
})
export class TicketView {
  @Field(() => Int, { description: 'The view; below 1 for a default view.' }) id!: number;
  @Field(() => String, { description: 'Its name, 1 to 50 characters.' }) name!: string;
  @Field(() => ViewScope, { description: 'Which tickets it starts from.' }) scope!: string;
  @Field(() => Boolean, { description: "Shared: visible to the team's members (a team scope) or to everyone (ALL, shared by an admin)." })
  shared!: boolean;
  @Field(() => ViewFilter, { description: 'Its filter.' }) filter!: ViewFilter;
  @Field(() => Int, { description: 'How many tickets it has now: exactly the totalCount of `tickets(viewId)` without a filter. Never capped.' })
  count!: number;
}

@ObjectType({ simpleResolvers: true, description: "A view's new count." })
export class ViewCount {
  @Field(() => Int, { description: 'The view.' }) viewId!: number;
  @Field(() => Int, { description: 'Its count now (0 when removed).' }) count!: number;
  @Field(() => Boolean, {
    description:
      'True when the view left your views (deleted, unshared, or its team left): drop it. A view id you do not know is a view you gained (made in another tab, shared with you, a team joined): it comes with `view`.',
  })
  removed!: boolean;
  @Field(() => TicketView, {
    nullable: true,
    description:
      'The whole view, when it is new to this subscription (in the first event, and a view you gained) or was changed while it stays among your views (renamed; another filter, scope, team or sharing): update it where you show it. Null when only the count changed, and for a removed view.',
  })
  view!: ViewRecord | null;
}

@InputType({ description: `A view to save. At most ${VIEW_LIMITS.viewsPerAgent} views per agent.` })
export class ViewInput {
  @Field(() => String, { description: '1 to 50 characters.' }) name!: string;
  @Field(() => TicketFilter, { nullable: true, description: 'Its filter (without assignedToMe: use the MINE scope). Omitted: no filter.' })
  filter?: TicketFilter | null;
  @Field(() => ViewScope, { description: 'Which tickets it starts from.' }) scope!: string;
  @Field(() => Int, { nullable: true, description: 'The team of a TEAM or TEAM_UNASSIGNED view: one of your teams (an admin: any team).' })
  teamId?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'Share it (a team view with its members; an ALL view, admins only, with everyone). Default false.' })
  shared?: boolean | null;
}

@Resolver(() => TicketView)
export class ViewResolver {
  @Query(() => [TicketView], { description: 'Your views with their counts: the defaults first, then your own and those shared with you, oldest first.' })
  views(@Ctx() { service }: GraphQLContext) {
    return views.listViews(service);
  }

  @Mutation(() => TicketView, { description: 'Saves a view.' })
  createView(@Arg('input', () => ViewInput, { description: 'The view.' }) input: ViewInput, @Ctx() { service }: GraphQLContext) {
    return views.createView(service, input);
  }

  @Mutation(() => TicketView, { description: 'Changes a view of yours (an admin: any shared view). Default views cannot be changed.' })
  updateView(
    @Arg('id', () => Int, { description: 'The view.' }) id: number,
    @Arg('input', () => ViewInput, { description: 'Its new name, scope, team, sharing and filter.' }) input: ViewInput,
    @Ctx() { service }: GraphQLContext,
  ) {
    return views.updateView(service, id, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes a view of yours (an admin: any shared view). Default views cannot be deleted.' })
  deleteView(@Arg('id', () => Int, { description: 'The view.' }) id: number, @Ctx() { service }: GraphQLContext) {
    return views.deleteView(service, id);
  }

  @FieldResolver(() => Team, { nullable: true, description: 'The team of a team view; null for MINE and ALL.' })
  team(@Root() view: ViewRecord | LiveViewRecord, @Ctx() { loaders }: GraphQLContext) {
    // A view sent live comes with its team, read once for every socket (services/viewCounts.ts).
    if ('team' in view) return view.team;
    return view.teamId == null ? null : loaders.team.load(view.teamId);
  }

  @Subscription(() => [ViewCount], {
    description:
      'The counts of your views that changed, after any ticket change you may see (on any server), at most about four times a second. The first event carries every view with its count. When your set of views changes (a view made, shared, unshared or deleted, a team joined or left) the views gained come whole with their counts and the views lost with `removed: true`; a view changed while it stays yours (renamed, another filter, scope, team or sharing) comes whole again.',
    subscribe: ({ context }) => viewCounts.watchViewCounts((context as GraphQLContext).service),
  })
  viewCountEvents(@Root() counts: ViewCountRecord[]): ViewCount[] {
    return counts.map((c) => ({ viewId: c.viewId, count: c.count, removed: c.removed === true, view: c.view ?? null }));
  }
}
