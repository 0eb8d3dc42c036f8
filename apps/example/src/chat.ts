/**
 * A chat-shaped page on `@anamnesis/langchain`: every message is remembered, and the reply to the
 * next one is generated from a prompt holding the earlier messages that recall finds closest to it.
 * The "model" is LangChain's FakeChatModel, an echo (named as such on the page): offline, no LLM.
 */
import { isAnamnesisError, openMemory, type MemoryClient } from '@anamnesis/client';
import { AnamnesisRetriever } from '@anamnesis/langchain';
import type { DocumentInterface } from '@langchain/core/documents';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnablePassthrough, RunnableSequence } from '@langchain/core/runnables';
import { FakeChatModel } from '@langchain/core/utils/testing';

const $ = (id: string): HTMLElement => document.getElementById(id)!;
const field = (id: string) => $(id) as HTMLInputElement;
const status = $('status');
const transcript = $('transcript');

// The engine runs in a worker on OPFS. A chat recalls by meaning, so it opens with the model
// (`openMemory`); messages sent before then wait for it.
const opening = openMemory({ name: 'example-chat', persist: true });

/** recall → prompt → the echo "model" → text, over `memory`. */
const chainOver = (memory: MemoryClient) =>
  RunnableSequence.from([
    {
      context: new AnamnesisRetriever({ memory, k: 3, filter: { kind: 'message' } }).pipe(
        (docs: DocumentInterface[]) =>
          docs.length === 0
            ? '(nothing recalled yet)'
            : docs.map((d) => `- ${d.pageContent}`).join('\n'),
      ),
      message: new RunnablePassthrough(),
    },
    ChatPromptTemplate.fromMessages([
      ['system', 'Earlier messages recalled for this one:\n{context}'],
      ['human', '{message}'],
    ]),
    new FakeChatModel({}), // an echo standing in for a chat model: it replies with its prompt
    new StringOutputParser(),
  ]);
const chain = opening.then(chainOver);
chain.catch(() => undefined); // each message says why

const explain = (error: unknown) => (isAnamnesisError(error) ? error.message : String(error));

function say(className: string, text: string): HTMLLIElement {
  const li = document.createElement('li');
  li.className = className;
  li.textContent = text;
  transcript.append(li);
  return li;
}

// One message at a time, in the order sent: recall (earlier messages only), reply, remember.
let turns: Promise<void> = Promise.resolve();

$('send').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = field('message');
  const text = input.value.trim();
  input.value = '';
  if (!text) return;
  say('user', text);
  const reply = say('reply pending', '…');
  turns = turns.then(async () => {
    try {
      const memory = await opening;
      reply.textContent = await (await chain).invoke(text);
      await memory.remember({ text, kind: 'message', session: 'chat' });
      status.textContent = `${(await memory.stats()).memories} messages remembered`;
    } catch (error) {
      reply.textContent = `failed: ${explain(error)}`;
    }
    reply.classList.remove('pending');
  });
});
// Messages are taken from now on (they wait for the store and the model in order).
for (const control of $('send').querySelectorAll('input, button'))
  (control as HTMLInputElement).disabled = false;

opening.then(
  async (memory) => {
    status.textContent = `${(await memory.stats()).memories} messages remembered`;
    document.body.dataset.ready = 'true';
  },
  (error: unknown) => {
    status.textContent = `could not open the memory: ${explain(error)}`;
    document.body.dataset.ready = 'error';
  },
);
