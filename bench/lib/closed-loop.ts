import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a live process has used so far, from /proc/<pid>/stat. */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // utime and stime are fields 14 and 15; the command (field 2) may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * A closed-loop load: each client makes one call after another, a second of warm-up, then
 * `seconds` measured; prints the figures as one JSON line (calls, calls/s, p50, p99, errors), which
 * the benchmark that started the load generator reads. Over the measured window it also counts the
 * CPU time it used itself (`loadCpuSeconds`) and, when given the server's process id, the server's
 * (`serverCpuSeconds`): on a machine with few cores the load generator shares them with the server,
 * so CPU per call is the figure that other load on the machine does not move.
 */
export async function runClosedLoop<C>(
  clients: readonly C[],
  call: (client: C, id: number) => Promise<boolean>,
  seconds: number,
  serverPid?: number,
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
  const selfBefore = process.cpuUsage();
  const serverBefore = serverPid === undefined ? 0 : cpuSecondsOf(serverPid);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const serverCpuSeconds =
    serverPid === undefined ? undefined : cpuSecondsOf(serverPid) - serverBefore;
  const self = process.cpuUsage(selfBefore);
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
      loadCpuSeconds: (self.user + self.system) / 1e6,
      ...(serverCpuSeconds === undefined ? {} : { serverCpuSeconds }),
    }),
  );
}
