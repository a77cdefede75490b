import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLField, type GraphQLInputField, type GraphQLSchema } from 'graphql';

/**
 * Descriptions for the schema elements whose decorators carry none, keyed by schema coordinate (`Type`,
 * `Type.field`, `Type.field(arg:)`, `Enum.VALUE`). Kept beside the decorators rather than in them so that the
 * many one-word fields need no decorator edits; a decorator's own description always wins, and a key naming no
 * element is an error (descriptions.test.ts), so the table cannot drift from the schema.
 * A new element may be described either way; the test fails while it has no description at all.
 */
export const DESCRIPTIONS: Readonly<Record<string, string>> = {
  Query: 'Reads. Every field except `me` needs a signed-in agent (a session or an API token).',
  Mutation: 'Changes. Each one runs in its own transaction: a refused change writes nothing.',
  Subscription: 'Live events over graphql-ws on the same `/graphql` path. Each event concerns the subscriber only.',

  'Query.ticket': "A ticket you may read (yours, your teams', or any for an admin). Any other ticket, or an unknown id, is NOT_FOUND.",
  'Query.ticket(id:)': 'The ticket id.',
  'Query.customer': 'One customer of the shared directory; an unknown id is NOT_FOUND.',
  'Query.customer(id:)': 'The customer id.',
  'Query.customerEmailAvailable(email:)': 'The email to check; compared case-insensitively, surrounding spaces ignored.',
  'Query.customerEmailAvailable(name:)': 'Ignored: two customers may share a name. Accepted so that a form may send both fields.',
  'Query.macro': 'One of your macros, or macro 1; any other id is NOT_FOUND.',
  'Query.macro(id:)': 'The macro id.',

  'Team.id': 'The team id.',
  'Team.name': 'The team name, 1 to 50 characters, unique.',
  'Mutation.setUserRole(userId:)': 'The agent whose role changes.',
  'Mutation.setUserRole(role:)': 'The new role.',
  'Mutation.createTeam(name:)': 'The name: 1 to 50 characters after trimming, unique.',
  'Mutation.addTeamMember(teamId:)': 'The team.',
  'Mutation.addTeamMember(userId:)': 'The agent to add.',
  'Mutation.removeTeamMember(teamId:)': 'The team.',
  'Mutation.removeTeamMember(userId:)': 'The member to remove.',
  'Mutation.setTeamAutoAssign(teamId:)': 'The team.',
  'Mutation.setTeamAutoAssign(enabled:)': 'True turns auto-assignment on, false off.',
  'Mutation.assignTicket(id:)': 'A ticket you may change.',
  'Mutation.assignTicket(teamId:)': 'The team to give it to; null for no team (then assigneeId is required).',
  'Mutation.assignTicket(assigneeId:)': 'The agent to give it to (a member of the team); null for unassigned in the team.',
  'Mutation.takeTicket(id:)': 'A ticket of one of your teams (or your own).',

  'User.id': 'The agent id.',
  'User.username': 'The display name, 3 to 30 characters, unique.',
  'User.email': 'The sign-in email, unique, stored in lower case.',

  'Ticket.id': 'The ticket id.',
  'Ticket.title': 'A one-line summary, 1 to 40 characters.',
  'Ticket.type': 'What kind of request this is.',
  'Ticket.priority': 'How urgent the ticket is.',
  'Ticket.description': 'The full request, 3 to 2000 characters.',
  'Ticket.requesterId': 'The id of the customer who asked.',
  'Ticket.image': "The ticket's image; null while the ticket has none.",
  'Ticket.createdAt': 'When the ticket was created.',
  'Ticket.updatedAt': 'When the ticket last changed (an edit, a new image, or its macro being deleted).',

  'TicketType.Question': 'A question about the product or service (the default).',
  'TicketType.Incident': 'Something that worked has stopped working.',
  'TicketType.Problem': 'The underlying cause of one or more incidents.',
  'TicketType.Task': 'A piece of work to be done.',
  'TicketPriority.Low': 'No rush (the default).',
  'TicketPriority.Medium': 'Should be handled soon.',
  'TicketPriority.High': 'Should be handled before other work.',
  'TicketPriority.Urgent': 'Needs attention now.',

  'TicketImage.id': 'The image id.',
  'TicketImage.ticketId': 'The id of the ticket the image belongs to.',
  'TicketImage.byteSize': 'The size of the image file in bytes (at most 5 MB).',
  'TicketImage.width': 'Width in pixels.',
  'TicketImage.height': 'Height in pixels.',

  'Customer.id': 'The customer id.',
  'Customer.name': 'The customer name, 2 to 50 characters (not unique).',
  'Customer.email': 'The customer email, unique in the directory, stored in lower case.',
  'Customer.owner': 'The agent who created the customer; only they may edit or delete it.',

  'Macro.id': 'The macro id; 1 is the built-in "No Macro".',
  'Macro.name': 'The macro name, 2 to 50 characters.',
  'Macro.description': 'The canned reply, 1 to 2000 characters.',
  'Macro.owner': 'The agent who created the macro; null for the built-in macro 1.',

  'Message.id': 'The message id.',
  'Message.senderId': 'The id of the agent who sent the message.',
  'Message.receiverId': 'The id of the agent the message was sent to.',
  'Message.sender': 'The agent who sent the message.',
  'Message.receiver': 'The agent the message was sent to.',
  'Message.text': 'The message, 1 to 2000 characters.',
  'Message.createdAt': 'When the message was sent.',
  'Message.updatedAt': 'When the message was last edited (equal to createdAt until then).',

  'Mutation.login(email:)': 'The sign-in email.',
  'Mutation.login(password:)': 'The password.',
  'Mutation.signup(input:)': 'The new account.',
  'Mutation.createTicket(input:)': 'The ticket; it is assigned to you.',
  'Mutation.updateTicket(id:)': 'The id of one of your tickets.',
  'Mutation.updateTicket(input:)': 'Every field of the ticket, as it should read after the edit.',
  'Mutation.updateTicket(image:)': 'A new image replacing the old one (PNG, JPEG, GIF or WebP, at most 5 MB); absent or null keeps the current image.',
  'Mutation.deleteTicket(id:)': 'The id of one of your tickets.',
  'Mutation.createCustomer': 'Adds a customer to the shared directory, owned by you. A taken email is CONFLICT on `email`.',
  'Mutation.createCustomer(input:)': 'The new customer.',
  'Mutation.updateCustomer(id:)': 'The id of a customer you created.',
  'Mutation.updateCustomer(input:)': 'Every field of the customer, as it should read after the edit.',
  'Mutation.deleteCustomer(id:)': 'The id of a customer you created.',
  'Mutation.createMacro': 'Creates a macro of yours.',
  'Mutation.createMacro(input:)': 'The new macro.',
  'Mutation.updateMacro(id:)': 'The id of one of your macros.',
  'Mutation.updateMacro(input:)': 'Every field of the macro, as it should read after the edit.',
  'Mutation.deleteMacro(id:)': 'The id of one of your macros.',
  'Mutation.sendMessage': 'Sends a message to another agent (not to yourself).',
  'Mutation.sendMessage(receiverId:)': 'The id of the agent to write to.',
  'Mutation.sendMessage(text:)': 'The message, 1 to 2000 characters.',
  'Mutation.editMessage(id:)': 'The id of a message you sent.',
  'Mutation.editMessage(text:)': 'The new text, 1 to 2000 characters.',
  'Mutation.deleteMessage(id:)': 'The id of a message you sent.',

  SignupInput: 'A new agent account.',
  'SignupInput.email': 'The sign-in email; must not be in use.',
  'SignupInput.username':
    'The display name, 3 to 30 characters; must not be in use, nor look like a name in use (other case, invisible characters, look-alike letters of other scripts).',
  'SignupInput.password': 'The password, 6 to 20 characters.',
  TicketInput: 'The fields of a ticket, on create and on edit.',
  'TicketInput.title': 'A one-line summary, 1 to 40 characters.',
  'TicketInput.description': 'The full request, 3 to 2000 characters.',
  CustomerInput: 'The fields of a customer, on create and on edit.',
  'CustomerInput.name': 'The customer name, 2 to 50 characters.',
  'CustomerInput.email': 'The customer email; must not belong to another customer.',
  MacroInput: 'The fields of a macro, on create and on edit.',
  'MacroInput.name': 'The macro name, 2 to 50 characters.',
  'MacroInput.description': 'The canned reply, 1 to 2000 characters.',

  'DeletedMacro.id': 'The id of the deleted macro.',
  ChangeKind: 'What happened to the record an event is about.',
  'ChangeKind.CREATED': 'The record was created.',
  'ChangeKind.UPDATED': 'The record was edited.',
  'ChangeKind.DELETED': 'The record was deleted, or is no longer yours to see.',
  'MessageEvent.kind': 'What happened to the message.',
  'MessageEvent.id': 'The message id.',
  'MessageEvent.senderId': 'The id of the agent who sent the message.',
  'MessageEvent.receiverId': 'The id of the agent the message was sent to.',
  'TicketEvent.kind': 'What happened to the ticket.',
  'TicketEvent.id': 'The ticket id.',
  'CustomerEvent.kind': 'What happened to the customer.',
  'CustomerEvent.id': 'The customer id.',
  'MacroEvent.kind': 'What happened to the macro.',
  'MacroEvent.id': 'The macro id.',
};

