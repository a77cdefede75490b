/**
 * Customers: the shared directory and its writes.
 */
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { customers } from '../services/index.js';
import type { CustomerRecord } from '../records/index.js';
import type { GraphQLContext } from './context.js';
import { CustomerInput } from './inputs.js';
import { CustomerConnection, CustomerPageArgs, toConnection } from './connection.js';
import { Customer, User } from './types.js';

@Resolver(() => Customer)
export class CustomerResolver {
  @Query(() => CustomerConnection, { description: 'The shared customer directory, newest first, one page at a time; `search` narrows it by name or email.' })
  async customers(@Args(() => CustomerPageArgs) page: CustomerPageArgs, @Ctx() { service }: GraphQLContext) {
    return toConnection(await customers.listCustomersPage(service, page));
  }

  @Query(() => Customer)
  customer(@Arg('id', () => Int) id: number, @Ctx() { service }: GraphQLContext) {
    return customers.getCustomer(service, id);
  }

  @Query(() => Boolean, { description: 'True when no customer has this email yet (checked before creating one).' })
  customerEmailAvailable(
    @Arg('email', () => String) email: string,
    @Arg('name', () => String, { nullable: true }) name: string | null,
    @Ctx() { service }: GraphQLContext,
  ) {
    return customers.isCustomerEmailAvailable(service, email, name);
  }

  @Mutation(() => Customer)
  createCustomer(@Arg('input', () => CustomerInput) input: CustomerInput, @Ctx() { service }: GraphQLContext) {
    return customers.createCustomer(service, input);
  }

  @Mutation(() => Customer, { description: 'Owner only.' })
  updateCustomer(@Arg('id', () => Int) id: number, @Arg('input', () => CustomerInput) input: CustomerInput, @Ctx() { service }: GraphQLContext) {
    return customers.updateCustomer(service, id, input);
  }

  @Mutation(() => Int, { description: 'Owner only; refused while the customer is the requester of any ticket.' })
  deleteCustomer(@Arg('id', () => Int) id: number, @Ctx() { service }: GraphQLContext) {
    return customers.deleteCustomer(service, id);
  }

  @FieldResolver(() => User)
  owner(@Root() customer: CustomerRecord, @Ctx() { loaders }: GraphQLContext) {
    return loaders.user.load(customer.ownerId);
  }
}
