import { useMemo, type ReactNode } from 'react';
import { useQuery } from '@apollo/client/react';
import { useSearchParams } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, LabelList, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { REPORT_LIMITS, knownTimeZone, validateReportInput } from '@fulcrum/schema/validation';
import { graphql } from '../gql';
import type { ReportBreakdown, ReportBucket } from '../gql/graphql';
import { LoadFailed } from '../ui/PageStates';
import {
  addDays,
  browserTimeZone,
  csvOf,
  groupChart,
  groupTable,
  isEmptyReport,
  timesChart,
  timesTable,
  todayIn,
  volumeChart,
  volumeTable,
  type ReportTable,
} from './reportTable';
import '../ui/forms.css';
import './reports.css';

const REPORT_PAGE = graphql(`
  query ReportsPage($input: ReportInput!) {
    report(input: $input) {
      totals {
        created
        solved
        reopened
        backlog
        firstResponse {
          count
          median
          p90
        }
        firstResolution {
          count
          median
          p90
        }
        resolution {
          count
          median
          p90
        }
      }
      series {
        bucketStart
        created
        solved
        reopened
        backlog
        firstResponse {
          count
          median
          p90
        }
        firstResolution {
          count
          median
          p90
        }
        resolution {
          count
          median
          p90
        }
      }
      groups {
        key
        label
        totals {
          created
          solved
          reopened
          backlog
          firstResponse {
            count
            median
            p90
          }
          firstResolution {
            count
            median
            p90
          }
          resolution {
            count
            median
            p90
          }
        }
      }
    }
  }
`);

const BUCKETS: [ReportBucket, string][] = [
  ['DAY', 'Day'],
  ['WEEK', 'Week'],
  ['MONTH', 'Month'],
];
const BREAKDOWNS: [ReportBreakdown | '', string][] = [
  ['', 'None'],
  ['TEAM', 'Team'],
  ['ASSIGNEE', 'Assignee'],
  ['PRIORITY', 'Priority'],
  ['TYPE', 'Type'],
  ['STATUS', 'Status'],
];

/** Fills that differ by pattern as well as colour (the charts are not colour-only; every bar also has its value as a label). */
function Patterns() {
  return (
    <defs>
      <pattern id="report-solid" width="6" height="6" patternUnits="userSpaceOnUse">
        <rect width="6" height="6" fill="#2563eb" />
      </pattern>
      <pattern id="report-stripes" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="6" height="6" fill="#dcfce7" />
        <rect width="3" height="6" fill="#15803d" />
      </pattern>
      <pattern id="report-dots" width="6" height="6" patternUnits="userSpaceOnUse">
        <rect width="6" height="6" fill="#fef3c7" />
        <circle cx="3" cy="3" r="1.8" fill="#b45309" />
      </pattern>
    </defs>
  );
}

