import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import {
  appendFile,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { EventSource } from 'eventsource';
import { ZipFile } from 'yazl';
import { schemaCompilers } from '@paddock/common/lazy-schemas';
import { eventually, tempDir } from '@paddock/testing';
import {
  downloadFileName,
  MAX_ENTRIES_AHEAD,
  MAX_FOLDER_RUN,
  shouldCompress,
  ZipQueue,
} from '../src/api/download.js';
import { formatChange, parseLastEventId } from '../src/api/events.js';
import {
  contentDisposition,
  contentTypeFor,
  parseRange,
  planFileResponse,
} from '../src/api/file.js';
import { keepAliveSeconds } from '../src/api/files.js';
import { TreeQuery } from '../src/api/schemas.js';
import { checkParameters } from '../src/api/validation.js';
import { listTree } from '../src/api/tree.js';
import { EventRing } from '../src/workspace/watcher.js';
import {
  as,
  connect,
  dataOf,
  openEventStream,
  startApiSandbox,
  textOf,
  type RunningApiSandbox,
} from './support/sandbox.js';

const run = promisify(execFile);
const SECRET = 'OUTSIDE-SECRET-7f3a';
const MIB = 1024 * 1024;
/** Every byte value once: a file that any text decoding along the way would corrupt. */
const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

type Temp = Awaited<ReturnType<typeof tempDir>>;

interface TreeBody {
  root: string;
  entries: { path: string; type: string; size: number; mtime: string }[];
  truncated: boolean;
}

interface Frame {
  id: number | undefined;
  event: string | undefined;
  data: Record<string, unknown>;
}

function parseFrame(frame: string): Frame {
  const field = (name: string) =>
    frame
      .split('\n')
      .find((l) => l.startsWith(`${name}: `))
      ?.slice(name.length + 2);
  const id = field('id');
  const data = dataOf(frame);
  return {
    id: id === undefined ? undefined : Number(id),
    event: field('event'),
    data: data === '' ? {} : (JSON.parse(data) as Record<string, unknown>),
  };
}

const isChange = (path: string, type?: string) => (frame: string) => {
  const f = parseFrame(frame);
  return (
    f.event === 'change' && f.data.path === path && (type === undefined || f.data.type === type)
  );
};
const isReady = (frame: string) => parseFrame(frame).event === 'ready';
const isChangeEvent = (frame: string) => parseFrame(frame).event === 'change';

/** Saves a response body to a file (streamed: the archives here can be large). */
async function save(res: Response, file: string): Promise<void> {
  await pipeline(Readable.fromWeb(res.body!), createWriteStream(file));
}

/** The peak resident memory of a process, in bytes (Linux's VmHWM). */
async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  assert.ok(kb !== undefined, 'VmHWM is reported');
  return Number(kb) * 1024;
}

/** The files a process holds open, as paths. */
async function openFiles(pid: number): Promise<string[]> {
  const fds = await readdir(`/proc/${pid}/fd`);
  const targets = await Promise.all(
    fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')),
  );
  return targets.filter((t) => t !== '');
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  await eventually(what, async () => ((await condition()) ? true : undefined), timeoutMs);
}

