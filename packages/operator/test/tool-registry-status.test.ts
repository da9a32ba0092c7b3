import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  registryStatus,
  type HandlerDiscovery,
  type ToolReport,
} from '../src/toolregistry/index.js';

const now = new Date('2030-01-02T03:04:05.000Z');
const later = new Date('2030-01-02T04:00:00.000Z');

const tool = (
  handlerName: string,
  name: string,
  status: ToolReport['status'] = 'Available',
  error?: string,
): ToolReport => ({
  handlerName,
  name,
  status,
  endpoint: `http://${handlerName}`,
  ...(error === undefined ? {} : { error }),
});

const condition = (status: ReturnType<typeof registryStatus>, type: string) =>
  status.conditions.find((c) => c.type === type);

describe('ToolRegistry status from discovery', () => {
  it('sets phase and counts from the handlers results', () => {
    const cases: [string, HandlerDiscovery[], string, number, number, string, string][] = [
      ['nothing yet', [], 'Pending', 0, 0, 'Unknown', 'Unknown'],
      [
        'all up',
        [
          { handlerName: 'a', tools: [tool('a', 'x'), tool('a', 'y')] },
          { handlerName: 'b', tools: [tool('b', 'z')] },
        ],
        'Ready',
        3,
        3,
        'True',
        'True',
      ],
      [
        'one down',
        [
          { handlerName: 'a', tools: [tool('a', 'x')] },
          { handlerName: 'b', tools: [tool('b', 'z', 'Unavailable', 'ECONNREFUSED')] },
        ],
        'Degraded',
        2,
        1,
        'True',
        'False',
      ],
      [
        'all down',
        [
          { handlerName: 'a', tools: [tool('a', 'x', 'Unavailable', 'timeout')] },
          { handlerName: 'b', tools: [tool('b', 'z', 'Unknown', 'stdio off')] },
        ],
        'Failed',
        2,
        0,
        'False',
        'False',
      ],
      [
        'an mcp server with no tools',
        [{ handlerName: 'a', tools: [] }],
        'Ready',
        0,
        0,
        'True',
        'True',
      ],
    ];
    for (const [
      what,
      results,
      phase,
      discovered,
      available,
      handlersAvailable,
      allReady,
    ] of cases) {
      const status = registryStatus({ results, now, generation: 4 });
      assert.equal(status.phase, phase, what);
      assert.equal(status.discoveredToolsCount, discovered, what);
      assert.equal(status.availableToolsCount, available, what);
      assert.equal(status.observedGeneration, 4, what);
      assert.equal(condition(status, 'HandlersAvailable')?.status, handlersAvailable, what);
      assert.equal(condition(status, 'AllHandlersReady')?.status, allReady, what);
    }
  });

  it('writes conditions in the standard shape, naming what failed', () => {
    const status = registryStatus({
      results: [
        { handlerName: 'calc', tools: [tool('calc', 'add')] },
        {
          handlerName: 'search',
          tools: [tool('search', 'find', 'Unavailable', 'connect ECONNREFUSED 127.0.0.1:1')],
        },
      ],
      now,
      generation: 2,
    });
    assert.deepEqual(condition(status, 'AllHandlersReady'), {
      type: 'AllHandlersReady',
      status: 'False',
      reason: 'HandlersNotReady',
      message: '1 of 2 handlers ready; search: connect ECONNREFUSED 127.0.0.1:1',
      lastTransitionTime: now.toISOString(),
      observedGeneration: 2,
    });
    assert.deepEqual(condition(status, 'HandlersAvailable'), {
      type: 'HandlersAvailable',
      status: 'True',
      reason: 'HandlersAvailable',
      message: '1 of 2 handlers available',
      lastTransitionTime: now.toISOString(),
      observedGeneration: 2,
    });
    assert.equal(status.discoveredTools[1]?.error, 'connect ECONNREFUSED 127.0.0.1:1');
  });

  it('keeps lastTransitionTime while a condition status is unchanged', () => {
    const results: HandlerDiscovery[] = [{ handlerName: 'a', tools: [tool('a', 'x')] }];
    const first = registryStatus({ results, now });
    const again = registryStatus({ results, now: later, previousConditions: first.conditions });
    assert.deepEqual(again.conditions, first.conditions);
    const down = registryStatus({
      results: [{ handlerName: 'a', tools: [tool('a', 'x', 'Unavailable', 'gone')] }],
      now: later,
      previousConditions: first.conditions,
    });
    assert.equal(condition(down, 'AllHandlersReady')?.lastTransitionTime, later.toISOString());
  });

  it('reports a tool name offered by two handlers on the later one', () => {
    const status = registryStatus({
      results: [
        { handlerName: 'first', tools: [tool('first', 'search')] },
        { handlerName: 'second', tools: [tool('second', 'search'), tool('second', 'fetch')] },
      ],
      now,
    });
    assert.equal(status.discoveredTools[0]?.status, 'Available');
    assert.equal(status.discoveredTools[1]?.status, 'Unavailable');
    assert.match(
      status.discoveredTools[1]?.error ?? '',
      /duplicate tool name: tool search of handler second is already offered by handler first/,
    );
    assert.equal(status.phase, 'Degraded');
    assert.deepEqual(
      { ...condition(status, 'ToolNamesUnique'), lastTransitionTime: undefined },
      {
        type: 'ToolNamesUnique',
        status: 'False',
        reason: 'DuplicateToolNames',
        message: 'tool search of handler second is already offered by handler first',
        lastTransitionTime: undefined,
      },
    );
  });
});
