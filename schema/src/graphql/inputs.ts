import { Field, InputType, Int } from 'type-graphql';
import { TicketPriority, TicketType } from './types.js';

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
}