describe('the file routes of -enable-api', () => {
  let dir: Temp;
  let outside: Temp;
  let ws: string;
  let sandbox: RunningApiSandbox;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${sandbox.apiBase}${path}`, { headers: { ...as('alice'), ...headers } });

  before(async () => {
    dir = await tempDir();
    outside = await tempDir();
    ws = dir.path;
    await writeFile(join(outside.path, 'secret.txt'), SECRET);
    await writeFile(join(ws, 'README.md'), '# Project\n');
    await mkdir(join(ws, 'src/lib'), { recursive: true });
    await writeFile(join(ws, 'src/index.ts'), 'export const x = 1;\n');
    await writeFile(join(ws, 'src/lib/util.js'), 'module.exports = {};\n');
    await writeFile(join(ws, 'src/config.json'), '{}\n');
    await writeFile(join(ws, 'src/archive.tar'), 'tar');
    await writeFile(join(ws, 'bytes.bin'), ALL_BYTES);
    await writeFile(join(ws, 'logo.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
    await mkdir(join(ws, 'empty'));
    await mkdir(join(ws, 'deep/a/b'), { recursive: true });
    await writeFile(join(ws, 'deep/a/b/leaf.txt'), 'leaf');
    // Left out everywhere: at the root, and deeper down.
    await mkdir(join(ws, '.git/objects'), { recursive: true });
    await writeFile(join(ws, '.git/HEAD'), 'ref: refs/heads/main\n');
    await mkdir(join(ws, 'node_modules/pkg'), { recursive: true });
    await writeFile(join(ws, 'node_modules/pkg/index.js'), '');
    await mkdir(join(ws, 'src/lib/node_modules/inner'), { recursive: true });
    await writeFile(join(ws, 'src/lib/node_modules/inner/x.js'), '');
    await mkdir(join(ws, 'deep/a/.git'));
    await writeFile(join(ws, 'deep/a/.git/config'), '');
    await symlink('README.md', join(ws, 'link-inside'));
    await symlink(join(outside.path, 'secret.txt'), join(ws, 'link-outside'));
    sandbox = await startApiSandbox(ws, ['-enable-api'], { SVC_API_KEEPALIVE_SECONDS: '1' });
  });
  after(async () => {
    await sandbox.stop();
    await dir.remove();
    await outside.remove();
  });

  describe('GET /api/tree', () => {
    it('lists every entry with type, size and ISO mtime, sorted by path, without .git and node_modules at any depth', async () => {
      const res = await get('/api/tree');
      assert.equal(res.status, 200);
      const body = (await res.json()) as TreeBody;
      assert.equal(body.root, '.');
      assert.equal(body.truncated, false);
      assert.deepEqual(
        body.entries.map((e) => `${e.type} ${e.path}`),
        [
          'file README.md',
          'file bytes.bin',
          'dir deep',
          'dir deep/a',
          'dir deep/a/b',
          'file deep/a/b/leaf.txt',
          'dir empty',
          'symlink link-inside',
          'symlink link-outside',
          'file logo.png',
          'dir src',
          'file src/archive.tar',
          'file src/config.json',
          'file src/index.ts',
          'dir src/lib',
          'file src/lib/util.js',
        ],
      );
      const byPath = new Map(body.entries.map((e) => [e.path, e]));
      assert.equal(byPath.get('bytes.bin')?.size, 256);
      assert.equal(byPath.get('src')?.size, 0);
      assert.equal(byPath.get('link-inside')?.size, 'README.md'.length);
      const readme = byPath.get('README.md')!;
      assert.match(readme.mtime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(readme.mtime, (await stat(join(ws, 'README.md'))).mtime.toISOString());
    });

    it('stops at the depth asked for, and lists a sub-folder with root-relative paths', async () => {
      const top = (await (await get('/api/tree?depth=1')).json()) as TreeBody;
      assert.ok(top.entries.every((e) => !e.path.includes('/')));
      assert.ok(top.entries.some((e) => e.path === 'empty' && e.type === 'dir'));

      const sub = (await (await get('/api/tree?path=deep&depth=2')).json()) as TreeBody;
      assert.equal(sub.root, 'deep');
      assert.deepEqual(
        sub.entries.map((e) => e.path),
        ['deep/a', 'deep/a/b'],
      );
      const nested = (await (await get('/api/tree?path=./src/lib/')).json()) as TreeBody;
      assert.equal(nested.root, 'src/lib');
      assert.deepEqual(
        nested.entries.map((e) => e.path),
        ['src/lib/util.js'],
      );
    });

    it('refuses paths outside the workspace (400), a missing folder (404), a file and a bad depth (400)', async () => {
      for (const path of ['../', encodeURIComponent(outside.path), 'link-outside']) {
        const res = await get(`/api/tree?path=${path}`);
        assert.equal(res.status, 400, path);
        assert.equal(((await res.json()) as { error: string }).error, 'invalid_request');
      }
      const missing = await get('/api/tree?path=nope');
      assert.equal(missing.status, 404);
      assert.deepEqual(await missing.json(), {
        error: 'not_found',
        message: 'nope does not exist',
      });
      assert.equal((await get('/api/tree?path=README.md')).status, 400);
      for (const depth of ['0', '33', 'x', '1.5']) {
        assert.equal((await get(`/api/tree?depth=${depth}`)).status, 400, depth);
      }
    });

    it('keeps the shallow levels and says truncated when the entry cap cuts the walk', async () => {
      const cut = await listTree(ws, '.', { maxEntries: 5 });
      assert.equal(cut.truncated, true);
      assert.equal(cut.entries.length, 5);
      assert.ok(
        cut.entries.every((e) => !e.path.includes('/')),
        'the first level comes first',
      );
      const whole = await listTree(ws, '.', { maxEntries: 100 });
      assert.equal(whole.truncated, false);
      assert.equal(whole.entries.length, 16);
      // Outside a request, nothing has loaded the schema compilers yet: the test does.
      await schemaCompilers.load();
      assert.deepEqual(checkParameters(TreeQuery, {}), { ok: true, value: {} });
      assert.deepEqual(checkParameters(TreeQuery, { depth: '32' }), {
        ok: true,
        value: { depth: 32 },
      });
    });
  });

  describe('GET /api/file', () => {
    it('returns the exact bytes with length, validators and safe headers', async () => {
      const res = await get('/api/file?path=bytes.bin');
      assert.equal(res.status, 200);
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), ALL_BYTES);
      const stats = await stat(join(ws, 'bytes.bin'));
      assert.equal(res.headers.get('content-type'), 'application/octet-stream');
      assert.equal(res.headers.get('content-length'), '256');
      assert.equal(res.headers.get('last-modified'), stats.mtime.toUTCString());
      assert.match(res.headers.get('etag') ?? '', /^W\/"100-[0-9a-f]+"$/);
      assert.equal(res.headers.get('accept-ranges'), 'bytes');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('content-disposition'), 'inline; filename="bytes.bin"');
    });

    it('names the content type by extension, text with charset=utf-8', async () => {
      const expected: Record<string, string> = {
        'README.md': 'text/markdown; charset=utf-8',
        'src/index.ts': 'text/plain; charset=utf-8',
        'src/config.json': 'application/json; charset=utf-8',
        'logo.png': 'image/png',
        'src/archive.tar': 'application/x-tar',
      };
      for (const [path, type] of Object.entries(expected)) {
        const res = await get(`/api/file?path=${path}`);
        assert.equal(res.headers.get('content-type'), type, path);
        await res.arrayBuffer();
      }
      assert.equal(contentTypeFor('notes.unknownext'), 'application/octet-stream');
      assert.equal(contentTypeFor('Makefile'), 'text/plain; charset=utf-8');
      assert.equal(contentTypeFor('.gitignore'), 'text/plain; charset=utf-8');
      // Nothing a page on the serving origin would run or apply: scripts and stylesheets are text.
      for (const name of ['app.js', 'worker.mjs', 'config.cjs', 'site.css'])
        assert.equal(contentTypeFor(name), 'text/plain; charset=utf-8', name);
    });

    it('answers one Range with 206 and Content-Range, suffix and open ranges included', async () => {
      const cases: [string, number, number][] = [
        ['bytes=10-19', 10, 19],
        ['bytes=250-', 250, 255],
        ['bytes=-4', 252, 255],
        ['bytes=200-999', 200, 255],
      ];
      for (const [range, start, end] of cases) {
        const res = await get('/api/file?path=bytes.bin', { range });
        assert.equal(res.status, 206, range);
        assert.equal(res.headers.get('content-range'), `bytes ${start}-${end}/256`, range);
        assert.equal(res.headers.get('content-length'), String(end - start + 1), range);
        assert.deepEqual(
          Buffer.from(await res.arrayBuffer()),
          ALL_BYTES.subarray(start, end + 1),
          range,
        );
      }
    });

    it('answers an unsatisfiable Range with 416 and bytes */size, and several ranges with the whole file', async () => {
      for (const range of ['bytes=256-', 'bytes=300-400', 'bytes=-0']) {
        const res = await get('/api/file?path=bytes.bin', { range });
        assert.equal(res.status, 416, range);
        assert.equal(res.headers.get('content-range'), 'bytes */256', range);
        const body = (await res.json()) as { error: string; message: string };
        assert.equal(body.error, 'range_not_satisfiable', range);
        assert.match(body.message, /256 bytes/);
      }
      const several = await get('/api/file?path=bytes.bin', { range: 'bytes=0-1,4-5' });
      assert.equal(several.status, 200);
      assert.equal((await several.arrayBuffer()).byteLength, 256);
    });

    it('answers 304 to the current ETag, and HEAD with the headers only', async () => {
      const first = await get('/api/file?path=README.md');
      await first.arrayBuffer();
      const etag = first.headers.get('etag')!;
      const again = await get('/api/file?path=README.md', { 'if-none-match': etag });
      assert.equal(again.status, 304);
      const stale = await get('/api/file?path=bytes.bin', { range: 'bytes=0-0', 'if-range': etag });
      assert.equal(stale.status, 200, 'If-Range naming another version gets the whole file');
      await stale.arrayBuffer();

      const head = await fetch(`${sandbox.apiBase}/api/file?path=bytes.bin`, {
        method: 'HEAD',
        headers: as('alice'),
      });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-length'), '256');
      assert.equal((await head.arrayBuffer()).byteLength, 0);
    });

    it('refuses a file over 100 MiB with 413 unless a Range asks for a part within the cap', async () => {
      const big = join(ws, 'big.bin');
      await writeFile(big, '');
      await truncate(big, 101 * MIB); // sparse: no disk used
      try {
        const whole = await get('/api/file?path=big.bin');
        assert.equal(whole.status, 413);
        assert.equal(((await whole.json()) as { error: string }).error, 'payload_too_large');
        const openEnded = await get('/api/file?path=big.bin', { range: 'bytes=0-' });
        assert.equal(openEnded.status, 413);
        await openEnded.arrayBuffer();
        const part = await get('/api/file?path=big.bin', { range: `bytes=${100 * MIB}-` });
        assert.equal(part.status, 206);
        assert.equal((await part.arrayBuffer()).byteLength, MIB);
      } finally {
        await rm(big);
      }
      // The cap's decision, with a small cap.
      const v = { etag: 'W/"a"', lastModified: 'x' };
      assert.deepEqual(planFileResponse(11, {}, v, 10), { status: 413 });
      assert.deepEqual(planFileResponse(10, {}, v, 10), {
        status: 200,
        start: 0,
        end: 9,
        length: 10,
      });
      assert.deepEqual(planFileResponse(100, { range: 'bytes=-10' }, v, 10), {
        status: 206,
        start: 90,
        end: 99,
        length: 10,
      });
      assert.deepEqual(planFileResponse(100, { range: 'bytes=0-10' }, v, 10), { status: 413 });
      assert.deepEqual(planFileResponse(100, { 'if-none-match': 'W/"a"' }, v, 10), { status: 304 });
    });

    it('parses ranges the way RFC 9110 says', () => {
      assert.deepEqual(parseRange(undefined, 10), { kind: 'whole' });
      assert.deepEqual(parseRange('bytes=0-0', 10), { kind: 'part', start: 0, end: 0 });
      assert.deepEqual(parseRange('bytes=5-3', 10), { kind: 'whole' });
      assert.deepEqual(parseRange('items=0-3', 10), { kind: 'whole' });
      assert.deepEqual(parseRange('bytes=abc', 10), { kind: 'whole' });
      assert.deepEqual(parseRange('bytes=-', 10), { kind: 'whole' });
      assert.deepEqual(parseRange('bytes=-20', 10), { kind: 'part', start: 0, end: 9 });
      assert.deepEqual(parseRange('bytes=0-', 0), { kind: 'unsatisfiable' });
      assert.deepEqual(parseRange('bytes=-5', 0), { kind: 'unsatisfiable' });
    });

    it('refuses escapes through symlinks and .. with 400 and never shows what is outside', async () => {
      for (const path of [
        'link-outside',
        '../' + outside.path.split('/').pop() + '/secret.txt',
        outside.path,
      ]) {
        const res = await get(`/api/file?path=${encodeURIComponent(path)}`);
        assert.equal(res.status, 400, path);
        const text = await res.text();
        assert.equal((JSON.parse(text) as { error: string }).error, 'invalid_request');
        assert.ok(!text.includes(SECRET));
      }
      const inside = await get('/api/file?path=link-inside');
      assert.equal(inside.status, 200);
      assert.equal(await inside.text(), '# Project\n');
    });

    it('refuses a folder and a missing path parameter with 400, a missing file with 404', async () => {
      const folder = await get('/api/file?path=src');
      assert.equal(folder.status, 400);
      assert.match(((await folder.json()) as { message: string }).message, /src is a directory/);
      assert.equal((await get('/api/file')).status, 400);
      assert.equal((await get('/api/file?path=nope.txt')).status, 404);
    });

    it('names any file safely in Content-Disposition', () => {
      assert.equal(contentDisposition('inline', 'a b.txt'), 'inline; filename="a b.txt"');
      assert.equal(
        contentDisposition('inline', 'naïve "q".txt'),
        `inline; filename="na_ve _q_.txt"; filename*=UTF-8''na%C3%AFve%20%22q%22.txt`,
      );
      assert.equal(
        contentDisposition('attachment', "it's (1)*.md"),
        `attachment; filename="it's (1)*.md"`,
      );
      assert.equal(
        contentDisposition('inline', 'a\\b%.txt'),
        `inline; filename="a_b_.txt"; filename*=UTF-8''a%5Cb%25.txt`,
      );
    });
  });

  describe('GET /api/events', () => {
    const open = (headers: Record<string, string> = {}) =>
      openEventStream(`${sandbox.apiBase}/api/events`, { ...as('alice'), ...headers });

    it('streams creates, changes and deletes of files and folders with increasing ids', async () => {
      const stream = await open();
      try {
        assert.equal(stream.response.status, 200);
        assert.equal(
          stream.response.headers.get('content-type'),
          'text/event-stream; charset=utf-8',
        );
        assert.equal(stream.response.headers.get('cache-control'), 'no-cache');
        assert.equal(stream.response.headers.get('x-accel-buffering'), 'no');
        await stream.next(isReady);
        await mkdir(join(ws, 'ev'));
        const folder = parseFrame(await stream.next(isChange('ev', 'create')));
        assert.equal(folder.data.kind, 'dir');
        await writeFile(join(ws, 'ev/a.txt'), 'one');
        const created = parseFrame(await stream.next(isChange('ev/a.txt', 'create')));
        await appendFile(join(ws, 'ev/a.txt'), 'two');
        const changed = parseFrame(await stream.next(isChange('ev/a.txt', 'change')));
        await rm(join(ws, 'ev/a.txt'));
        const deleted = parseFrame(await stream.next(isChange('ev/a.txt', 'delete')));
        await rm(join(ws, 'ev'), { recursive: true });
        const gone = parseFrame(await stream.next(isChange('ev', 'delete')));

        assert.equal(created.data.kind, 'file');
        assert.match(String(created.data.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.deepEqual(Object.keys(created.data), ['type', 'kind', 'path', 'time']);
        assert.equal(gone.data.kind, 'dir');
        const ids = [folder, created, changed, deleted, gone].map((f) => f.id!);
        assert.ok(
          ids.every((id, i) => i === 0 || id > ids[i - 1]!),
          `increasing: ${ids.join(' ')}`,
        );
      } finally {
        stream.close();
      }
    });

    it('reports a moved file as one rename with from', async () => {
      const stream = await open();
      try {
        await stream.next(isReady);
        // Moved once the watcher knows it: else the move is the first it sees of the file.
        await writeFile(join(ws, 'before.txt'), 'moving');
        await stream.next(isChange('before.txt'));
        await rename(join(ws, 'before.txt'), join(ws, 'after.txt'));
        const moved = parseFrame(await stream.next(isChange('after.txt')));
        assert.deepEqual(
          { type: moved.data.type, from: moved.data.from, kind: moved.data.kind },
          { type: 'rename', from: 'before.txt', kind: 'file' },
        );
      } finally {
        stream.close();
        await rm(join(ws, 'after.txt'), { force: true });
      }
    });

    it('reports the files the MCP tools write, like any other change', async () => {
      const stream = await open();
      const client = await connect(sandbox.base, 'sse');
      try {
        await stream.next(isReady);
        const written = await client.callTool({
          name: 'Write',
          arguments: { file_path: 'agent/notes.md', content: 'from the agent\n' },
        });
        assert.match(textOf(written), /Wrote/);
        await stream.next(isChange('agent', 'create'));
        // Write renames a temporary file over the target: when the watcher saw the temporary file,
        // the target appears as a rename from it, else as a create.
        const notes = parseFrame(await stream.next(isChange('agent/notes.md')));
        assert.ok(['create', 'rename'].includes(String(notes.data.type)), String(notes.data.type));
        await client.callTool({
          name: 'Bash',
          arguments: { command: 'echo more >> agent/notes.md && rm -r agent' },
        });
        await stream.next(isChange('agent/notes.md', 'delete'));
      } finally {
        await client.close();
        stream.close();
        await rm(join(ws, 'agent'), { recursive: true, force: true });
      }
    });

    it('reports files written right after their folder is created', async () => {
      // chokidar lists a new folder before it watches it (its issue #1471); the watcher catches up.
      const stream = await open();
      try {
        await stream.next(isReady);
        for (let i = 0; i < 20; i++) {
          await mkdir(join(ws, `fresh/a${i}/b`), { recursive: true });
          await writeFile(join(ws, `fresh/a${i}/b/.f.tmp`), 'x');
          await rename(join(ws, `fresh/a${i}/b/.f.tmp`), join(ws, `fresh/a${i}/b/f.txt`));
        }
        const missing = new Set(Array.from({ length: 20 }, (_, i) => `fresh/a${i}/b/f.txt`));
        const seen: string[] = [];
        while (missing.size > 0) {
          const frame = await stream.next(isChangeEvent, 10_000).catch(() => undefined);
          if (frame === undefined) break;
          const { data } = parseFrame(frame);
          seen.push(`${String(data.type)} ${String(data.path)}`);
          missing.delete(String(data.path));
        }
        assert.deepEqual([...missing], [], `reported: ${seen.join(', ')}`);
      } finally {
        stream.close();
        await rm(join(ws, 'fresh'), { recursive: true, force: true });
      }
    });

    it('does not report changes inside .git or node_modules', async () => {
      const stream = await open();
      try {
        await stream.next(isReady);
        await writeFile(join(ws, '.git/index'), 'x');
        await writeFile(join(ws, 'node_modules/pkg/new.js'), 'x');
        await writeFile(join(ws, 'src/lib/node_modules/inner/y.js'), 'x');
        await mkdir(join(ws, 'deep/a/.git/refs'));
        await writeFile(join(ws, 'marker.txt'), 'x');
        const seen: string[] = [];
        /** Reads every frame up to and including the one `last` matches. */
        const through = async (last: (frame: string) => boolean) => {
          for (;;) {
            const frame = await stream.next();
            seen.push(frame);
            if (last(frame)) return;
          }
        };
        await through(isChange('marker.txt'));
        // The watcher reports in order: whatever it saw of the writes above arrives before a
        // change made after the marker's event.
        await writeFile(join(ws, 'marker-after.txt'), 'x');
        await through(isChange('marker-after.txt'));
        assert.ok(
          seen.every((f) => !/\.git|node_modules/.test(f)),
          `no .git or node_modules events: ${JSON.stringify(seen)}`,
        );
      } finally {
        stream.close();
        await rm(join(ws, 'marker.txt'), { force: true });
        await rm(join(ws, 'marker-after.txt'), { force: true });
      }
    });

    it('replays only the newer events to a client resuming with Last-Event-ID, and a reset when they are gone', async () => {
      const first = await open();
      await first.next(isReady);
      await writeFile(join(ws, 'r1.txt'), '1');
      const r1 = parseFrame(await first.next(isChange('r1.txt', 'create')));
      await writeFile(join(ws, 'r2.txt'), '2');
      const r2 = parseFrame(await first.next(isChange('r2.txt', 'create')));
      await writeFile(join(ws, 'r3.txt'), '3'); // while the client is away (the stream sees it too)
      await first.next(isChange('r3.txt', 'create'));
      first.close();

      const resumed = await open({ 'last-event-id': String(r1.id) });
      try {
        // Everything after r1's event, in order, then `ready` carrying the last id.
        const replayed: Frame[] = [];
        for (;;) {
          const frame = parseFrame(await resumed.next());
          if (frame.event === 'ready') {
            assert.equal(frame.data.id, replayed.at(-1)?.id);
            break;
          }
          replayed.push(frame);
        }
        assert.equal(replayed[0]?.id, r1.id! + 1);
        assert.ok(replayed.every((f, i) => f.event === 'change' && f.id === r1.id! + 1 + i));
        const described = replayed.map((f) => `${String(f.data.type)} ${String(f.data.path)}`);
        assert.ok(described.includes('create r2.txt'), described.join(', '));
        assert.ok(described.includes('create r3.txt'), described.join(', '));
      } finally {
        resumed.close();
      }

      // An id from before this run of the sandbox (or garbage): the client must refetch the tree.
      for (const id of ['1', 'abc']) {
        const stale = await open({ 'last-event-id': id });
        const reset = parseFrame(await stale.next());
        assert.equal(reset.event, 'reset', id);
        assert.ok(reset.id! >= r2.id!, 'the reset carries the id to resume from');
        stale.close();
      }
      await Promise.all(['r1.txt', 'r2.txt', 'r3.txt'].map((f) => rm(join(ws, f))));
    });

    it('serves a real EventSource client, which resumes after a dropped connection without losing or repeating an event', async () => {
      const requests: Headers[] = [];
      // The first connection is cut right after it delivered the change of es1.txt, as a flaky
      // network would (not at an earlier change: earlier tests' late events may still come).
      const cutAfterFirstChange: typeof fetch = async (input, init) => {
        const headers = new Headers(init?.headers);
        for (const [name, value] of Object.entries(as('alice'))) headers.set(name, value);
        requests.push(headers);
        const response = await fetch(input, { ...init, headers });
        if (requests.length > 1 || !response.body) return response;
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { value, done } = await reader.read();
            if (done) return controller.close();
            controller.enqueue(value);
            if (new TextDecoder().decode(value).includes('"es1.txt"')) {
              await reader.cancel();
              controller.close();
            }
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      };
      const source = new EventSource(`${sandbox.apiBase}/api/events`, {
        fetch: cutAfterFirstChange,
      });
      const changes: Array<{ id: number; path: string }> = [];
      source.addEventListener('change', (event) => {
        const data = JSON.parse(event.data as string) as { path: string };
        changes.push({ id: Number(event.lastEventId), path: data.path });
      });
      try {
        await once(source, 'ready');
        await writeFile(join(ws, 'es1.txt'), '1');
        await eventually('es1 through EventSource', () =>
          changes.some((c) => c.path === 'es1.txt') ? true : undefined,
        );
        await writeFile(join(ws, 'es2.txt'), '2'); // while the client is reconnecting
        await eventually('es2 after the reconnect', () =>
          changes.some((c) => c.path === 'es2.txt') ? true : undefined,
        );
        assert.ok(requests.length >= 2, 'the client reconnected');
        const es1 = changes.find((c) => c.path === 'es1.txt')!;
        assert.ok(
          Number(requests[1]!.get('last-event-id')) >= es1.id,
          'the reconnect carried Last-Event-ID',
        );
        const ids = changes.map((c) => c.id);
        assert.deepEqual(
          ids,
          [...new Set(ids)].sort((a, b) => a - b),
          'no event twice, in order',
        );
      } finally {
        source.close();
        await Promise.all(['es1.txt', 'es2.txt'].map((f) => rm(join(ws, f))));
      }
    });

    it('sends keepalive comments on an idle stream (SVC_API_KEEPALIVE_SECONDS)', async () => {
      const stream = await open();
      try {
        await stream.next(isReady);
        assert.equal(await stream.next((f) => f === ': keepalive', 5_000), ': keepalive');
      } finally {
        stream.close();
      }
    });

    it('keeps the last events of a bounded ring and formats them as SSE', () => {
      const ring = new EventRing(3, 100);
      assert.deepEqual(ring.since(99), []);
      const change = { type: 'create', kind: 'file', path: 'a', time: 't' } as const;
      for (let i = 0; i < 5; i++) ring.push({ ...change, path: `f${i}` });
      assert.equal(ring.lastId, 104);
      assert.deepEqual(
        (ring.since(101) as { path: string }[]).map((e) => e.path),
        ['f2', 'f3', 'f4'],
      );
      assert.equal(ring.since(100), 'reset', 'event 101 was evicted');
      assert.equal(ring.since(105), 'reset', 'an id from the future');
      assert.equal(
        formatChange({ id: 7, type: 'rename', kind: 'dir', path: 'b', from: 'a', time: 't' }),
        'id: 7\nevent: change\ndata: {"type":"rename","kind":"dir","path":"b","from":"a","time":"t"}\n\n',
      );
      assert.equal(parseLastEventId(undefined), undefined);
      assert.equal(parseLastEventId('42'), 42);
      assert.ok(Number.isNaN(parseLastEventId('4x')));
      assert.equal(keepAliveSeconds({}), 15);
      assert.equal(keepAliveSeconds({ SVC_API_KEEPALIVE_SECONDS: '0.5' }), 0.5);
      assert.equal(keepAliveSeconds({ SVC_API_KEEPALIVE_SECONDS: 'soon' }), 15);
    });
  });

  describe('GET /api/download', () => {
    it('streams a zip that unzip verifies, without .git and node_modules, with empty folders', async () => {
      const res = await get('/api/download');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/zip');
      assert.match(
        res.headers.get('content-disposition') ?? '',
        /^attachment; filename="workspace-\d{8}T\d{6}Z\.zip"$/,
      );
      const out = await tempDir();
      try {
        const zip = join(out.path, 'ws.zip');
        await save(res, zip);
        const tested = await run('unzip', ['-t', zip]);
        assert.match(tested.stdout, /No errors detected/);
        const names = (await run('zipinfo', ['-1', zip])).stdout.trim().split('\n').sort();
        assert.deepEqual(names, [
          'README.md',
          'bytes.bin',
          'deep/',
          'deep/a/',
          'deep/a/b/',
          'deep/a/b/leaf.txt',
          'empty/',
          'logo.png',
          'src/',
          'src/archive.tar',
          'src/config.json',
          'src/index.ts',
          'src/lib/',
          'src/lib/util.js',
        ]);
        const listing = (await run('unzip', ['-l', zip])).stdout;
        assert.ok(!/\.git|node_modules|link-/.test(listing), listing);
        const bytes = await run('unzip', ['-p', zip, 'bytes.bin'], { encoding: 'buffer' });
        assert.deepEqual(bytes.stdout, ALL_BYTES);
        // Already-compressed formats are stored, the rest deflated.
        const verbose = (await run('unzip', ['-v', zip])).stdout;
        assert.match(verbose, /Stored .* logo\.png/);
        assert.match(verbose, /Defl:N .* README\.md/);
      } finally {
        await out.remove();
      }
      assert.equal(shouldCompress('a.tar'), true);
      assert.equal(shouldCompress('A.JPG'), false);
      assert.equal(
        downloadFileName(new Date('2026-11-22T04:55:01.123Z')),
        'workspace-20261122T045501Z.zip',
      );
    });
  });

  describe('identity and flags', () => {
    it('answers every file route 401 without identity headers', async () => {
      for (const path of [
        '/api/tree',
        '/api/file?path=README.md',
        '/api/events',
        '/api/download',
      ]) {
        const res = await fetch(`${sandbox.apiBase}${path}`);
        assert.equal(res.status, 401, path);
        assert.equal(((await res.json()) as { error: string }).error, 'unauthorized');
      }
    });

    it('answers 404 on every file route when -enable-api is off', async () => {
      const off = await startApiSandbox(ws, []);
      try {
        for (const path of [
          '/api/tree',
          '/api/file?path=README.md',
          '/api/events',
          '/api/download',
        ]) {
          const res = await fetch(`${off.apiBase}${path}`, { headers: as('alice') });
          assert.equal(res.status, 404, path);
          assert.equal(((await res.json()) as { error: string }).error, 'not_found');
        }
      } finally {
        await off.stop();
      }
    });
  });
});

describe('event streams and the sandbox lifecycle', () => {
  let dir: Temp;
  let sandbox: RunningApiSandbox;
  before(async () => {
    dir = await tempDir();
    sandbox = await startApiSandbox(dir.path, ['-enable-api']);
  });
  after(async () => {
    await sandbox.stop();
    await dir.remove();
  });

  it('refuses the 101st concurrent event stream with 503', async () => {
    const url = `${sandbox.apiBase}/api/events`;
    const streams = await Promise.all(
      Array.from({ length: 100 }, () => openEventStream(url, as('alice'))),
    );
    try {
      await Promise.all(streams.map((s) => s.next(isReady)));
      const refused = await fetch(url, { headers: as('alice') });
      assert.equal(refused.status, 503);
      assert.equal(((await refused.json()) as { error: string }).error, 'unavailable');
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('ends open event streams cleanly when the sandbox stops', async () => {
    const url = `${sandbox.apiBase}/api/events`;
    await until(async () => {
      const probe = await fetch(url, { headers: as('alice') });
      await probe.body?.cancel();
      return probe.status === 200;
    }, 'the closed streams are released');
    const stream = await openEventStream(url, as('alice'));
    await stream.next(isReady);
    const stopped = await sandbox.stop();
    assert.equal(stopped.code, 0);
    assert.equal(await stream.ended, 'finished');
  });
});

describe('downloading large workspaces', () => {
  let dir: Temp;
  let out: Temp;
  let sandbox: RunningApiSandbox;
  const download = (signal?: AbortSignal) =>
    fetch(`${sandbox.apiBase}/api/download`, { headers: as('alice'), signal });
  before(async () => {
    dir = await tempDir();
    out = await tempDir();
    sandbox = await startApiSandbox(dir.path, ['-enable-api']);
  });
  after(async () => {
    await sandbox.stop();
    await dir.remove();
    await out.remove();
  });

  it('streams a 1 GiB file into a valid zip with the sandbox staying under 300 MB of memory', async (t) => {
    const huge = join(dir.path, 'huge.bin');
    await writeFile(huge, '');
    await truncate(huge, 1024 * MIB);
    try {
      const zip = join(out.path, 'huge.zip');
      const started = Date.now();
      await save(await download(), zip);
      const ms = Date.now() - started;
      const tested = await run('unzip', ['-t', zip]);
      assert.match(tested.stdout, /No errors detected/);
      assert.match((await run('unzip', ['-l', zip])).stdout, /1073741824\s.*huge\.bin/);
      const peak = await peakRss(sandbox.child.pid!);
      t.diagnostic(`1 GiB download: ${ms} ms, sandbox peak RSS ${Math.round(peak / MIB)} MiB`);
      assert.ok(peak < 300 * 1000 * 1000, `peak RSS ${peak} bytes`);
    } finally {
      await rm(huge);
      await rm(join(out.path, 'huge.zip'), { force: true });
    }
  });

  it('zips hundreds of folders and small files intact', async () => {
    // More folders in a row than MAX_FOLDER_RUN and more small files than MAX_ENTRIES_AHEAD.
    const folders = 600;
    const files = 200;
    await mkdir(join(dir.path, 'files'));
    await Promise.all(
      Array.from({ length: files }, (_, i) =>
        writeFile(join(dir.path, 'files', `f${i}.txt`), `file ${i}\n`.repeat(10)),
      ),
    );
    await mkdir(join(dir.path, 'many'));
    await Promise.all(
      Array.from({ length: folders }, (_, i) => mkdir(join(dir.path, 'many', `d${i}`))),
    );
    try {
      const zip = join(out.path, 'many.zip');
      await save(await download(), zip);
      assert.match((await run('unzip', ['-t', zip])).stdout, /No errors detected/);
      const names = (await run('zipinfo', ['-1', zip])).stdout.trim().split('\n');
      assert.equal(names.length, folders + files + 2);
      assert.ok(names.includes(`many/d${folders - 1}/`));
      assert.equal(
        (await run('unzip', ['-p', zip, `files/f${files - 1}.txt`])).stdout,
        `file ${files - 1}\n`.repeat(10),
      );
    } finally {
      await rm(join(dir.path, 'files'), { recursive: true });
      await rm(join(dir.path, 'many'), { recursive: true });
      await rm(join(out.path, 'many.zip'), { force: true });
    }
  });

  it('keeps the walk a bounded distance ahead of yazl while the client is not reading', async () => {
    const data = randomBytes(64 * 1024); // incompressible: yazl's output fills and stalls
    await writeFile(join(out.path, 'sample.bin'), data);
    const fileStats = await stat(join(out.path, 'sample.bin'));
    const folderStats = await stat(out.path);
    const archive = async (zip: ZipFile, name: string) => {
      const file = join(out.path, name);
      await pipeline(zip.outputStream as Readable, createWriteStream(file));
      assert.match((await run('unzip', ['-t', file])).stdout, /No errors detected/);
      return (await run('zipinfo', ['-1', file])).stdout.trim().split('\n').length;
    };

    // Small files: read ahead at most MAX_ENTRIES_AHEAD entries past the one yazl is writing.
    const ahead = new ZipFile();
    const files = { queued: 0, waiting: false };
    const walkFiles = (async () => {
      const queue = new ZipQueue(ahead, new AbortController().signal);
      for (let i = 0; i < 100; i++) {
        files.waiting = true;
        await queue.addBytes(`f${i}.bin`, data, fileStats);
        files.waiting = false;
        files.queued++;
      }
    })();
    // The walk waits for yazl, which waits for a reader: it went as far ahead as it may.
    await eventually('the walk of files stalled', () =>
      files.waiting && files.queued >= MAX_ENTRIES_AHEAD ? true : undefined,
    );
    assert.ok(files.queued <= MAX_ENTRIES_AHEAD + 1, `${files.queued} queued while stalled`);
    const aheadCount = archive(ahead, 'ahead.zip');
    await walkFiles;
    ahead.end();
    assert.equal(await aheadCount, 100);

    // Folders: at most MAX_FOLDER_RUN in a row behind an unfinished entry (yazl writes a run by
    // recursion; thousands would overflow its stack).
    const folderZip = new ZipFile();
    const folders = { queued: 0, waiting: false };
    const walkFolders = (async () => {
      const queue = new ZipQueue(folderZip, new AbortController().signal);
      await queue.addBytes('first.bin', data, fileStats);
      for (let i = 0; i < 5_000; i++) {
        folders.waiting = true;
        await queue.addFolder(`d${i}`, folderStats);
        folders.waiting = false;
        folders.queued++;
      }
    })();
    await eventually('the walk of folders stalled', () =>
      folders.waiting && folders.queued >= MAX_FOLDER_RUN ? true : undefined,
    );
    assert.equal(folders.queued, MAX_FOLDER_RUN);
    const runCount = archive(folderZip, 'run.zip');
    await walkFolders;
    folderZip.end();
    assert.equal(await runCount, 5_001);
  });

  it('breaks the connection, never ends the zip cleanly, when a file shrinks while it is sent', async () => {
    const big = join(dir.path, 'big.png'); // stored, so the socket's pace is the file's pace
    await writeFile(big, '');
    await truncate(big, 256 * MIB);
    try {
      const res = await download();
      assert.equal(res.status, 200);
      const reader = res.body!.getReader();
      let received = 0;
      while (received < MIB)
        received += ((await reader.read()).value as Uint8Array | undefined)?.length ?? 0;
      // The file's entry has started and its data is flowing; the client has read only a little.
      await truncate(big, 0);
      const outcome = await (async () => {
        try {
          for (;;) if ((await reader.read()).done) return 'ended cleanly';
        } catch {
          return 'broken';
        }
      })();
      assert.equal(outcome, 'broken');
      await sandbox.waitForOutput(/"msg":"download aborted"/);
    } finally {
      await rm(big);
    }
  });

  it('stops the walk and closes the file when the client goes away', async () => {
    const big = join(dir.path, 'big.png');
    await writeFile(big, '');
    await truncate(big, 256 * MIB);
    const pid = sandbox.child.pid!;
    try {
      const controller = new AbortController();
      const res = await download(controller.signal);
      const reader = res.body!.getReader();
      let received = 0;
      while (received < MIB)
        received += ((await reader.read()).value as Uint8Array | undefined)?.length ?? 0;
      assert.ok((await openFiles(pid)).includes(big), 'the file is open while it is sent');
      controller.abort();
      await until(async () => !(await openFiles(pid)).includes(big), 'the sandbox closed the file');
      await sandbox.waitForOutput(/"msg":"download cancelled by the client"/);
      assert.ok((await lstat(big)).size === 256 * MIB);
    } finally {
      await rm(big);
    }
  });
});
