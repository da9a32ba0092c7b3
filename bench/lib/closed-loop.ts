/**
 * A closed-loop load: each client makes one call after another, a second of warm-up, then
 * `seconds` measured; prints the figures as one JSON line (calls, calls/s, p50, p99, errors), which
 * the benchmark that started the load generator reads.
 */
export async function runClosedLoop<C>(
  clients: readonly C[],
  call: (client: C, id: number) => Promise<boolean>,
  seconds: number,
): Promise<void> {
  let measuring = false;
  let stop = false;
  const latencies: number[] = [];
  let errors = 0;
  const loop = async (client: C) => {
    for (let id = 1; !stop; id++) {
      const started = performance.now();
      try {
        if (!(await call(client, id))) errors++;
      } catch {
        errors++;
      }
      if (measuring) latencies.push(performance.now() - started);
    }
  };
  const loops = clients.map(loop);
  await new Promise((r) => setTimeout(r, 1000)); // warm-up
  measuring = true;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  stop = true;
  await Promise.all(loops);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  console.log(
    JSON.stringify({
      calls: latencies.length,
      callsPerSecond: latencies.length / elapsed,
      p50Ms: pct(50),
      p99Ms: pct(99),
      errors,
    }),
  );
}
