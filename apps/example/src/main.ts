import { connectMemory, isAnamnesisError } from '@anamnesis/client';

const $ = (id: string): HTMLElement => document.getElementById(id)!;
const field = (id: string) => $(id) as HTMLInputElement;
const status = $('status');

// The engine runs in a worker on OPFS; other tabs of this app share it. The forms work at once:
// what is submitted before the store is open waits for it, in order.
const memory = connectMemory({ name: 'example', persist: true });
Object.assign(window, { memory }); // try `await memory.recall('…')` in the console

const explain = (error: unknown) => (isAnamnesisError(error) ? error.message : String(error));

const showStats = async () => {
  const s = await memory.stats();
  status.textContent = `${s.memories} memories · ${s.backend} · ${memory.info.device} · ${memory.role} tab`;
};

$('remember').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = field('text');
  const text = input.value;
  memory.remember({ text }).then(
    async () => {
      if (input.value === text) input.value = ''; // kept if the person typed on meanwhile
      await showStats();
    },
    (error: unknown) => {
      status.textContent = `not remembered: ${explain(error)}`;
    },
  );
});

$('recall').addEventListener('submit', (event) => {
  event.preventDefault();
  memory.recall(field('query').value, { topK: 5 }).then(
    (hits) =>
      $('results').replaceChildren(
        ...hits.map((hit) => {
          const li = document.createElement('li');
          li.textContent = `${hit.text} (${hit.score.toFixed(3)})`;
          return li;
        }),
      ),
    (error: unknown) => {
      status.textContent = `search failed: ${explain(error)}`;
    },
  );
});

// Taken from now on: calls made before the store is open wait for it, in order.
for (const control of document.querySelectorAll('form input, form button'))
  (control as HTMLInputElement).disabled = false;

memory.ready.then(
  async () => {
    await showStats();
    document.body.dataset.ready = 'true';
  },
  (error: unknown) => {
    status.textContent = `could not open the memory: ${explain(error)}`;
    document.body.dataset.ready = 'error';
  },
);
