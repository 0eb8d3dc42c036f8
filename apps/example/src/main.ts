import { openMemory } from '@anamnesis/client';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $('status');

try {
  // The engine runs in a worker on OPFS; other tabs of this app share it.
  const memory = await openMemory({ name: 'example', persist: true });

  const showStats = async () => {
    const s = await memory.stats();
    status.textContent = `${s.memories} memories · ${s.backend} · ${memory.info.device} · ${memory.role} tab`;
  };

  $('remember').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = $<HTMLInputElement>('text');
    await memory.remember({ text: input.value });
    input.value = '';
    await showStats();
  });

  $('recall').addEventListener('submit', async (event) => {
    event.preventDefault();
    const hits = await memory.recall($<HTMLInputElement>('query').value, { topK: 5 });
    $('results').replaceChildren(
      ...hits.map((hit) => {
        const li = document.createElement('li');
        li.textContent = `${hit.text} (${hit.score.toFixed(3)})`;
        return li;
      }),
    );
  });

  await showStats();
  Object.assign(window, { memory }); // try `await memory.recall('…')` in the console
  document.body.dataset.ready = 'true';
} catch (error) {
  status.textContent = `could not open the memory: ${String(error)}`;
  document.body.dataset.ready = 'error';
}
