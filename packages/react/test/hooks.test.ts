// @vitest-environment happy-dom
/**
 * The provider and hooks in Node with React Testing Library, against the real client and engine
 * in simulated tabs (`env.ts`): one open under StrictMode, a debounced live recall as a person
 * types, a result list that follows another tab's write, `useRemember`'s pending and error state.
 */
import type { MemoryClient, RecallOptions, RememberInput } from '@anamnesis/client';
import {
  act,
  cleanup,
  configure,
  render,
  renderHook,
  screen,
  waitFor,
} from '@testing-library/react';
import { createElement, StrictMode, useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';

import { MemoryProvider, useMemory, useRecall, useRemember } from '../src/index.ts';
import {
  cleanUp,
  connectIn,
  countingRecalls,
  LockRegistry,
  newTab,
  openIn,
  sleep,
  storeOptions,
  until,
} from './env.ts';

// waitFor gives up after 1 s by default; the debounce test's debounce alone is 1 s, and CI's two
// loaded cores once stretched a recall past it
configure({ asyncUtilTimeout: 10_000 });

afterEach(async () => {
  cleanup();
  await cleanUp();
});

/** Shows a recall's state as text: `pending error partial | text; text`. */
function Search(props: { query: string; options?: RecallOptions; debounceMs?: number }): ReactNode {
  const { results, pending, error } = useRecall(
    props.query,
    props.options,
    props.debounceMs === undefined ? {} : { debounceMs: props.debounceMs },
  );
  return createElement(
    'output',
    { 'data-testid': 'search', 'data-pending': String(pending) },
    `${error ? `error ${error.code}` : ''}|${results.map((r) => r.text).join('; ')}`,
  );
}

function Name(): ReactNode {
  const memory = useMemory();
  return createElement('p', { 'data-testid': 'name' }, memory ? memory.name : 'none');
}

/**
 * `base` whose `remember` calls wait until the test releases each (in any order), then run on the
 * real store: the test decides which of two calls is still in flight.
 */
function holdingRemembers(base: MemoryClient): {
  memory: MemoryClient;
  held: { input: RememberInput; release: () => void }[];
} {
  const held: { input: RememberInput; release: () => void }[] = [];
  const memory = Object.create(base, {
    remember: {
      value: ((input) =>
        new Promise<string>((resolve, reject) =>
          held.push({ input, release: () => void base.remember(input).then(resolve, reject) }),
        )) satisfies MemoryClient['remember'],
    },
  }) as MemoryClient;
  return { memory, held };
}

const searchText = () => screen.getByTestId('search').textContent ?? '';
const searchPending = () => screen.getByTestId('search').getAttribute('data-pending');

describe('MemoryProvider', () => {
  it('opens the store once under StrictMode (one connect, one worker), and closes it on unmount', async () => {
    const registry = new LockRegistry();
    const tab = newTab(registry);
    const { connect, opened } = connectIn(tab);
    const options = await storeOptions('strict');
    const view = render(
      createElement(
        StrictMode,
        null,
        createElement(
          MemoryProvider,
          { options, connect },
          createElement(Name),
          createElement(Search, { query: 'boiler', debounceMs: 0 }),
        ),
      ),
    );
    await waitFor(() => expect(screen.getByTestId('name').textContent).toBe('strict'));
    // StrictMode's unmount and remount of effects kept the first client: no second open, and
    // the close its unmount deferred (a 0 ms timer, set before this one fires) was cancelled.
    await act(() => sleep(0));
    expect(opened).toHaveLength(1);
    expect(tab.workers).toHaveLength(1);
    const memory = opened[0]!;
    await memory.ready;
    expect(memory.state).toBe('ready');
    // The hooks work under StrictMode too (its effects' second run set up a live recall again).
    await memory.remember({ text: 'the boiler service is booked for March' });
    await waitFor(() => expect(searchText()).toBe('|the boiler service is booked for March'));
    view.unmount();
    await until(() => memory.state === 'closed');
  });

  it('shares a client the app made and never closes it', async () => {
    const registry = new LockRegistry();
    const memory = await openIn(newTab(registry), await storeOptions('given'));
    const view = render(createElement(MemoryProvider, { memory }, createElement(Name)));
    expect(screen.getByTestId('name').textContent).toBe('given');
    view.unmount();
    await act(() => sleep(0)); // after any close an unmount defers (a 0 ms timer)
    expect(memory.state).toBe('ready');
  });

  it('useMemory outside a provider throws INVALID_INPUT', () => {
    const error = console.error;
    console.error = () => undefined; // React reports the render error too
    try {
      expect(() => renderHook(() => useMemory())).toThrow(
        expect.objectContaining({ name: 'AnamnesisError', code: 'INVALID_INPUT' }),
      );
    } finally {
      console.error = error;
    }
  });
});

describe('useRecall', () => {
  /** Types `word` one letter every `gapMs`, re-rendering `<Search>` with each prefix. */
  async function typeInto(
    memory: MemoryClient,
    word: string,
    debounceMs: number,
    gapMs: number,
  ): Promise<ReturnType<typeof render>> {
    const view = render(
      createElement(MemoryProvider, { memory }, createElement(Search, { query: '', debounceMs })),
    );
    expect(searchText()).toBe('|');
    for (let i = 1; i <= word.length; i++) {
      view.rerender(
        createElement(
          MemoryProvider,
          { memory },
          createElement(Search, { query: word.slice(0, i), debounceMs, options: { topK: 3 } }),
        ),
      );
      expect(searchPending()).toBe('true');
      await act(() => sleep(gapMs));
    }
    return view;
  }
  /** `<Search>` of `query` as `typeInto` renders it (a new inline options object each time). */
  const typed = (memory: MemoryClient, query: string, debounceMs: number) =>
    createElement(
      MemoryProvider,
      { memory },
      createElement(Search, { query, debounceMs, options: { topK: 3 } }),
    );

  it('debounces typing: five quick keystrokes make one recall, of the last text', async () => {
    const registry = new LockRegistry();
    const base = await openIn(newTab(registry), await storeOptions('debounce'));
    await base.remember({ text: 'renew the passport before the trip' });
    await base.remember({ text: 'the boiler service is booked for March' });
    const { memory, recalled } = countingRecalls(base);
    // keystrokes back to back under a long debounce: a loaded machine (CI's two cores) once
    // stretched 20 ms gaps past a 150 ms debounce, and 'pas' was recalled on its own
    const view = await typeInto(memory, 'passp', 1000, 0);
    await waitFor(() => expect(searchPending()).toBe('false'));
    expect(searchText()).toMatch(/^\|renew the passport before the trip/);
    expect(recalled).toEqual(['passp']);
    // An inline options object equal by value does not start another recall: a render with a new
    // one would start it at once (no debounce for the same query), within this act.
    act(() => view.rerender(typed(memory, 'passp', 150)));
    expect(recalled).toEqual(['passp']);
    // and none was started meanwhile: the next recall is the next query's
    view.rerender(typed(memory, 'passpo', 150));
    await waitFor(() => expect(searchPending()).toBe('false'));
    expect(recalled).toEqual(['passp', 'passpo']);
  });

  it('recalls what is typed as typing: the word being typed finds the words it begins', async () => {
    const registry = new LockRegistry();
    const memory = await openIn(newTab(registry), await storeOptions('typing'));
    await memory.remember({ text: 'Pan-fried trout with lemon' });
    await memory.remember({ text: 'Pancake batter: flour, eggs, milk' });
    const show = (options?: RecallOptions) =>
      createElement(
        MemoryProvider,
        { memory },
        createElement(Search, { query: 'panc', debounceMs: 0, ...(options ? { options } : {}) }),
      );
    const view = render(show());
    await waitFor(() => expect(searchText()).toMatch(/^\|Pancake batter/));
    // an app may say otherwise: then "panc" is a whole word, which no memory holds
    view.rerender(show({ typing: false }));
    await waitFor(() => expect(searchText()).toMatch(/^\|Pan-fried trout/));
  });

  it('keeps Dates in options: filter.after as a Date works as in memory.recall (issue 41)', async () => {
    const registry = new LockRegistry();
    const base = await openIn(newTab(registry), await storeOptions('dates'));
    await base.rememberMany([
      { text: 'booked the ferry to the island', createdAt: Date.UTC(2025, 0, 10) },
      { text: 'the ferry was late again', createdAt: Date.UTC(2025, 5, 10) },
    ]);
    const { memory, recalled } = countingRecalls(base);
    const show = (after: Date) =>
      createElement(
        MemoryProvider,
        { memory },
        // a new options object, and a new Date, at each render
        createElement(Search, { query: 'ferry', debounceMs: 0, options: { filter: { after } } }),
      );
    const view = render(show(new Date(Date.UTC(2025, 2, 1))));
    await waitFor(() => expect(searchPending()).toBe('false'));
    expect(searchText()).toBe('|the ferry was late again');
    const before = recalled.length;
    // an equal Date in a new object starts no recall (a render that did would start it within
    // this act: the query is the same, no debounce); another Date does, and only that one
    act(() => view.rerender(show(new Date(Date.UTC(2025, 2, 1)))));
    expect(recalled).toHaveLength(before);
    view.rerender(show(new Date(Date.UTC(2024, 11, 1))));
    await waitFor(() => expect(searchText()).toMatch(/^\|.*; /));
    expect(searchText()).not.toContain('error');
    expect(recalled).toHaveLength(before + 1);
  });

  it('without a debounce the same typing recalls more than once (what the debounce saves)', async () => {
    const registry = new LockRegistry();
    const base = await openIn(newTab(registry), await storeOptions('no-debounce'));
    await base.remember({ text: 'renew the passport before the trip' });
    const { memory, recalled } = countingRecalls(base);
    await typeInto(memory, 'passp', 0, 40);
    await waitFor(() => expect(searchPending()).toBe('false'));
    expect(searchText()).toBe('|renew the passport before the trip');
    expect(recalled.length).toBeGreaterThanOrEqual(3);
    expect(recalled.at(-1)).toBe('passp');
  });

  it('a blank query gives [] without a recall', async () => {
    const registry = new LockRegistry();
    const base = await openIn(newTab(registry), await storeOptions('blank'));
    const { memory, recalled } = countingRecalls(base);
    const search = (query: string) =>
      createElement(MemoryProvider, { memory }, createElement(Search, { query }));
    // a first query is recalled at once, within render's act: none was
    const view = render(search('   '));
    expect(searchText()).toBe('|');
    expect(searchPending()).toBe('false');
    expect(recalled).toEqual([]);
    // and none later: the next recall is the next query's
    view.rerender(search('passport'));
    await waitFor(() => expect(searchPending()).toBe('false'));
    expect(recalled).toEqual(['passport']);
  });

  it("follows the store: another tab's remember shows in the list", async () => {
    const registry = new LockRegistry();
    const [a, b] = [newTab(registry), newTab(registry)];
    const options = await storeOptions('two-tabs');
    const { connect, opened } = connectIn(a);
    render(
      createElement(
        MemoryProvider,
        { options, connect },
        createElement(Search, { query: 'boiler service' }),
      ),
    );
    await waitFor(() => expect(searchPending()).toBe('false'));
    expect(searchText()).toBe('|');
    await opened[0]!.ready;
    const other = await openIn(b, options);
    expect(other.role).toBe('follower');
    await other.remember({ text: 'the boiler service is booked for March' });
    await waitFor(() => expect(searchText()).toBe('|the boiler service is booked for March'));
  });
});

describe('useRemember', () => {
  it('counts calls in flight as pending, keeps the last failure (with its code) until reset', async () => {
    const registry = new LockRegistry();
    const base = await openIn(newTab(registry), await storeOptions('remember'));
    const { memory, held } = holdingRemembers(base);
    const wrapper = ({ children }: { children?: ReactNode }) =>
      createElement(MemoryProvider, { memory }, children);
    const { result } = renderHook(() => useRemember(), { wrapper });
    expect(result.current.pending).toBe(false);
    let calls: Promise<string>[] = [];
    act(() => {
      calls = [
        result.current.remember({ text: 'buy oat milk' }),
        result.current.remember({ text: 'call the plumber on Monday' }),
      ];
    });
    expect(result.current.pending).toBe(true);
    expect(held).toHaveLength(2);
    // the second call settles first: the first is still in flight, so pending stays
    await act(async () => {
      held[1]!.release();
      await calls[1];
    });
    expect(result.current.pending).toBe(true);
    // a failure while the other call is in flight: kept, and pending still counts the other
    let failure: unknown;
    act(() => {
      calls.push(result.current.remember({ text: '   ' }));
    });
    await act(async () => {
      held[2]!.release();
      await calls[2]!.catch((e: unknown) => (failure = e));
    });
    expect(failure).toMatchObject({ name: 'AnamnesisError', code: 'INVALID_INPUT' });
    expect(result.current.error).toBe(failure);
    expect(result.current.pending).toBe(true);
    await act(async () => {
      held[0]!.release();
      await calls[0];
    });
    expect(result.current.pending).toBe(false);
    const ids = await Promise.all(calls.slice(0, 2));
    expect(new Set(ids).size).toBe(2);
    expect((await base.stats()).memories).toBe(2);

    // a later success does not clear the failure; reset does
    act(() => {
      calls.push(result.current.remember({ text: 'water the plants' }));
    });
    await act(async () => {
      held[3]!.release();
      await calls[3];
    });
    expect(result.current.pending).toBe(false);
    expect(result.current.error?.code).toBe('INVALID_INPUT');
    act(() => result.current.reset());
    expect(result.current.error).toBeUndefined();
  });

  it('a remember wired to a form: the list updates after the remember resolves', async () => {
    const registry = new LockRegistry();
    const memory = await openIn(newTab(registry), await storeOptions('form'));
    function App(): ReactNode {
      const [query] = useState('plumber');
      const { remember, pending } = useRemember();
      return createElement(
        'div',
        null,
        createElement(
          'button',
          { onClick: () => void remember({ text: 'call the plumber on Monday' }) },
          pending ? 'saving' : 'save',
        ),
        createElement(Search, { query }),
      );
    }
    render(createElement(MemoryProvider, { memory }, createElement(App)));
    await waitFor(() => expect(searchPending()).toBe('false'));
    act(() => screen.getByRole('button').click());
    expect(screen.getByRole('button').textContent).toBe('saving');
    await waitFor(() => expect(searchText()).toBe('|call the plumber on Monday'));
    expect(screen.getByRole('button').textContent).toBe('save');
  });
});
