import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import { GraphQLDateTime } from 'graphql-scalars';
import { apiTokens } from '../services/index.js';
import type { GraphQLContext } from './context.js';

export enum ApiScope {
  READ = 'READ',
  WRITE = 'WRITE',
  WEBHOOKS = 'WEBHOOKS',
}

registerEnumType(ApiScope, {
  name: 'ApiScope',
  description: 'What an API token may do. Tokens can never manage tokens or sign in and out; that needs the web app.',
  valuesConfig: {
    READ: { description: 'Queries and subscriptions.' },
    WRITE: { description: 'Queries, subscriptions and mutations (includes READ), except managing webhooks.' },
    WEBHOOKS: {
      description:
        'Also creates, changes, tests and deletes webhooks (includes WRITE). A webhook a token created or changed is disabled when that token is revoked or expires.',
    },
  },
});

@ObjectType({
  simpleResolvers: true,
  description: 'A personal access token of the signed-in agent. The secret itself is shown once, by createApiToken, and never stored.',
})
export class ApiToken {
  @Field(() => Int, { description: 'Identifies the token, e.g. to revoke it.' }) id!: number;
  @Field(() => String, { description: 'The name the agent gave the token, to recognise where it is used.' }) name!: string;
  @Field(() => [ApiScope], { description: 'What the token may do. WRITE always comes with READ, WEBHOOKS with WRITE and READ.' }) scopes!: ApiScope[];
  @Field(() => String, { description: 'The last 4 characters of the secret, to tell tokens apart; not enough to use it.' }) hint!: string;
  @Field(() => GraphQLDateTime, { description: 'When the token was created.' }) createdAt!: Date;
  @Field(() => GraphQLDateTime, { description: 'When the token stops working; after that, requests with it are refused (401).' }) expiresAt!: Date;
  @Field(() => GraphQLDateTime, { nullable: true, description: 'When the token was last used, to the minute; null if never.' }) lastUsedAt!: Date | null;
  @Field(() => GraphQLDateTime, { nullable: true, description: 'When the token was revoked; null while it is active.' }) revokedAt!: Date | null;
}

@ObjectType({ simpleResolvers: true, description: 'A new token and its secret. Copy the secret now: it is not shown again.' })
export class ApiTokenCreated {
  @Field(() => String, { description: 'The secret, `fulcrum_pat_` followed by 38 characters. Send it as `Authorization: Bearer <secret>`.' }) secret!: string;
  @Field(() => ApiToken, { description: 'The token as apiTokens lists it.' }) token!: ApiToken;
}

@InputType({ description: 'A new API token.' })
export class ApiTokenInput {
  @Field(() => String, { description: 'A name to recognise the token by, 1 to 50 characters (e.g. "Nightly export").' }) name!: string;
  @Field(() => [ApiScope], { description: 'At least one scope. WRITE includes READ; WEBHOOKS includes WRITE.' }) scopes!: ApiScope[];
  @Field(() => Int, { nullable: true, description: 'Days until the token expires, 1 to 366; 90 when omitted.' }) expiresInDays?: number | null;
}

/** Token management: signed-in agents only, through the browser session (a token cannot manage tokens). */
@Resolver()
export class ApiTokenResolver {
  @Query(() => [ApiToken], { description: 'Your API tokens that are not revoked (expired ones included), newest first. Needs the browser session.' })
  apiTokens(@Ctx() { service }: GraphQLContext) {
    return apiTokens.listApiTokens(service);
  }

  @Mutation(() => ApiTokenCreated, { description: 'Creates an API token and returns its secret, once. Needs the browser session.' })
  createApiToken(
    @Arg('input', () => ApiTokenInput, { description: 'Name, scopes and lifetime of the token.' }) input: ApiTokenInput,
    @Ctx() { service }: GraphQLContext,
  ) {
    return apiTokens.createApiToken(service, input);
  }

  @Mutation(() => ApiToken, {
    description: 'Revokes one of your tokens: refused from the next request on, and its open subscriptions closed within a second. Needs the browser session.',
  })
  revokeApiToken(@Arg('id', () => Int, { description: 'The id of the token to revoke.' }) id: number, @Ctx() { service }: GraphQLContext) {
    return apiTokens.revokeApiToken(service, id);
  }
}
