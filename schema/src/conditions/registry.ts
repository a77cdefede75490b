/**
 * The field registry: every ticket field a condition may name, declared once. A field has a key (what a
 * comparison's `field` says), a label (what the web app shows), a type (which fixes its operators, how its values
 * are parsed, compiled to SQL and evaluated in memory) and, for an enum, its options. The SQL side
 * (services/rules/conditionSql.ts) keys its column expressions by these keys, the in-memory side reads the same
 * keys of a `TicketFacts` record; a conformance test fails for a field or type one of them lacks.
 *
 * Declarative and import-free apart from the shared modules: shared with web/ as `@fulcrum/schema/conditions`.
 */
import { TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES } from '../validation/rules.js';
import type { ConditionOp, TicketFieldType } from './tree.js';

/**
 * The doors a ticket can come through, as the event record and GraphQL's `ChangeSource` name them (WEB: the web app,
 * API_TOKEN: GraphQL with a token, REST: the /api facade, SYSTEM, EMAIL: a requester's mail, REQUESTER_PAGE).
 */
export const TICKET_CHANNELS = ['WEB', 'API_TOKEN', 'REST', 'SYSTEM', 'EMAIL', 'REQUESTER_PAGE'] as const;

export interface FieldOption {
  value: string;
  label: string;
}

export interface TicketFieldDef {
  key: string;
  label: string;
  type: TicketFieldType;
  /** The operators it takes, from its type (and IS_SET / IS_NOT_SET for a reference that may be empty). */
  operators: readonly ConditionOp[];
  /** An enum's every value. */
  options?: readonly FieldOption[];
  /** Whether a ticket may have no value (no team, unassigned). */
  optional: boolean;
}

const EQUALITY: readonly ConditionOp[] = ['EQ', 'NEQ', 'IN', 'NOT_IN'];
const TEXT: readonly ConditionOp[] = [...EQUALITY, 'CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH'];
const TIME: readonly ConditionOp[] = ['GT', 'GTE', 'LT', 'LTE', 'WITHIN_LAST', 'MORE_THAN_AGO'];

/** The operators of a type (an optional reference adds IS_SET / IS_NOT_SET); empty for a type no field uses yet. */
export function operatorsOf(type: TicketFieldType, optional: boolean): readonly ConditionOp[] {
  switch (type) {
    case 'ENUM':
      return EQUALITY;
    case 'REFERENCE':
      return optional ? [...EQUALITY, 'IS_SET', 'IS_NOT_SET'] : EQUALITY;
    case 'TEXT':
      return TEXT;
    case 'TIME':
      return TIME;
    default:
      return [];
  }
}

const options = (values: readonly string[], label: (v: string) => string = (v) => v): FieldOption[] => values.map((value) => ({ value, label: label(value) }));
const capitalized = (v: string) => v.charAt(0) + v.slice(1).toLowerCase().replace(/_/g, ' ');
const CHANNEL_LABELS: Record<string, string> = {
  WEB: 'Web app',
  API_TOKEN: 'API token',
  REST: 'REST API',
  SYSTEM: 'System',
  EMAIL: 'Email',
  REQUESTER_PAGE: 'Requester page',
};

function field(key: string, label: string, type: TicketFieldType, extra: { optional?: boolean; options?: FieldOption[] } = {}): TicketFieldDef {
  const optional = extra.optional ?? false;
  return { key, label, type, operators: operatorsOf(type, optional), optional, ...(extra.options ? { options: extra.options } : {}) };
}

/** Every field, in the order the web app lists them. */
export const TICKET_FIELDS: readonly TicketFieldDef[] = [
  field('status', 'Status', 'ENUM', { options: options(TICKET_STATUSES, capitalized) }),
  field('priority', 'Priority', 'ENUM', { options: options(TICKET_PRIORITIES) }),
  field('type', 'Type', 'ENUM', { options: options(TICKET_TYPES) }),
  field('teamId', 'Team', 'REFERENCE', { optional: true }),
  field('assigneeId', 'Assignee', 'REFERENCE', { optional: true }),
  field('requesterId', 'Requester', 'REFERENCE'),
  field('requester.email', "Requester's email", 'TEXT'),
  field('title', 'Title', 'TEXT'),
  field('subject', 'Subject', 'TEXT'),
  field('description', 'Description', 'TEXT'),
  field('createdAt', 'Created', 'TIME'),
  field('updatedAt', 'Updated', 'TIME'),
  field('channel', 'Channel', 'ENUM', { options: options(TICKET_CHANNELS, (v) => CHANNEL_LABELS[v] ?? v) }),
];

const BY_KEY = new Map(TICKET_FIELDS.map((f) => [f.key, f]));

/** The field of a key, or undefined. */
export function ticketField(key: string): TicketFieldDef | undefined {
  return BY_KEY.get(key);
}

/**
 * A ticket as conditions see it, keyed by the registry's keys: enum values as strings, ids as numbers (null: none),
 * texts as they are, times in ms since the epoch. Built from the API's ticket (web) or from a row (tests).
 */
export type TicketFacts = Readonly<Record<string, string | number | null | undefined>>;
