import { ApolloArmor } from '@escape.tech/graphql-armor';
import { NoSchemaIntrospectionCustomRule, type ValidationRule } from 'graphql';

/**
 * Query limits (graphql-armor): depth, aliases, directives, tokens and cost. Sized so every query the web app
 * sends, and 20 aliased logins (which the auth rate limit then counts one by one), pass.
 */
export const GRAPHQL_LIMITS = { maxDepth: 8, maxAliases: 30, maxDirectives: 20, maxTokens: 2000, maxCost: 5000 } as const;

export function createArmor(blockFieldSuggestion: boolean) {
  return new ApolloArmor({
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth, ignoreIntrospection: true },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
    maxTokens: { n: GRAPHQL_LIMITS.maxTokens },
    costLimit: { maxCost: GRAPHQL_LIMITS.maxCost },
    blockFieldSuggestion: { enabled: blockFieldSuggestion },
  }).protect();
}

/**
 * The validation rules of the websocket transport, which has no Apollo Server in front of it: the same armor
 * limits, and, when introspection is off, graphql-js's own rule that refuses __schema and __type (Apollo adds
 * that rule on HTTP by itself).
 */
export function websocketValidationRules(introspection: boolean): ValidationRule[] {
  return [...createArmor(!introspection).validationRules, ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];
}