/** Downloads a table as the CSV file `name` (exactly the rows shown, the total row last). */
function downloadCsv(table: ReportTable, name: string) {
  const url = URL.createObjectURL(new Blob([csvOf(table)], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Beyond this many columns a table is too wide to sit beside its chart: it goes under it, the page's width. */
const SIDE_BY_SIDE_COLUMNS = 5;

/** A chart and its data table side by side (a wide table under it), with the table's CSV a button away. */
function ChartWithTable({ id, title, table, file, children }: { id: string; title: string; table: ReportTable; file: string; children: ReactNode }) {
  return (
    <section className="card report-panel" aria-labelledby={`${id}-title`}>
      <div className="report-panel-header">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" className="button button-secondary button-small" onClick={() => downloadCsv(table, file)}>
          Download CSV<span className="visually-hidden"> of {table.caption.toLowerCase()}</span>
        </button>
      </div>
      <div className={`report-panel-body${table.columns.length > SIDE_BY_SIDE_COLUMNS ? ' report-panel-body-stacked' : ''}`}>
        <figure className="report-chart" aria-label={`${title} chart; the same numbers are in the table beside it`}>
          {children}
        </figure>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling table must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <div className="report-table-wrap" tabIndex={0} role="region" aria-label={`${table.caption} table`}>
          <table className="report-table">
            <caption className="visually-hidden">{table.caption}</caption>
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th scope="col" key={c}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row) => (
                <tr key={row[0]}>
                  <th scope="row">{row[0]}</th>
                  {row.slice(1).map((cell, i) => (
                    <td key={table.columns[i + 1]}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{table.total[0]}</th>
                {table.total.slice(1).map((cell, i) => (
                  <td key={table.columns[i + 1]}>{cell}</td>
                ))}
              </tr>
            </tfoot>
          </table>
        </div>
      </div>
    </section>
  );
}

/**
 * Reports: volume and times of the tickets the viewer may read (their own and their teams'), over local
 * dates in the browser's time zone (overridable), by day, week or month, optionally by team, assignee, priority,
 * type or status. Opens on the last 7 days including today. Everything is in the address (shareable, reload-safe).
 * Loaded only on this route: Recharts stays out of the dashboard's bundle.
 */
export default function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const timeZone = params.get('tz') ?? browserTimeZone();
  const today = todayIn(knownTimeZone(timeZone) ? timeZone : 'UTC');
  const from = params.get('from') ?? addDays(today, -6);
  const last = params.get('last') ?? today;
  const to = /^\d{4}-\d{2}-\d{2}$/.test(last) ? addDays(last, 1) : last;
  const bucket = (params.get('bucket') as ReportBucket | null) ?? 'DAY';
  const breakdown = (params.get('by') as ReportBreakdown | null) || null;
  const errors = validateReportInput({ from, to, timeZone, bucket, breakdown });
  const valid = Object.keys(errors).length === 0;
  const input = { from, to, timeZone, bucket, breakdown };
  const { data, previousData, error, loading, refetch } = useQuery(REPORT_PAGE, { variables: { input }, skip: !valid, fetchPolicy: 'network-only' });
  const shown = data ?? previousData;
  const set = (key: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value == null || value === '') next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  const zones = useMemo(() => (typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []), []);
  const groupName = BREAKDOWNS.find(([value]) => value === breakdown)?.[1] ?? '';
  const stem = `fulcrum-report-${from}-to-${last}`;
  const report = shown?.report;

  return (
    <section className="page reports-page">
      <header className="page-header">
        <p className="eyebrow">Insights</p>
        <h1>Reports</h1>
        <p className="page-subtitle">
          Your tickets and your teams&apos; tickets, counted in {timeZone}. Numbers are current: a change shows here as soon as it is saved.
        </p>
      </header>
      <form className="card report-controls" onSubmit={(e) => e.preventDefault()} aria-label="Report settings">
        <label className="field">
          <span>From</span>
          <input className="input" type="date" value={from} onChange={(e) => set('from', e.target.value)} aria-describedby="report-errors" />
        </label>
        <label className="field">
          <span>To (including)</span>
          <input className="input" type="date" value={last} onChange={(e) => set('last', e.target.value)} aria-describedby="report-errors" />
        </label>
        <label className="field">
          <span>Group by period</span>
          <select className="input" value={bucket} onChange={(e) => set('bucket', e.target.value)}>
            {BUCKETS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Breakdown</span>
          <select className="input" value={breakdown ?? ''} onChange={(e) => set('by', e.target.value)}>
            {BREAKDOWNS.map(([value, label]) => (
              <option key={label} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Time zone</span>
          <input className="input" list="report-zones" value={timeZone} onChange={(e) => set('tz', e.target.value)} aria-describedby="report-errors" />
          <datalist id="report-zones">
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </label>
        <div className="report-quick">
          <button type="button" className="button button-ghost button-small" onClick={() => setParams({}, { replace: true })}>
            Last 7 days
          </button>
          <button
            type="button"
            className="button button-ghost button-small"
            onClick={() => setParams({ ...Object.fromEntries(params), from: addDays(today, -29), last: today }, { replace: true })}
          >
            Last 30 days
          </button>
        </div>
        <div id="report-errors" className="field-errors" role="alert">
          {Object.entries(errors).map(([field, messages]) => (
            <p key={field}>{messages[0]}</p>
          ))}
          {!valid && <p>At most {REPORT_LIMITS.maxDays} days per report.</p>}
        </div>
      </form>
      {loading && (
        <div className="report-progress" role="status">
          <progress aria-label="Loading the report" /> <span>Counting tickets…</span>
        </div>
      )}
      {error && !loading && <LoadFailed what="the report" error={error} retry={refetch} />}
      {report && valid && isEmptyReport(report) && (
        <div className="card empty-state" role="status">
          <p>
            No tickets in this range: nothing was created, solved or open between {from} and {last}.
          </p>
        </div>
      )}
      {report && valid && !isEmptyReport(report) && (
        <div className="report-panels" aria-busy={loading}>
          <ChartWithTable id="report-volume" title="Created, solved and reopened" table={volumeTable(report)} file={`${stem}-volume.csv`}>
            <ResponsiveContainer width="100%" height={280}>
              <CountBars data={volumeChart(report)} xKey="period" series={['created', 'solved', 'reopened']} />
            </ResponsiveContainer>
          </ChartWithTable>
          <ChartWithTable id="report-times" title="Median first response and resolution (hours)" table={timesTable(report)} file={`${stem}-times.csv`}>
            <ResponsiveContainer width="100%" height={280}>
              <LineChart data={timesChart(report)} accessibilityLayer>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="period" />
                <YAxis />
                <Tooltip />
                <Legend />
                <Line dataKey="firstResponse" name="First response" stroke="#2563eb" strokeWidth={2} dot={{ r: 4 }} connectNulls isAnimationActive={false} />
                <Line
                  dataKey="resolution"
                  name="Resolution"
                  stroke="#15803d"
                  strokeWidth={2}
                  strokeDasharray="6 3"
                  dot={{ r: 4, strokeWidth: 2, fill: '#fff' }}
                  connectNulls
                  isAnimationActive={false}
                />
              </LineChart>
            </ResponsiveContainer>
          </ChartWithTable>
          {breakdown && (
            <ChartWithTable
              id="report-groups"
              title={`By ${groupName.toLowerCase()}`}
              table={groupTable(report, groupName)}
              file={`${stem}-by-${groupName.toLowerCase()}.csv`}
            >
              <ResponsiveContainer width="100%" height={280}>
                <CountBars data={groupChart(report)} xKey="group" series={['created', 'solved']} />
              </ResponsiveContainer>
            </ChartWithTable>
          )}
        </div>
      )}
    </section>
  );
}

/** How each count is drawn: a pattern and an outline, so no series is told apart by colour alone. */
const COUNT_SERIES = {
  created: { name: 'Created', fill: 'url(#report-solid)', stroke: '#1e3a8a' },
  solved: { name: 'Solved', fill: 'url(#report-stripes)', stroke: '#14532d' },
  reopened: { name: 'Reopened', fill: 'url(#report-dots)', stroke: '#78350f' },
} as const;

/** A bar chart of counts (one bar per series and x value, each labelled with its number). */
function CountBars({ data, xKey, series }: { data: object[]; xKey: string; series: readonly (keyof typeof COUNT_SERIES)[] }) {
  return (
    <BarChart data={data} accessibilityLayer>
      <Patterns />
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey={xKey} />
      <YAxis allowDecimals={false} />
      <Tooltip />
      <Legend />
      {series.map((key) => (
        <Bar key={key} dataKey={key} name={COUNT_SERIES[key].name} fill={COUNT_SERIES[key].fill} stroke={COUNT_SERIES[key].stroke} isAnimationActive={false}>
          <LabelList dataKey={key} position="top" />
        </Bar>
      ))}
    </BarChart>
  );
}
