import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_BOX, CHART_HEIGHT } from './chart-card.tsx';

/**
 * The Overview's line charts, drawn by uPlot (about 22 KB gzip, in the Overview's chunk only: chosen over Chart.js,
 * some 57 KB, which also took twice as long to draw 3 lines of 366 points in Chromium). A chart is a picture for
 * the eye: its figures are in the table its card shows under it, which assistive technology reads instead.
 */

/** One line: its name, its values (null: no value at that step, a gap) and how it is drawn (a colour and a dash). */
export type ChartSeries = { label: string; values: (number | null)[]; color: string; dash?: number[] };
export type ChartData = {
  /** each step's short name, under the axis ("Nov 16") */
  ticks: string[];
  /** each step's full name, in the hover readout ("Nov 16, 2026") */
  names: string[];
  series: ChartSeries[];
};

const AXIS = { stroke: '#5b6b7c', font: '11px Inter, ui-sans-serif, system-ui, sans-serif', grid: { stroke: '#e3e8ee', width: 1 }, ticks: { show: false } };
/** Some room between two ticks of the step axis, in CSS pixels. */
const TICK_ROOM = 76;

/** A page without a 2D canvas (a test's document) draws no chart: the table carries the figures. */
const canDraw = () => typeof document !== 'undefined' && !!document.createElement('canvas').getContext?.('2d');

/** The steps the axis names: evenly spaced, as many as the width holds, the first always. */
function stepSplits(count: number, width: number): number[] {
  const fit = Math.max(1, Math.floor(width / TICK_ROOM));
  const every = Math.max(1, Math.ceil(count / fit));
  const out: number[] = [];
  for (let i = 0; i < count; i += every) out.push(i);
  return out;
}

/**
 * A line chart of `data`, as wide as its box and CHART_HEIGHT high, redrawn at each change of width; `format`
 * writes a value (the axis writes it short with `formatAxis`). `range` fixes the value axis (0 to 100 for a rate);
 * otherwise it starts at zero unless values go below. Hovering shows the step's values over the chart.
 */
export function LineChart({
  data,
  label,
  format,
  formatAxis,
  range,
}: {
  data: ChartData;
  /** what the picture shows, for assistive technology (role="img") */
  label: string;
  format: (value: number) => string;
  formatAxis: (value: number) => string;
  range?: [number, number];
}) {
  const box = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<number | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || !canDraw()) return;
    const count = data.ticks.length;
    const xs = data.ticks.map((_, i) => i);
    const opts: uPlot.Options = {
      width: el.clientWidth,
      height: CHART_HEIGHT,
      legend: { show: false },
      select: { show: false, left: 0, top: 0, width: 0, height: 0 },
      cursor: { drag: { x: false, y: false, setScale: false }, points: { size: 7 } },
      scales: {
        x: { time: false, range: () => (count > 1 ? [0, count - 1] : [-0.5, 0.5]) },
        y: {
          range: range
            ? () => range
            : (_u, min, max) => {
                const low = Math.min(0, min ?? 0);
                const high = Math.max(max ?? 0, low + 1);
                return [low, high + (high - low) * 0.08];
              },
        },
      },
      axes: [
        {
          ...AXIS,
          splits: (u) => stepSplits(count, u.bbox.width / uPlot.pxRatio),
          values: (_u, splits) => splits.map((i) => data.ticks[i] ?? ''),
        },
        {
          ...AXIS,
          values: (_u, splits) => splits.map((v) => formatAxis(v)),
          size: (_u, values) => (values ? Math.max(...values.map((v) => v.length)) * 7 + 14 : 40),
        },
      ],
      series: [
        {},
        ...data.series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          dash: s.dash,
          spanGaps: false,
          points: { show: count <= 31, size: 5, fill: '#ffffff' },
        })),
      ],
      hooks: { setCursor: [(u) => setHover(u.cursor.idx ?? null)] },
    };
    const chart = new uPlot(opts, [xs, ...data.series.map((s) => s.values)] as uPlot.AlignedData, el);
    const resize = new ResizeObserver(() => {
      if (el.clientWidth > 0 && el.clientWidth !== chart.width) chart.setSize({ width: el.clientWidth, height: CHART_HEIGHT });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [data, formatAxis, range]);

  const at = hover !== null && hover < data.ticks.length ? hover : null;
  return (
    <div className="relative">
      <div ref={box} role="img" aria-label={label} className={`${CHART_BOX} w-full overflow-hidden`} data-testid="chart" />
      {at !== null && (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute left-12 top-0 max-w-[calc(100%-3rem)] rounded-md bg-white/95 px-2 py-1 text-xs shadow-sm ring-1 ring-line"
        >
          <p className="font-medium text-ink">{data.names[at]}</p>
          {data.series.map((s) => (
            <p key={s.label} className="text-muted">
              {s.label}: <span className="tabular-nums text-ink">{s.values[at] === null || s.values[at] === undefined ? '–' : format(s.values[at])}</span>
            </p>
          ))}
        </div>
      )}
    </div>
  );
}