interface Describable {
  description?: string | null;
}

/** Every element of the schema by coordinate (introspection types left out: graphql-js describes them). */
export function schemaElements(schema: GraphQLSchema): Map<string, Describable> {
  const elements = new Map<string, Describable>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    elements.set(type.name, type);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      const fields: (GraphQLField<unknown, unknown> | GraphQLInputField)[] = isInputObjectType(type)
        ? Object.values(type.getFields())
        : Object.values(type.getFields());
      for (const field of fields) {
        elements.set(`${type.name}.${field.name}`, field);
        if ('args' in field) for (const arg of field.args) elements.set(`${type.name}.${field.name}(${arg.name}:)`, arg);
      }
    }
    if (isEnumType(type)) for (const value of type.getValues()) elements.set(`${type.name}.${value.name}`, value);
  }
  return elements;
}

/** Fills in the table's descriptions where the decorators gave none (graphql-js elements are plain objects). */
export function describeSchema(schema: GraphQLSchema, descriptions: Readonly<Record<string, string>> = DESCRIPTIONS): GraphQLSchema {
  const elements = schemaElements(schema);
  for (const [coordinate, description] of Object.entries(descriptions)) {
    const element = elements.get(coordinate);
    if (element && !element.description) element.description = description;
  }
  return schema;
}
