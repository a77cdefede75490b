/**
 * Reports over GraphQL: `report(input: ReportInput!): Report!` and its types. Thin: every definition,
 * the buckets, the access rule and the validation are in services/reports/report.ts (and ./facts.ts).
 */
import { Arg, Ctx, Extensions, Field, Float, InputType, Int, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import { report } from '../services/reports/report.js';
import type { ReportBreakdown as Breakdown, ReportBucket as Bucket } from '../services/reports/report.js';
import { REPORT_BREAKDOWNS, REPORT_BUCKETS, REPORT_LIMITS } from '../validation/rules.js';
import type { GraphQLContext } from './context.js';
import { TicketFilter } from './inputs.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

/** What one report costs in the published cost model (docs/integrators.md, "Limits"). */
export const REPORT_COST = 100;

export const ReportBucket = enumOf(REPORT_BUCKETS);
export const ReportBreakdown = enumOf(REPORT_BREAKDOWNS);

registerEnumType(ReportBucket, {
  name: 'ReportBucket',
  description: "The length of a report's buckets, in its time zone's calendar.",
  valuesConfig: {
    DAY: { description: 'A local day (23 or 25 hours across a daylight-saving change).' },
    WEEK: { description: 'An ISO week, Monday to Sunday; `bucketStart` is its Monday.' },
    MONTH: { description: 'A calendar month; `bucketStart` is its 1st.' },
  },
});
registerEnumType(ReportBreakdown, {
  name: 'ReportBreakdown',
  description: 'What a report groups by. Each event counts under the value the ticket had when it happened.',
  valuesConfig: {
    TEAM: { description: "The ticket's team (key `none`: no team)." },
    ASSIGNEE: { description: "The ticket's assignee (key `none`: unassigned)." },
    PRIORITY: { description: "The ticket's priority." },
    TYPE: { description: "The ticket's type." },
    STATUS: { description: "The ticket's status (a solve counts under SOLVED; the backlog under each unsolved status)." },
  },
});

@InputType({ description: 'What a report covers, how it is bucketed and grouped, and which tickets it counts.' })
export class ReportInput {
  @Field(() => String, { description: 'The first local date, `YYYY-MM-DD`, in `timeZone`.' }) from!: string;
  @Field(() => String, {
    description: `The local date after the last one (exclusive), \`YYYY-MM-DD\`; at most ${REPORT_LIMITS.maxDays} days after \`from\`.`,
  })
  to!: string;
  @Field(() => ReportBucket, { description: 'Day, week or month buckets.' }) bucket!: Bucket;
  @Field(() => String, { description: 'An IANA time zone name, e.g. `Europe/Berlin`: the dates and buckets are its local calendar.' })
  timeZone!: string;
  @Field(() => ReportBreakdown, { nullable: true, description: 'Also report each group of this breakdown (`groups`); omitted: no groups.' })
  breakdown?: Breakdown | null;
  @Field(() => TicketFilter, {
    nullable: true,
    description: 'Only the tickets matching this filter as they are now (search words are not supported here). Omitted: every ticket you may read.',
  })
  filter?: TicketFilter | null;
}

@ObjectType({ description: 'A duration metric over the events in a bucket or range: count, median, 90th percentile and mean, in seconds.' })
export class ReportFigure {
  @Field(() => Int, { description: 'How many durations were measured.' }) count!: number;
  @Field(() => Float, {
    nullable: true,
    description: 'The median (nearest rank) in seconds, within 2.44 % of the exact value when read from the rollups (docs/reports.md); null when `count` is 0.',
  })
  median!: number | null;
  @Field(() => Float, { nullable: true, description: 'The 90th percentile (nearest rank) in seconds, within 2.44 % like the median; null when `count` is 0.' })
  p90!: number | null;
  @Field(() => Float, { nullable: true, description: 'The mean in seconds; null when `count` is 0.' }) mean!: number | null;
}

@ObjectType({ description: "A report's numbers over a range or one bucket." })
export class ReportTotals {
  @Field(() => Int, { description: 'Tickets created.' }) created!: number;
  @Field(() => Int, { description: 'Solves: a ticket solved, reopened and solved again counts two.' }) solved!: number;
  @Field(() => Int, { description: 'Reopens: a solved ticket set back to an unsolved status.' }) reopened!: number;
  @Field(() => Int, { description: 'Unsolved tickets at the end (of the bucket, or of the range for totals).' }) backlog!: number;
  @Field(() => ReportFigure, {
    description:
      'From creation or reopen to the first public reply by an agent, counted where the reply falls. Notes, system changes and automatic mail never count.',
  })
  firstResponse!: ReportFigure;
  @Field(() => ReportFigure, { description: "From creation to the ticket's first solve, counted where that solve falls." })
  firstResolution!: ReportFigure;
  @Field(() => ReportFigure, { description: 'From creation to the final solve (one not followed by a reopen), counted where that solve falls.' })
  resolution!: ReportFigure;
}

@ObjectType({ description: "One bucket's numbers." })
export class ReportPoint extends ReportTotals {
  @Field(() => String, { description: 'The local date the bucket starts on, `YYYY-MM-DD` (a week its Monday, a month its 1st).' })
  bucketStart!: string;
}

@ObjectType({ description: "One value of the report's breakdown: its numbers over the range and per bucket." })
export class ReportGroup {
  @Field(() => String, { description: 'The value: a team or agent id as a decimal string, an enum value, or `none`.' }) key!: string;
  @Field(() => String, { description: "The value's name for people: the team's name, the agent's username, the enum value." }) label!: string;
  @Field(() => ReportTotals, { description: "The group's numbers over the whole range." }) totals!: ReportTotals;
  @Field(() => [ReportPoint], { description: "The group's numbers per bucket, one point per bucket of the report." }) series!: ReportPoint[];
}

@ObjectType({ description: 'Ticket volume and times over a range, per bucket, of the tickets you may read now.' })
export class Report {
  @Field(() => ReportTotals, { description: 'The numbers over the whole range.' }) totals!: ReportTotals;
  @Field(() => [ReportPoint], { description: 'The numbers per bucket, in order, every bucket of the range (empty ones too).' }) series!: ReportPoint[];
  @Field(() => [ReportGroup], { description: 'One entry per value of the breakdown that has numbers; empty without a breakdown.' })
  groups!: ReportGroup[];
}

@Resolver()
export class ReportResolver {
  /** Priced as one unit of work (gateway cost model): its lists are bounded by the range and the breakdown, not by a page. */
  @Extensions({ flatCost: REPORT_COST })
  @Query(() => Report, {
    description:
      "Ticket volume (created, solved, reopened, backlog) and times (first response, first resolution, resolution) over local dates in a time zone. Counts the tickets you may read now: yours and your teams' (an admin: all). An unknown time zone or a range over 731 days is BAD_USER_INPUT.",
  })
  report(
    @Arg('input', () => ReportInput, { description: 'The range, buckets, time zone, breakdown and filter.' }) input: ReportInput,
    @Ctx() ctx: GraphQLContext,
  ) {
    return report(ctx.service, input);
  }
}
