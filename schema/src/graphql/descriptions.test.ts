import 'reflect-metadata';
import { buildSchema } from 'type-graphql';
import { describe, expect, it } from 'vitest';
import { SCHEMA_RESOLVERS, buildFulcrumSchema } from './buildSchema.js';
import { DESCRIPTIONS, schemaElements } from './descriptions.js';

/** Words that belong to another transport or to a client's internals, not to a description for integrators. */
const OFF_TOPIC = {
  test: (text: string) => /\bREST\b/.test(text) || /\/api\b|snake_case|\buser_id\b|\bapply_macro\b|\bcache\b|\bApollo\b|\bchips?\b/i.test(text),
};

describe('schema descriptions', () => {
  it('describes every type, field, argument and enum value (whoever added it)', async () => {
    const elements = schemaElements(await buildFulcrumSchema());
    expect(elements.size).toBeGreaterThan(150);
    const missing = [...elements].filter(([, element]) => !element.description?.trim()).map(([coordinate]) => coordinate);
    expect(missing, 'add a description (decorator, or graphql/descriptions.ts) for these').toEqual([]);
  });

  it('speaks to integrators: no other transport or client internals', async () => {
    const offTopic = [...schemaElements(await buildFulcrumSchema())]
      .filter(([, e]) => OFF_TOPIC.test(e.description ?? ''))
      .map(([c, e]) => `${c}: ${e.description}`);
    expect(offTopic).toEqual([]);
  });

  it('the description table names only elements that exist and that no decorator describes', async () => {
    const undescribed = schemaElements(await buildSchema({ resolvers: SCHEMA_RESOLVERS, validate: false, pubSub: { publish() {}, subscribe() {} } as never }));
    const stale = Object.keys(DESCRIPTIONS).filter((coordinate) => !undescribed.has(coordinate));
    const shadowed = Object.keys(DESCRIPTIONS).filter((coordinate) => undescribed.get(coordinate)?.description);
    expect({ stale, shadowed }).toEqual({ stale: [], shadowed: [] });
  });
});
