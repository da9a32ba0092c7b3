import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expandArgs, expandEnv, expandVariables } from '../../src/local-node/dependent-vars.js';

const VARS: Record<string, string> = {
  VAR_A: 'A',
  VAR_B: 'B',
  VAR_C: 'C',
  BIG_MONEY: '$$',
  EMPTY: '',
};
const lookup = (name: string) => VARS[name];

describe('dependent variable expansion', () => {
  const cases: [string, string, string][] = [
    ['a whole reference', '$(VAR_A)', 'A'],
    ['a reference inside text', '___$(VAR_B)___', '___B___'],
    ['several references', '$(VAR_A)_$(VAR_B)_$(VAR_C)', 'A_B_C'],
    ['an empty value', 'x$(EMPTY)y', 'xy'],
    ['an unknown reference, kept as written', '$(VAR_DNE)', '$(VAR_DNE)'],
    ['an escaped reference', '$$(VAR_B)_$(VAR_A)', '$(VAR_B)_A'],
    ['an escaped unknown reference', '$$(VAR_DNE)', '$(VAR_DNE)'],
    ['escapes before a reference', '$$$$$(BIG_MONEY)', '$$$$'],
    ['escapes only', '$$$$$$(BIG_MONEY)', '$$$(BIG_MONEY)'],
    ['a value that holds `$`, not expanded again', '$(BIG_MONEY)', '$$'],
    ['an unclosed reference', '$(VAR_A', '$(VAR_A'],
    ['an unclosed reference, read on after its `$(`', '$(VAR_A $$', '$(VAR_A $'],
    ['a name up to the first `)`, unknown', '$(VAR_A$(VAR_B)', '$(VAR_A$(VAR_B)'],
    ['`$` before another character', '$VAR_A', '$VAR_A'],
    ['an escaped `$` before a name', 'f000-$$VAR_A', 'f000-$VAR_A'],
    ['a trailing `$`', 'cost $', 'cost $'],
    ['a reference then a trailing `$`', '$(VAR_A)$', 'A$'],
    ['an empty reference', '$()', '$()'],
    ['text without references', 'plain text', 'plain text'],
    ['nothing', '', ''],
  ];
  for (const [name, input, want] of cases) {
    it(`expands ${name}: ${JSON.stringify(input)}`, () =>
      assert.equal(expandVariables(input, lookup), want));
  }

  it('expands env values in order: only variables defined before are seen', () => {
    const env = expandEnv([
      { name: 'POD', value: 'web-0', expand: false },
      { name: 'AUDIENCE', value: '$(POD).web.team.svc', expand: true },
      { name: 'EARLY', value: '$(LATE)', expand: true },
      { name: 'LATE', value: 'late', expand: true },
      { name: 'FROM_SECRET', value: '$(POD)', expand: false },
      { name: 'POD', value: 'again-$(POD)', expand: true },
    ]);
    assert.deepEqual(env, [
      ['POD', 'web-0'],
      ['AUDIENCE', 'web-0.web.team.svc'],
      ['EARLY', '$(LATE)'],
      ['LATE', 'late'],
      ['FROM_SECRET', '$(POD)'],
      ['POD', 'again-web-0'],
    ]);
  });

  it('expands args against the final environment', () => {
    assert.deepEqual(
      expandArgs(
        ['-name', '$(POD)', '$$(POD)', '$(NONE)'],
        [
          ['POD', 'first'],
          ['POD', 'web-1'],
        ],
      ),
      ['-name', 'web-1', '$(POD)', '$(NONE)'],
    );
  });
});
