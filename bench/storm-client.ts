// The storm of bench/fairness.bench.ts, in a process of its own: STORM_CLIENTS closed loops of deep searches against
// STORM_URL with STORM_TOKEN for STORM_SECONDS, then one line of JSON (count, p50, p95, statuses) on stdout. Apart from
// the process that measures the other partner, so that the measuring client does not wait behind the storm's own
// event loop; at the CPU priority the bench gives it (BENCH_STORM_NICE).
import { closedLoops } from './support.ts';

const url = process.env.STORM_URL!;
const token = process.env.STORM_TOKEN!;
const result = await closedLoops(Number(process.env.STORM_CLIENTS), Number(process.env.STORM_SECONDS), () =>
  fetch(`${url}/api/v1/transactions/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ table: 'payments', startIndex: 9900, size: 100 }),
  }),
);
console.log(JSON.stringify(result));
