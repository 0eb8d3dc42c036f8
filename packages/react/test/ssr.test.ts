/**
 * Server rendering (Node, no DOM, no `Worker`): `renderToString` opens nothing and the hooks give
 * their idle state.
 */
import type { MemoryClient } from '@anamnesis/client';
import { createElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import { MemoryProvider, useMemory, useRecall, useRemember } from '../src/index.ts';

function Page(): ReactNode {
  const memory = useMemory();
  const { results, pending, error } = useRecall('boiler service');
  const { pending: saving } = useRemember();
  return createElement(
    'p',
    null,
    `memory:${memory ? 'yes' : 'no'} results:${results.length} pending:${pending} saving:${saving} error:${error ? 'yes' : 'no'}`,
  );
}

describe('server rendering', () => {
  it('renderToString opens no store and shows the idle state', () => {
    expect(typeof Worker).toBe('undefined');
    let connects = 0;
    const connect = (): MemoryClient => {
      connects++;
      throw new Error('opened on the server');
    };
    for (const props of [{ options: { name: 'ssr' } }, { options: { name: 'ssr' }, connect }]) {
      const html = renderToString(createElement(MemoryProvider, props, createElement(Page)));
      expect(html).toBe('<p>memory:no results:0 pending:false saving:false error:no</p>');
    }
    expect(connects).toBe(0);
  });
});
