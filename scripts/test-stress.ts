// Runs the tests several times in a row while other processes keep every core busy, to prove no
// test depends on how fast the machine is. `npm run test:stress -- [--runs N] [<paths>]`: the paths
// go to `npm run test:only` as they are. Stops at the first failing run, with its exit code.
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '3' } },
  allowPositionals: true,
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a positive whole number, not ${values.runs}`);
  process.exit(2);
}

/** One spinning process per core: the load a busy shared machine puts on the tests. */
function startBurners(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

function stopBurners(burners: ChildProcess[]): void {
  for (const burner of burners) burner.kill('SIGKILL');
}

interface Counts {
  pass: number;
  fail: number;
}

/** Reads the summary the spec reporter ends with ("ℹ pass 12", "ℹ fail 0"). */
function countsOf(output: string): Counts {
  const count = (name: string): number => {
    const matches = [...output.matchAll(new RegExp(`^\\S* ?${name} (\\d+)$`, 'gm'))];
    return Number(matches.at(-1)?.[1] ?? 0);
  };
  return { pass: count('pass'), fail: count('fail') };
}

/** One run of the tests; its output goes through to ours and is kept for the counts. */
function runOnce(): Promise<{ code: number; counts: Counts }> {
  return new Promise((done) => {
    const child = spawn('npm', ['run', 'test:only', '--', ...positionals], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code, signal) => {
      done({ code: code ?? (signal ? 1 : 0), counts: countsOf(output) });
    });
  });
}

const burners = startBurners();
// The burners die with us, however we end.
process.on('exit', () => stopBurners(burners));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => process.exit(130));
}

const summary: string[] = [];
let exitCode = 0;
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const { code, counts } = await runOnce();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const line = `run ${run}/${runs}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds}s, ${counts.pass} passed, ${counts.fail} failed`;
  summary.push(line);
  console.log(`\n${line} (${burners.length} cores kept busy)\n`);
  if (code !== 0) {
    exitCode = code;
    break;
  }
}
stopBurners(burners);
console.log(summary.join('\n'));
process.exit(exitCode);
