/**
 * Macros: the caller's (and shared) macros, their writes, and a macro rendered for a ticket.
 */
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { macroRender, macros } from '../services/index.js';
import type { MacroRecord } from '../records/index.js';
import type { GraphQLContext } from './context.js';
import { MacroInput } from './inputs.js';
import { MacroConnection, PageArgs, toConnection } from './connection.js';
import { DeletedMacro, Macro, Team, User } from './types.js';

@Resolver(() => Macro)
export class MacroResolver {
  @Query(() => MacroConnection, {
    description:
      'Your macros and the built-in macro 1, newest first, one page at a time; with `includeShared` also the macros shared with your teams and with everyone.',
  })
  async macros(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('includeShared', () => Boolean, {
      nullable: true,
      defaultValue: false,
      description: 'Also the TEAM macros of your teams and the EVERYONE macros (the macros you may apply where replies are written).',
    })
    includeShared: boolean | null,
    @Ctx() { service }: GraphQLContext,
  ) {
    return toConnection(await macros.listMacrosPage(service, page, includeShared === true));
  }

  @Query(() => String, {
    description:
      "A macro's text filled in for a ticket: {{requester.name}}, {{ticket.id}}, {{agent.name}} (you) and {{ticket.link}} (the requester page's address) are replaced by plain text; any other {{…}} (sections, partials, unknown names) is kept exactly as typed. The macro must be one you may use and the ticket one you may read (NOT_FOUND otherwise).",
  })
  renderMacro(
    @Arg('macroId', () => Int, { description: 'A macro you may use (yours, macro 1, or one shared with you).' }) macroId: number,
    @Arg('ticketId', () => Int, { description: 'A ticket you may read.' }) ticketId: number,
    @Ctx() { service }: GraphQLContext,
  ) {
    return macroRender.renderMacro(service, macroId, ticketId);
  }

  @FieldResolver(() => Team, { nullable: true, description: 'The team a TEAM macro is shared with; null otherwise.' })
  team(@Root() macro: MacroRecord, @Ctx() { loaders }: GraphQLContext) {
    return macro.teamId == null ? null : loaders.team.load(macro.teamId);
  }

  @Query(() => Macro)
  macro(@Arg('id', () => Int) id: number, @Ctx() { service }: GraphQLContext) {
    return macros.getMacro(service, id);
  }

  @Mutation(() => Macro)
  createMacro(@Arg('input', () => MacroInput) input: MacroInput, @Ctx() { service }: GraphQLContext) {
    return macros.createMacro(service, input);
  }

  @Mutation(() => Macro, { description: 'Macro 1 is permanent.' })
  updateMacro(@Arg('id', () => Int) id: number, @Arg('input', () => MacroInput) input: MacroInput, @Ctx() { service }: GraphQLContext) {
    return macros.updateMacro(service, id, input);
  }

  @Mutation(() => DeletedMacro, { description: 'Macro 1 is permanent; tickets that used the macro fall back to macro 1.' })
  deleteMacro(@Arg('id', () => Int) id: number, @Ctx() { service }: GraphQLContext) {
    return macros.deleteMacro(service, id);
  }

  @FieldResolver(() => User, { nullable: true })
  owner(@Root() macro: MacroRecord, @Ctx() { loaders }: GraphQLContext) {
    return macro.ownerId == null ? null : loaders.user.load(macro.ownerId);
  }
}
