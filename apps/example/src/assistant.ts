/**
 * A chat whose memory stays current, on `@anamnesis/langchain`'s `AnamnesisChatMemory`: before
 * each reply `augment` puts the memory block of the message into the prompt (current facts only:
 * a fact the person has since changed is left out unless they ask about the past), and after it
 * `learn` stores the durable facts the person stated (a newer one superseding the older). The
 * "model" is LangChain's FakeChatModel, an echo (named as such on the page): offline, no LLM, so
 * the reply shows exactly the prompt it was given.
 *
 * Beside the chat, the memory panel: every memory, with Pin (never decays, always a candidate),
 * Edit, Forget and History (the chain of facts it replaced or that replaced it).
 */
import { isAnamnesisError, openMemory, type Memory, type MemoryClient } from '@anamnesis/client';
import { AnamnesisChatMemory } from '@anamnesis/langchain';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { FakeChatModel } from '@langchain/core/utils/testing';

const $ = (id: string): HTMLElement => document.getElementById(id)!;
const status = $('status');
const transcript = $('transcript');
const panel = $('memories');

const opening = openMemory({ name: 'example-assistant', persist: true });
const explain = (error: unknown) => (isAnamnesisError(error) ? error.message : String(error));

/** The prompt: the memory block (data, in a human message), then the message. */
const prompt = ChatPromptTemplate.fromMessages([
  ['human', '{memory}'],
  ['human', '{message}'],
]);
const echo = prompt.pipe(new FakeChatModel({})).pipe(new StringOutputParser());

/** An element with text (never HTML: a memory's text is data). */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text = '',
  className = '',
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text) e.textContent = text;
  if (className) e.className = className;
  return e;
}

function button(label: string, onClick: () => Promise<void>): HTMLButtonElement {
  const b = el('button', label);
  b.type = 'button';
  b.addEventListener('click', () => {
    onClick().then(renderPanel, (error: unknown) => {
      status.textContent = `failed: ${explain(error)}`;
    });
  });
  return b;
}

/** The History of a memory, shown under it: oldest first, each with what replaced it. */
async function showHistory(memory: MemoryClient, m: Memory, where: HTMLElement): Promise<void> {
  const chain = await memory.history(m.id);
  const list = el('ol', '', 'history');
  for (const entry of chain) {
    const by = entry.supersededBy
      ? ` (replaced on ${new Date(entry.supersededBy.at).toISOString().slice(0, 10)})`
      : ' (current)';
    list.append(el('li', `${entry.text}${by}`));
  }
  where.querySelector('ol.history')?.remove();
  where.append(list);
}

/** Lists every memory with its actions (the newest first). */
async function renderPanel(): Promise<void> {
  const memory = await opening;
  const all = await memory.list({ limit: 200 });
  panel.replaceChildren();
  for (const m of all) {
    const item = el('li', '', m.pinned ? 'pinned' : '');
    item.dataset.id = m.id;
    const text = el('span', m.text, 'text');
    item.append(text, m.pinned ? el('span', ' (pinned)', 'badge') : '');
    const actions = el('span', '', 'actions');
    actions.append(
      button(m.pinned ? 'Unpin' : 'Pin', async () => {
        await memory.pin(m.id, !m.pinned);
      }),
      button('Forget', async () => {
        await memory.forget(m.id);
      }),
    );
    // Edit turns the text into a field and the actions into Save (nothing is written until Save)
    const edit = el('button', 'Edit');
    edit.type = 'button';
    edit.addEventListener('click', () => {
      const input = el('input');
      input.value = m.text;
      input.setAttribute('aria-label', 'Memory text');
      input.autocomplete = 'off';
      text.replaceWith(input);
      actions.replaceChildren(
        button('Save', async () => {
          await memory.update(m.id, { text: input.value });
        }),
      );
      input.focus();
    });
    actions.append(edit);
    const history = el('button', 'History');
    history.type = 'button';
    history.addEventListener('click', () => {
      showHistory(memory, m, item).catch((error: unknown) => {
        status.textContent = `failed: ${explain(error)}`;
      });
    });
    actions.append(history);
    item.append(actions);
    panel.append(item);
  }
  status.textContent = `${all.length} memories`;
}

const chatMemory = opening.then(
  (memory) =>
    new AnamnesisChatMemory(memory, {
      conversation: 'example-assistant',
      onError: (error) => (status.textContent = `learn failed: ${explain(error)}`),
    }),
);
chatMemory.catch(() => undefined); // each message says why

// One message at a time, in the order sent: augment, reply, learn.
let turns: Promise<void> = Promise.resolve();
$('send').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('message') as HTMLInputElement;
  const text = input.value.trim();
  input.value = '';
  if (!text) return;
  transcript.append(el('li', text, 'user'));
  const reply = el('li', '…', 'reply pending');
  transcript.append(reply);
  turns = turns.then(async () => {
    try {
      const loop = await chatMemory;
      const { memory: block } = await loop.loadMemoryVariables({ input: text });
      const answer = await echo.invoke({ memory: block || '(no memory used)', message: text });
      reply.textContent = answer;
      await loop.saveContext({ input: text }, { output: answer });
      const learned = loop.lastLearn;
      if (learned && learned.stored.length > 0) {
        const note = el('div', '', 'learned');
        note.textContent = learned.stored
          .map((f) => {
            const replaced = learned.updated.find((u) => u.id === f.id);
            return replaced
              ? `remembered: ${f.text} (replaces an older fact)`
              : `remembered: ${f.text}`;
          })
          .join('\n');
        reply.append(note);
      }
      await renderPanel();
    } catch (error) {
      reply.textContent = `failed: ${explain(error)}`;
    }
    reply.classList.remove('pending');
  });
});
for (const control of $('send').querySelectorAll('input, button'))
  (control as HTMLInputElement).disabled = false;

opening.then(
  async () => {
    await renderPanel();
    document.body.dataset.ready = 'true';
  },
  (error: unknown) => {
    status.textContent = `could not open the memory: ${explain(error)}`;
    document.body.dataset.ready = 'error';
  },
);
