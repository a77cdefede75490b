import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { NoSchemaIntrospectionCustomRule, type ValidationRule } from 'graphql';
import { MAX_OPERATION_COST } from './cost.js';

/**
 * Query limits (graphql-armor): depth, aliases, directives and tokens; the cost limit is the published cost model's
 * (cost.ts), which prices `first` from variables too. Sized so every query the web app sends, and 20 aliased
 * logins (which the auth rate limit then counts one by one), pass. docs/integrators.md publishes them.
 */
export const GRAPHQL_LIMITS = { maxDepth: 8, maxAliases: 30, maxDirectives: 20, maxTokens: 2000, maxCost: MAX_OPERATION_COST } as const;

/**
 * The token limit is graphql-js's own parse option rather than armor's: armor's Apollo plugin throws from
 * parsingDidStart, which Apollo answers with a 500; a parse error is a clean 400 GRAPHQL_PARSE_FAILED.
 */
export const PARSE_OPTIONS = { maxTokens: GRAPHQL_LIMITS.maxTokens } as const;

/**
 * Removes every "Did you mean ...?" hint. armor's own block only matches `Did you mean "x"?`, which leaves
 * graphql-js's enum hints ('Did you mean the enum value "Urgent"?') and argument hints through.
 */
export function stripSuggestions(message: string): string {
  return message.replace(/\s*Did you mean [^?]*\?/g, '').trim();
}

const blockAllSuggestions: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        for (const error of response.body.singleResult.errors ?? []) (error as { message: string }).message = stripSuggestions(error.message);
      },
    };
  },
};

export function createArmor(blockFieldSuggestion: boolean) {
  const armor = new ApolloArmor({
    maxTokens: { enabled: false },
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth, ignoreIntrospection: true },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
    costLimit: { enabled: false },
    blockFieldSuggestion: { enabled: blockFieldSuggestion },
  }).protect();
  return { validationRules: armor.validationRules, plugins: [...armor.plugins, ...(blockFieldSuggestion ? [blockAllSuggestions] : [])] };
}

/**
 * The validation rules of the websocket transport, which has no Apollo Server in front of it: the same armor
 * limits, and, when introspection is off, graphql-js's own rule that refuses __schema and __type (Apollo adds
 * that rule on HTTP by itself).
 */
export function websocketValidationRules(introspection: boolean): ValidationRule[] {
  return [...createArmor(!introspection).validationRules, ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];
}
