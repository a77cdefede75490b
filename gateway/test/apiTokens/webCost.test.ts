/**
 * The published cost limit must never refuse the web app: every document it sends (the generated web/src/gql
 * documents) is priced with the largest page its variables allow, and must fit MAX_OPERATION_COST. And the bundle
 * `npm start` runs prices every query of them exactly as the sources do (it once priced everything 0).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  Kind,
  getNamedType,
  getVariableValues,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  OperationTypeNode,
  print,
} from 'graphql';
import { buildFulcrumSchema } from '@fulcrum/schema';
import * as generated from '../../../web/src/gql/graphql.js';
import { MAX_OPERATION_COST, PAGE_SIZE, operationCost } from '../../src/graphql/cost.js';
import { figure } from '../../src/testing/measure.js';
import { startBundleGateway, type BundleGateway } from './support.js';

/** A plausible value of an input type: the largest page for `first`, a minimal value otherwise. */
function sample(schema: GraphQLSchema, type: GraphQLInputType, name: string): unknown {
  const nullable = getNullableType(type);
  // A list of uploads (reply attachments): the files travel outside the variables, so none here.
  if (isListType(nullable)) return getNamedType(nullable).name === 'Upload' ? [] : [sample(schema, nullable.ofType, name)];
  const named = getNamedType(nullable);
  if (isEnumType(named)) return named.getValues()[0].value;
  if (isInputObjectType(named)) return Object.fromEntries(Object.values(named.getFields()).map((f) => [f.name, sample(schema, f.type, f.name)]));
  switch (named.name) {
    case 'Int':
      return /^(first|last)$/.test(name) ? PAGE_SIZE.max : 1;
    case 'Float':
      return 1;
    case 'Boolean':
      return true;
    case 'DateTime':
      return new Date().toISOString();
    case 'Upload':
      return null;
    default:
      return 'x';
  }
}

/** Every generated document with its operation and sample variables (the largest pages). */
async function webDocuments() {
  const schema = await buildFulcrumSchema();
  const documents = Object.entries(generated).filter(([name, value]) => name.endsWith('Document') && (value as DocumentNode)?.kind === Kind.DOCUMENT) as [
    string,
    DocumentNode,
  ][];
  return documents.map(([name, document]) => {
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const variables = Object.fromEntries(
      (operation.variableDefinitions ?? []).map((v) => [
        v.variable.name.value,
        sample(schema, typeFromAST(schema, v.type as never) as GraphQLInputType, v.variable.name.value),
      ]),
    );
    return { name, document, operation, variables, schema };
  });
}

describe('the web app within the cost model', () => {
  it('every document the web app sends costs at most the per-operation limit, at the largest pages', async () => {
    const documents = await webDocuments();
    expect(documents.length).toBeGreaterThan(20);
    const costs: [string, number][] = [];
    for (const { name, document, operation, variables, schema } of documents) {
      const cost = operationCost(schema, document, variables, operation.name?.value);
      costs.push([name.replace(/Document$/, ''), cost]);
      expect(getVariableValues(schema, operation.variableDefinitions ?? [], variables).errors, `${name}: its sample variables fit`).toBeUndefined();
      expect(cost, name).toBeLessThanOrEqual(MAX_OPERATION_COST);
    }
    costs.sort((a, b) => b[1] - a[1]);
    figure(
      'web documents, cost at the largest pages',
      costs
        .slice(0, 6)
        .map(([n, c]) => `${n} ${c}`)
        .join(', ') + ` (limit ${MAX_OPERATION_COST})`,
    );
  });
});

describe('the bundle prices the web app as the sources do', () => {
  let gw: BundleGateway | undefined;
  afterAll(() => gw?.destroy());

  it("every query the web app sends reports the sources' price in the bundle (queries only: they write nothing)", { timeout: 120_000 }, async () => {
    gw = await startBundleGateway();
    const demo = await gw.as(0);
    const queries = (await webDocuments()).filter(({ operation }) => operation.operation === OperationTypeNode.QUERY);
    expect(queries.length).toBeGreaterThan(10);
    const prices: number[] = [];
    for (const { name, document, operation, variables, schema } of queries) {
      const r = await demo.gql(print(document), variables);
      const requested = (r as unknown as { extensions?: { cost?: { requested?: number } } }).extensions?.cost?.requested;
      expect(requested, name).toBe(operationCost(schema, document, variables, operation.name?.value));
      prices.push(requested ?? 0);
    }
    // Not all 0 (a query of scalars alone, e.g. customerEmailAvailable, costs 0 points).
    expect(prices.filter((price) => price > 0).length).toBeGreaterThan(10);
    figure('web queries priced by the bundle', `${queries.length} of ${queries.length} at the sources' price, up to ${Math.max(...prices)} points`);
  });
});
