/**
 * One number, one answer: for random `report` answers, each chart's data, the table beside it and the table's CSV
 * carry exactly the answer's numbers (the server side proves the answer equals a recount of the raw events:
 * schema/src/graphql/reportRecount.test.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  csvOf,
  groupChart,
  groupTable,
  hours,
  hoursValue,
  timesChart,
  timesTable,
  volumeChart,
  volumeTable,
  type ReportAnswer,
  type Totals,
} from './reportTable';

const seconds = fc.option(fc.integer({ min: 0, max: 90 * 86_400 }), { nil: null });
const figure = fc.record({ count: fc.nat(1000), median: seconds, p90: seconds, mean: seconds });
const totals: fc.Arbitrary<Totals> = fc.record({
  created: fc.nat(10_000),
  solved: fc.nat(10_000),
  reopened: fc.nat(1000),
  backlog: fc.nat(10_000),
  firstResponse: figure,
  firstResolution: figure,
  resolution: figure,
});
const date = fc.integer({ min: 0, max: 20_000 }).map((d) => new Date(d * 86_400_000).toISOString().slice(0, 10));
const answer: fc.Arbitrary<ReportAnswer> = fc.record({
  totals,
  series: fc
    .uniqueArray(fc.tuple(date, totals), { selector: ([d]) => d, maxLength: 40 })
    .map((list) => list.map(([bucketStart, t]) => ({ bucketStart, ...t }))),
  groups: fc.array(fc.record({ key: fc.string(), label: fc.string({ minLength: 1 }), totals }), { maxLength: 8 }),
});

/** A minimal RFC 4180 reader, to read the CSV back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}
/**
 * What a cell becomes in the CSV: a would-be formula (OWASP: =, +, -, @, tab, CR, LF first, or whitespace before
 * one of =, +, -, @) gets a leading ' (and is quoted). Written out here, apart from the module's own pattern.
 */
const TRIGGERS = ['=', '+', '-', '@'];
const asText = (cell: string) => {
  const trimmed = cell.replace(/^\s+/u, '');
  const formula = ['\t', '\r', '\n', ...TRIGGERS].includes(cell[0] ?? '') || (trimmed !== cell && TRIGGERS.includes(trimmed[0] ?? ''));
  return formula ? `'${cell}` : cell;
};

describe('report tables, charts and CSV', () => {
  it('chart series = table = CSV = the GraphQL answer (fast-check)', () => {
    fc.assert(
      fc.property(answer, (r) => {
        const volume = volumeTable(r);
        expect(volume.rows.map((row) => row.slice(0, 5))).toEqual(
          r.series.map((p) => [p.bucketStart, String(p.created), String(p.solved), String(p.reopened), String(p.backlog)]),
        );
        expect(volume.total).toEqual(['Total', String(r.totals.created), String(r.totals.solved), String(r.totals.reopened), String(r.totals.backlog)]);
        expect(volume.columns).toContain('Created');
        expect(volumeChart(r)).toEqual(
          r.series.map((p) => ({ period: p.bucketStart, created: p.created, solved: p.solved, reopened: p.reopened, backlog: p.backlog })),
        );
        // The chart's numbers are the table's cells.
        volumeChart(r).forEach((point, i) =>
          expect([point.period, point.created, point.solved, point.reopened, point.backlog].map(String)).toEqual(volume.rows[i]),
        );

        const times = timesTable(r);
        expect(times.columns[1]).toBe('Created');
        times.rows.forEach((row, i) => {
          const p = r.series[i];
          expect(row).toEqual([
            p.bucketStart,
            String(p.created),
            String(p.firstResponse.count),
            hours(p.firstResponse.median),
            hours(p.firstResponse.p90),
            String(p.resolution.count),
            hours(p.resolution.median),
            hours(p.resolution.p90),
          ]);
          const point = timesChart(r)[i];
          expect(point.firstResponse).toBe(hoursValue(p.firstResponse.median));
          expect(point.firstResponse === null ? '—' : point.firstResponse.toFixed(2)).toBe(row[3]);
          expect(point.resolution === null ? '—' : point.resolution.toFixed(2)).toBe(row[6]);
        });
        expect(times.total[1]).toBe(String(r.totals.created));

        const groups = groupTable(r, 'Team');
        expect(groups.rows.map((row) => [row[0], row[1], row[2]])).toEqual(r.groups.map((g) => [g.label, String(g.totals.created), String(g.totals.solved)]));
        expect(groupChart(r).map((g) => [g.group, g.created, g.solved])).toEqual(r.groups.map((g) => [g.label, g.totals.created, g.totals.solved]));

        for (const table of [volume, times, groups]) {
          expect(parseCsv(csvOf(table))).toEqual([table.columns, ...table.rows, table.total].map((row) => row.map(asText)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a label a spreadsheet would run as a formula is written as text', () => {
    const r: ReportAnswer = {
      totals: { created: 1, solved: 0, reopened: 0, backlog: 1, firstResponse: { count: 0 }, firstResolution: { count: 0 }, resolution: { count: 0 } },
      series: [],
      groups: [
        {
          key: '1',
          label: '=HYPERLINK("x")',
          totals: { created: 1, solved: 0, reopened: 0, backlog: 1, firstResponse: { count: 0 }, firstResolution: { count: 0 }, resolution: { count: 0 } },
        },
      ],
    };
    expect(csvOf(groupTable(r, 'Team')).split('\r\n')[1]).toMatch(/^"'=HYPERLINK\(""x""\)",1,/);
  });

  it('every cell a spreadsheet would run, leading whitespace, tab, CR or LF included, is written as text (fast-check)', () => {
    const group = (label: string): ReportAnswer['groups'][number] => ({
      key: label,
      label,
      totals: { created: 1, solved: 0, reopened: 0, backlog: 1, firstResponse: { count: 0 }, firstResolution: { count: 0 }, resolution: { count: 0 } },
    });
    const whitespace = fc.string({ unit: fc.constantFrom(' ', '\t', '\r', '\n', '\u00a0', '\u3000'), maxLength: 3 });
    const label = fc.oneof(
      fc.tuple(whitespace, fc.constantFrom(...TRIGGERS, '\t', '\r', '\n'), fc.string({ maxLength: 12 })).map(([w, t, rest]) => `${w}${t}${rest}`),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 5 }), (labels) => {
        const r: ReportAnswer = { totals: group('').totals, series: [], groups: labels.map(group) };
        const read = parseCsv(csvOf(groupTable(r, 'Team')))
          .slice(1, -1)
          .map((row) => row[0]);
        expect(read).toEqual(labels.map(asText));
      }),
      { numRuns: 300 },
    );
    for (const label of [' =1+1', '\r=cmd', '\n@SUM(A1)', '\t-2', '  +3', '\u00a0=x']) {
      const r: ReportAnswer = { totals: group('').totals, series: [], groups: [group(label)] };
      expect(parseCsv(csvOf(groupTable(r, 'Team')))[1][0], JSON.stringify(label)).toBe(`'${label}`);
    }
    const plain: ReportAnswer = { totals: group('').totals, series: [], groups: [group(' Support')] };
    expect(parseCsv(csvOf(groupTable(plain, 'Team')))[1][0]).toBe(' Support');
  });
});
