import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tempDir } from '@paddock/testing';
import { restoreEdit, restoreMarkers } from '@paddock/common/scrub';
import { Scrubber } from '@paddock/common/scrub';
import { connect, startSandbox, textOf, type RunningSandbox } from '../support/sandbox.js';

/**
 * Scrubbing never destroys data: text that an agent copied from a result, redaction markers and
 * all, and writes back with Write or Edit keeps the real secrets where the markers stand for them;
 * a marker that stands for nothing, or for one of several values with nothing to tell which, is
 * refused with the reason, and nothing is written.
 */

const M = '[REDACTED:secret-assignment]';
const scrubber = new Scrubber({ secrets: ['configured-value-0123'] });
const view = (text: string) => scrubber.view(text);

describe('the scrubbed view of a text', () => {
  const texts = [
    '',
    'nothing secret here\n',
    'DB_PASSWORD=hunter2hunter2\n',
    'A_TOKEN=aaaaaaaaaaaa B_TOKEN=bbbbbbbbbbbb\n',
    'x = configured-value-0123 and configured-value-0123\n',
    'already [REDACTED:foo] literal, DB_PASSWORD=hunter2hunter2\n',
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----\n',
  ];
  it('shows exactly what scrub shows, and stands for exactly the text', () => {
    for (const text of texts) {
      const segments = view(text);
      assert.equal(segments.map((s) => s.shown).join(''), scrubber.scrub(text), text);
      assert.equal(segments.map((s) => s.real).join(''), text, text);
    }
  });
});

describe('mapping markers back', () => {
  const file = 'DB_PASSWORD=hunter2hunter2\nOTHER=1\nA_TOKEN=aaaaaaaaaaaa\nB_TOKEN=bbbbbbbbbbbb\n';
  const shownFile = scrubber.scrub(file);

  it('maps each marker of a whole file written back to the value it stands for', () => {
    const table: Array<[sent: string, written: string]> = [
      [shownFile, file],
      [`${shownFile}NEW=2\n`, `${file}NEW=2\n`],
      // A changed line keeps its value when the text before the marker still tells which.
      [
        shownFile.replace(`B_TOKEN=${M}`, `B_TOKEN=${M} # rotated`),
        file.replace('B_TOKEN=bbbbbbbbbbbb', 'B_TOKEN=bbbbbbbbbbbb # rotated'),
      ],
      // Lines reordered: each still finds its own.
      [`B_TOKEN=${M}\nA_TOKEN=${M}\n`, 'B_TOKEN=bbbbbbbbbbbb\nA_TOKEN=aaaaaaaaaaaa\n'],
      ['no markers at all\n', 'no markers at all\n'],
    ];
    for (const [sent, written] of table) {
      assert.deepEqual(restoreMarkers(sent, view(file), 'content', 'f'), {
        ok: true,
        text: written,
      });
    }
  });

  it('refuses a marker that stands for nothing or for one of several values, saying why', () => {
    const table: Array<[sent: string, segments: ReturnType<typeof view> | undefined, why: RegExp]> =
      [
        [`X=${M}\n`, undefined, /does not exist yet/],
        [`X=[REDACTED:aws-access-key]\n`, view(file), /holds no such hidden value now/],
        [`NEW_TOKEN=${M}\n`, view('A_TOKEN=aaaaaaaaaaaa\nB_TOKEN=bbbbbbbbbbbb\n'), /one of 2/],
      ];
    for (const [sent, segments, why] of table) {
      const outcome = restoreMarkers(sent, segments, 'content', 'f');
      assert.equal(outcome.ok, false, sent);
      if (!outcome.ok) {
        assert.match(outcome.reason, why);
        assert.match(outcome.reason, /at line 1 of content/);
        assert.match(outcome.reason, /nothing was written/);
      }
    }
  });

  it('keeps a marker the file itself holds as plain text', () => {
    const literal = 'docs say [REDACTED:foo] is a marker\n';
    assert.deepEqual(restoreMarkers(literal, view(literal), 'content', 'f'), {
      ok: true,
      text: literal,
    });
  });

  it("maps an Edit's strings copied from Read to the file's real text", () => {
    const table: Array<[old: string, new_: string, realOld: string, realNew: string]> = [
      [
        `DB_PASSWORD=${M}\nOTHER=1`,
        `DB_PASSWORD=${M}\nOTHER=2`,
        'DB_PASSWORD=hunter2hunter2\nOTHER=1',
        'DB_PASSWORD=hunter2hunter2\nOTHER=2',
      ],
      [
        `A_TOKEN=${M}\nB_TOKEN=${M}`,
        `B_TOKEN=${M}\nA_TOKEN=${M}`,
        'A_TOKEN=aaaaaaaaaaaa\nB_TOKEN=bbbbbbbbbbbb',
        'B_TOKEN=aaaaaaaaaaaa\nA_TOKEN=bbbbbbbbbbbb',
      ],
      ['OTHER=1', 'OTHER=3', 'OTHER=1', 'OTHER=3'],
    ];
    for (const [old, new_, realOld, realNew] of table) {
      assert.deepEqual(restoreEdit(view(file), old, new_, 'f'), {
        ok: true,
        oldString: realOld,
        newString: realNew,
      });
    }
  });

  it('maps a marker new_string copies from elsewhere when the file has one such value', () => {
    const one = 'DB_PASSWORD=hunter2hunter2\nOTHER=1\n';
    assert.deepEqual(restoreEdit(view(one), 'OTHER=1', `OTHER=1\nCOPY_PASSWORD=${M}`, 'f'), {
      ok: true,
      oldString: 'OTHER=1',
      newString: 'OTHER=1\nCOPY_PASSWORD=hunter2hunter2',
    });
  });

  it('refuses an Edit whose markers cannot be mapped, saying why', () => {
    const twice = 'P_TOKEN=aaaaaaaaaaaa\nP_TOKEN=bbbbbbbbbbbb\n';
    const table: Array<
      [segments: ReturnType<typeof view>, old: string, new_: string, why: RegExp]
    > = [
      [
        view(twice),
        `P_TOKEN=${M}`,
        'P_TOKEN=x',
        /occurs more than once .* different hidden values/,
      ],
      [view(twice), 'nothing', `Q_TOKEN=${M}`, /one of 2 hidden values/],
      [view(file), `ment]\nOTHER=1\nA_TOKEN=${M}`, 'x', /cuts through a redaction marker/],
      [view(file), 'OTHER=1', `COPY_PASSWORD=${M}`, /one of 3 hidden values/],
    ];
    for (const [segments, old, new_, why] of table) {
      const outcome = restoreEdit(segments, old, new_, 'f');
      assert.equal(outcome.ok, false, old);
      if (!outcome.ok) assert.match(outcome.reason, why);
    }
  });
});

