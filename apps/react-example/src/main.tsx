/**
 * The React example: `MemoryProvider` opens the store once (StrictMode included), a form
 * remembers a text (`useRemember`), and a search box lists what matches as you type
 * (`useRecall`: debounced, and live: a text remembered here or in another tab shows at once).
 */
import { MemoryProvider, useMemory, useRecall, useRemember } from '@anamnesis/react';
import { StrictMode, useState, type SubmitEvent } from 'react';
import { createRoot } from 'react-dom/client';

function Remember() {
  const { remember, pending, error } = useRemember();
  const [text, setText] = useState('');
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    remember({ text }).then(
      () => setText(''),
      () => undefined, // shown through `error`
    );
  };
  return (
    <form onSubmit={submit}>
      <input
        aria-label="remember"
        placeholder="something to remember"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <button disabled={pending}>{pending ? 'Remembering…' : 'Remember'}</button>
      {error && <p role="alert">{error.code}</p>}
    </form>
  );
}

function Search() {
  const [query, setQuery] = useState('');
  const { results, pending, error, partial } = useRecall(query, { topK: 5 });
  return (
    <section>
      <input
        aria-label="search"
        type="search"
        placeholder="what are you looking for?"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <p id="search-state">
        {pending ? 'searching…' : `${results.length} found`}
        {partial ? ' (by words only: the model is loading)' : ''}
        {error ? ` ${error.code}` : ''}
      </p>
      <ol id="results">
        {results.map((r) => (
          <li key={r.id}>{r.text}</li>
        ))}
      </ol>
    </section>
  );
}

function Status() {
  const memory = useMemory();
  return <p id="status">{memory ? `store ${memory.name}` : 'opening…'}</p>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MemoryProvider options={{ name: 'react-example' }}>
      <h1>anamnesis</h1>
      <Status />
      <Remember />
      <Search />
    </MemoryProvider>
  </StrictMode>,
);
