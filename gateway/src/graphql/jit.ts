/**
 * Repeated queries executed by graphql-jit: a query document the gateway has executed `after` times is
 * compiled once into a plain function of its selections (no per-field walk of the document, no argument
 * re-coercion per row), as Mercurius does with its `jit: N` option. graphql-js executes everything else.
 *
 * - Only queries: a mutation's cost is its write, and a query can be executed again (below); a mutation cannot.
 * - Never at request time: the `after`-th execution of a document schedules its compilation after it is answered
 *   (setImmediate), so no request waits for the compiler, and a document sent once (an integrator's new query, an
 *   attacker's) is never compiled. Compiled documents are kept in a bounded map (least recently used dropped).
 * - The same answers, errors included: a compiled query's answer is sent only when it holds no error. One with an
 *   error (a denied record, a bad variable, a resolver's failure) is executed again by graphql-js, whose answer is
 *   sent, so every error's message, path, locations and code are graphql-js's, the one error shape the rest of the
 *   gateway (formatError, the cost plugin, the tests) knows. Queries do not write, so running one twice is safe.
 * - Never a document with a variable of a recursive input type (`TicketCondition` holds `TicketCondition`s):
 *   graphql-jit writes the parsing of such a variable out level by level, which took 37 seconds of the event loop for
 *   one `tickets(where: $where)`. graphql-js runs those (a literal tree in the document compiles as any argument).
 * - Every document reaching the executor passed Apollo's parse and validation with the gateway's armor (depth, cost,
 *   aliases, size limits): what is compiled is a valid query of this schema.
 *
 * Behind Apollo's gateway interface, its documented place for another executor; the schema is the built one.
 */
import {
  Kind,
  OperationTypeNode,
  execute,
  getNamedType,
  isInputObjectType,
  printSchema,
  typeFromAST,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import QuickLRU from 'quick-lru';
import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';

export interface JitOptions {
  /** Executions of a document by graphql-js before it is compiled (default 3; 0 turns the jit off). */
  after?: number;
  /** Compiled documents kept (default 200). */
  keep?: number;
}

export interface JitStats {
  /** Answers sent from a compiled query. */
  compiledAnswers: number;
  /** Compiled answers with an error, answered by graphql-js instead. */
  redone: number;
  /** Documents compiled. */
  compiled: number;
}

export interface JitGateway extends GatewayInterface {
  stats: JitStats;
}

/** Whether an input type reaches itself through its fields (a cycle anywhere below `type` counts too). */
function recursiveInput(type: GraphQLNamedType, path: Set<string> = new Set()): boolean {
  if (!isInputObjectType(type)) return false;
  if (path.has(type.name)) return true;
  path.add(type.name);
  const found = Object.values(type.getFields()).some((field) => recursiveInput(getNamedType(field.type), path));
  path.delete(type.name);
  return found;
}

/** Whether a document has a variable graphql-jit cannot compile in reasonable time (see the module comment). */
function hasRecursiveVariable(schema: GraphQLSchema, document: DocumentNode): boolean {
  return document.definitions.some(
    (d) =>
      d.kind === Kind.OPERATION_DEFINITION &&
      (d.variableDefinitions ?? []).some((v) => {
        const type = typeFromAST(schema, v.type);
        return type !== undefined && recursiveInput(getNamedType(type));
      }),
  );
}

/** An Apollo gateway whose executor runs repeated queries compiled (see the module comment). */
export function jitGateway(schema: GraphQLSchema, options: JitOptions = {}): JitGateway {
  const after = options.after ?? 3;
  const keep = options.keep ?? 200;
  const compiled = new QuickLRU<string, CompiledQuery | false>({ maxSize: keep });
  // Executions per document not compiled yet: a bounded count, so unique documents cannot grow it.
  const seen = new QuickLRU<string, number>({ maxSize: keep * 5 });
  const stats: JitStats = { compiledAnswers: 0, redone: 0, compiled: 0 };

  const executor: GatewayExecutor = async (rc) => {
    const run = () =>
      execute({
        schema,
        document: rc.document,
        contextValue: rc.context,
        variableValues: rc.request.variables,
        // The name the client asked for, as Apollo passes it to graphql-js (rc.operationName is the one resolved).
        operationName: rc.request.operationName,
      }) as Promise<ExecutionResult>;
    if (after <= 0 || rc.operation?.operation !== OperationTypeNode.QUERY) return run();
    const key = `${rc.queryHash}\u0000${rc.request.operationName ?? ''}`;
    const query = compiled.get(key);
    if (query) {
      let result: ExecutionResult | undefined;
      try {
        result = await query.query(undefined, rc.context, rc.request.variables ?? {});
      } catch {
        // graphql-jit throws where graphql-js reports a field error (a property getter that throws, read by a
        // field's default resolver): graphql-js answers, with its error on that field, never a 500.
      }
      if (result && !result.errors?.length) {
        stats.compiledAnswers++;
        return result;
      }
      stats.redone++;
      return run();
    }
    if (query === undefined) {
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (n === after) {
        const { document } = rc;
        const { operationName } = rc.request;
        setImmediate(() => {
          seen.delete(key);
          let made: CompiledQuery | false = false;
          if (hasRecursiveVariable(schema, document)) {
            compiled.set(key, false);
            return;
          }
          try {
            const result = compileQuery(schema, document, operationName ?? undefined, { disablingCapturingStackErrors: true });
            if (isCompiledQuery(result)) made = result;
          } catch {
            // A document graphql-jit cannot compile stays with graphql-js.
          }
          if (made) stats.compiled++;
          compiled.set(key, made);
        });
      }
    }
    return run();
  };

  return {
    stats,
    async load() {
      return { executor };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => {};
    },
    async stop() {},
  };
}
