import { Field, InputType, Int } from 'type-graphql';
import { MacroSharing, TicketPriority, TicketStatus, TicketType } from './types.js';

/** Inputs carry no validation decorators: every rule lives once, in the service layer. */
@InputType()
export class SignupInput {
  @Field(() => String) email!: string;
  @Field(() => String) username!: string;
  @Field(() => String) password!: string;
}

@InputType()
export class TicketInput {
  @Field(() => String) title!: string;
  @Field(() => TicketType, { nullable: true, description: 'Defaults to Question.' }) type?: string;
  @Field(() => TicketPriority, { nullable: true, description: 'Defaults to Low.' }) priority?: string;
  @Field(() => Int, { description: 'The customer who asked.' }) requesterId!: number;
  @Field(() => Int, { nullable: true, description: 'Defaults to macro 1, "No Macro".' }) macroId?: number | null;
  @Field(() => String) description!: string;
  @Field(() => TicketStatus, { nullable: true, description: 'OPEN for a new ticket when omitted; an edit without it keeps the status.' }) status?:
    string | null;
}

@InputType({ description: 'Narrows the ticket list. Every part is optional; the parts combine with AND, the values of one list with OR.' })
export class TicketFilter {
  @Field(() => String, {
    nullable: true,
    description:
      "Words and word prefixes in the title, the description and the requester's name and email (all words must match); `123` or `#123` also finds ticket 123. At most 200 characters; punctuation and operators are ignored.",
  })
  search?: string | null;
  @Field(() => [TicketStatus], {
    nullable: true,
    description: 'Any of these statuses. Omitted or empty: every status (the web app asks for OPEN and PENDING by default).',
  })
  status?: string[] | null;
  @Field(() => [TicketPriority], { nullable: true, description: 'Any of these priorities.' }) priority?: string[] | null;
  @Field(() => [TicketType], { nullable: true, description: 'Any of these types.' }) type?: string[] | null;
  @Field(() => Int, { nullable: true, description: 'Only tickets this customer asked.' }) requesterId?: number | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Only the tickets assigned to you ("My tickets"). Omitted or false: every ticket you may read (yours and your teams\'; an admin: all).',
  })
  assignedToMe?: boolean | null;
}

@InputType()
export class CustomerInput {
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
}

@InputType()
export class MacroInput {
  @Field(() => String) name!: string;
  @Field(() => String) description!: string;
  @Field(() => MacroSharing, {
    nullable: true,
    description: 'Who may use it; missing keeps it (PRIVATE for a new macro). TEAM needs `teamId`; EVERYONE is for admins (FORBIDDEN otherwise).',
  })
  sharing?: string | null;
  @Field(() => Int, { nullable: true, description: "For TEAM sharing: one of the author's teams (a validation error on `teamId` otherwise)." })
  teamId?: number | null;
}