describe('Edit and Write through the MCP server', () => {
  let folder: { path: string; remove: () => Promise<void> };
  let sandbox: RunningSandbox;
  let client: Client;
  const ENV = 'DB_PASSWORD=s3cr3t-value-123\nOTHER=1\n';

  before(async () => {
    folder = await tempDir('paddock-redaction-');
    sandbox = await startSandbox(folder.path);
    client = await connect(sandbox.base, 'streamable');
  });

  after(async () => {
    await client.close();
    await sandbox.stop();
    await folder.remove();
  });

  async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  /** What Read shows of a file (whose lines all end with \\n), without its line numbers. */
  async function seen(file: string): Promise<string> {
    const shown = textOf(await call('Read', { file_path: file }));
    return shown
      .split('\n')
      .filter((line) => /^\s*\d+\t/.test(line))
      .map((line) => `${line.replace(/^\s*\d+\t/, '')}\n`)
      .join('');
  }

  it('says in the tool descriptions that values may be redacted', async () => {
    const { tools } = await client.listTools();
    for (const name of ['Read', 'Edit', 'Write']) {
      const tool = tools.find((t) => t.name === name);
      assert.match(tool?.description ?? '', /\[REDACTED:<kind>\]/, name);
    }
  });

  it('Write of what Read showed keeps the real secret', async () => {
    await writeFile(join(folder.path, 'a.env'), ENV);
    const shown = await seen('a.env');
    assert.equal(shown, `DB_PASSWORD=${M}\nOTHER=1\n`);
    const result = await call('Write', { file_path: 'a.env', content: `${shown}ADDED=yes\n` });
    assert.equal(result.isError, undefined, textOf(result));
    assert.equal(await readFile(join(folder.path, 'a.env'), 'utf8'), `${ENV}ADDED=yes\n`);
  });

  it('Edit with strings copied from Read keeps the real secret', async () => {
    await writeFile(join(folder.path, 'b.env'), ENV);
    await seen('b.env');
    const result = await call('Edit', {
      file_path: 'b.env',
      old_string: `DB_PASSWORD=${M}\nOTHER=1`,
      new_string: `DB_PASSWORD=${M}\nOTHER=2`,
    });
    assert.equal(result.isError, undefined, textOf(result));
    assert.equal(
      await readFile(join(folder.path, 'b.env'), 'utf8'),
      'DB_PASSWORD=s3cr3t-value-123\nOTHER=2\n',
    );
  });

  it('refuses a marker it cannot map back, says why and writes nothing', async () => {
    const two = 'A_PASSWORD=first-value-123\nB_PASSWORD=second-value-456\n';
    await writeFile(join(folder.path, 'c.env'), two);
    const shown = await seen('c.env');
    const result = await call('Write', {
      file_path: 'c.env',
      content: `${shown}C_PASSWORD=${M}\n`,
    });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /at line 3 of content stands for one of 2 hidden values/);
    assert.equal(await readFile(join(folder.path, 'c.env'), 'utf8'), two);

    const created = await call('Write', { file_path: 'new.env', content: `X_PASSWORD=${M}\n` });
    assert.equal(created.isError, true);
    assert.match(textOf(created), /does not exist yet/);
    await assert.rejects(readFile(join(folder.path, 'new.env')), { code: 'ENOENT' });
  });
});
