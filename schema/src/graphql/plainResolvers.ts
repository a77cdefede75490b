import { GraphQLInterfaceType, GraphQLObjectType, GraphQLUnionType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

/** Marks a field whose resolve is the plain call below (plainResolvers.test.ts checks the hot ones have it). */
export const PLAIN_RESOLVER = Symbol('plain field resolver');

type Param = NonNullable<ReturnType<typeof getMetadataStorage>['fieldResolvers'][number]['params']>[number];

/** The value of one parameter, or null when type-graphql does more than hand it over (conversion, validation). */
function plainParam(param: Param): ((root: unknown, context: Record<string, unknown>, info: unknown) => unknown) | null {
  if (param.kind === 'root') return param.propertyName || param.getType ? null : (root) => root;
  if (param.kind === 'context') {
    const name = param.propertyName;
    return name ? (_root, context) => context[name] : (_root, context) => context;
  }
  if (param.kind === 'info') return (_root, _context, info) => info;
  return null;
}

/**
 * The dashboard: each @FieldResolver of a @Resolver class is called through type-graphql's wrapper, which
 * per call and row asks the container for the instance, runs the middleware chain (empty here), sorts and maps the
 * parameter metadata and converts the root. For a field resolver that takes only its root (as it is), the context
 * (or a property of it) and the info, and has no middleware or roles, that is the method called with those values:
 * this replaces the wrapper with that call, on the built schema, for every such field. Anything else (arguments,
 * which type-graphql converts and may validate; a root converted to a class) keeps the wrapper. Hand-written:
 * type-graphql has no option for it (its `simpleResolvers` covers plain fields only, which types.ts already uses).
 */
export function usePlainFieldResolvers(schema: GraphQLSchema): GraphQLSchema {
  const storage = getMetadataStorage();
  const instances = new Map<unknown, Record<string, (...args: unknown[]) => unknown>>();
  for (const resolver of storage.fieldResolvers) {
    if (resolver.kind !== 'external' || resolver.middlewares?.length || resolver.roles?.length) continue;
    const objectClass = resolver.resolverClassMetadata?.getObjectType();
    const typeName = storage.objectTypes.find((type) => type.target === objectClass)?.name;
    const type = typeName ? schema.getType(typeName) : undefined;
    const field = type instanceof GraphQLObjectType ? type.getFields()[resolver.schemaName] : undefined;
    if (!field) continue;
    const params = [...(resolver.params ?? [])].sort((a, b) => a.index - b.index).map(plainParam);
    if (params.some((param) => param === null)) continue;
    const values = params as NonNullable<(typeof params)[number]>[];
    let instance = instances.get(resolver.target);
    if (!instance) {
      instance = new (resolver.target as new () => Record<string, (...args: unknown[]) => unknown>)();
      instances.set(resolver.target, instance);
    }
    const target = instance;
    const method = target[resolver.methodName];
    const resolve: GraphQLFieldResolver<unknown, Record<string, unknown>> = values.length === 2
      ? (root, _args, context, info) => method.call(target, values[0](root, context, info), values[1](root, context, info))
      : (root, _args, context, info) =>
          method.apply(
            target,
            values.map((value) => value(root, context, info)),
          );
    field.resolve = Object.assign(resolve, { [PLAIN_RESOLVER]: true });
  }
  return schema;
}

/**
 * type-graphql wraps the resolveType of every union and interface in an async function (it awaits the type's own,
 * then maps a returned class to its GraphQL name). graphql-js awaits that promise; graphql-jit (the gateway's compiled
 * queries, gateway/src/graphql/jit.ts) takes a type name, not a promise of one. So the built schema calls each type's
 * own resolveType directly and maps a class to its name as the wrapper does: a name when the type's function answers
 * at once, a promise of one (which graphql-js still awaits) when it does not.
 */
export function useSyncTypeResolvers(schema: GraphQLSchema): GraphQLSchema {
  const storage = getMetadataStorage();
  // Each object type's class to its name (the first registered, as a scan would find it), once per build rather than
  // a scan of every type per resolved entry.
  const names = new Map<unknown, string>();
  for (const type of storage.objectTypes) if (!names.has(type.target)) names.set(type.target, type.name);
  const nameOf = (resolved: unknown) => (typeof resolved === 'function' ? names.get(resolved) : ((resolved as string | null | undefined) ?? undefined));
  for (const { name, resolveType: own } of [...storage.unions, ...storage.interfaceTypes]) {
    const type = own ? schema.getType(name) : undefined;
    if (!own || !(type instanceof GraphQLUnionType || type instanceof GraphQLInterfaceType)) continue;
    type.resolveType = (value, context, info, abstract) => {
      const resolved = own(value, context, info, abstract);
      return resolved instanceof Promise ? resolved.then(nameOf) : nameOf(resolved);
    };
  }
  return schema;
}
