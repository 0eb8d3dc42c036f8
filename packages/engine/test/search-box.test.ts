/**
 * What people type into a search box (issue 38): a word still being typed, typos, codes and
 * versions, quoted phrases, a saved page's address, British spelling, negation, emoji, a query
 * about nothing stored, and a token budget that keeps relevance order. Texts of our own; the
 * default model and profile, as a new user gets them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, WEAK_MATCH, type Engine, type RememberInput } from '../src/index.ts';

const open: Engine[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

async function store(memories: (string | RememberInput)[]): Promise<Engine> {
  const engine = await createEngine({ storage: 'memory' });
  open.push(engine);
  await engine.rememberMany(memories.map((m) => (typeof m === 'string' ? { text: m } : m)));
  return engine;
}

/** The texts recall returns for a query, best first. */
async function texts(engine: Engine, query: string, options = {}): Promise<string[]> {
  return (await engine.recall(query, options)).map((r) => r.text);
}

describe('search as you type', () => {
  it('a word being typed finds the words it begins: "panc" puts the pancake note first', async () => {
    const engine = await store([
      'Pan-fried trout with lemon and butter',
      'Pancake batter: flour, eggs, milk',
      'Gym schedule for the week',
    ]);
    for (const typed of ['panc', 'panca', 'pancak', 'pancake'])
      expect((await texts(engine, typed, { typing: true }))[0], typed).toMatch(/^Pancake/);
    const [hit] = await engine.recall('panc', { typing: true, explain: true });
    expect(hit!.explain!.query).toEqual([
      expect.objectContaining({
        kind: 'word',
        text: 'panc',
        prefix: true,
        completions: ['pancake'],
      }),
    ]);
    // without `typing` a fragment is a whole word: nothing holds "panc"
    expect((await texts(engine, 'panc'))[0]).not.toMatch(/^Pancake/);
  });

  it('a word being typed with one typo in it still finds its word', async () => {
    const engine = await store(['Restaurant booking for Friday', 'Gym membership renewal']);
    expect((await texts(engine, 'restaurn', { typing: true }))[0]).toBe(
      'Restaurant booking for Friday',
    );
  });

  it('a letter dropped or doubled while typing shifts the rest, and the word is still found', async () => {
    const engine = await store([
      'Renew the passport before the trip to Japan',
      'Buy oat milk and bread',
      'Pass the salt',
    ]);
    // "pasport" begins "passport" with a letter dropped; "passsp" with one doubled
    for (const typed of ['pasport', 'paspo', 'passsp'])
      expect((await texts(engine, typed, { typing: true }))[0], typed).toMatch(/passport/);
  });

  it('stemmed words complete as written: "runni" finds "running" (the index holds "run")', async () => {
    const engine = await store(['I went running by the river', 'Rune stones in the museum']);
    expect((await texts(engine, 'runni', { typing: true }))[0]).toBe('I went running by the river');
  });
});

describe('typos', () => {
  const notes = [
    'Booked a table at the Italian restaurant for Friday',
    'Gym membership renewal is due',
    'Books to read this summer',
  ];

  it('a word no memory has is read as the closest word of the store', async () => {
    const engine = await store(notes);
    expect((await texts(engine, 'restaurnt'))[0]).toBe(notes[0]);
    expect((await texts(engine, 'restuarant booking'))[0]).toBe(notes[0]);
    const [hit] = await engine.recall('restaurnt', { explain: true });
    expect(hit!.explain!.query![0]).toMatchObject({ text: 'restaurnt', correction: 'restaurant' });
  });

  it('a word the store has, or a real word it lacks, is never corrected', async () => {
    const engine = await store([...notes, 'The bookcase is full']);
    const [books] = await engine.recall('books', { explain: true });
    expect(books!.explain!.query![0]!.correction).toBeUndefined();
    // "renewals" is matched through its stem; "mortgage" is a word, not a typo of anything
    for (const q of ['renewals', 'mortgage'])
      expect(
        (await engine.recall(q, { explain: true, minMatch: 0 }))[0]?.explain?.query?.[0],
      ).not.toHaveProperty('correction');
  });
});

describe('nothing stored, and how strong a match is', () => {
  const notes = [
    'I adopted a kitten named Luna',
    'The dentist moved my appointment to Friday',
    'Buy groceries: oat milk and coffee',
    'Running plan: 5k three times a week',
  ];

  it('a query about nothing stored returns nothing; a real match returns a strong result', async () => {
    const engine = await store(notes);
    expect(await engine.recall('mortgage refinancing options')).toEqual([]);
    const all = await engine.recall('mortgage refinancing options', { minMatch: 0 });
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((r) => r.weak === true && r.match < WEAK_MATCH)).toBe(true);
    const [hit] = await engine.recall('exercise plan', { explain: true });
    expect(hit!.text).toBe(notes[3]);
    expect(hit!.match).toBeGreaterThanOrEqual(WEAK_MATCH);
    expect(hit!.weak).toBeUndefined();
    expect(hit!.match).toBe(Math.max(hit!.explain!.match!.lexical, hit!.explain!.match!.meaning));
  });

  it('match is the share of the query a memory holds, rarer words weighing more', async () => {
    // made-up words: the model knows none of them, so no neighbour of one counts for another
    const engine = await store(['florp zindle', 'florp quaxo', 'florp brimt', 'zindle veszo']);
    const rs = await engine.recall('florp zindle', { minMatch: 0, explain: true });
    const lexical = (t: string) => rs.find((r) => r.text === t)!.explain!.match!.lexical;
    expect(lexical('florp zindle')).toBeCloseTo(1, 10);
    // zindle (2 of 4 memories) is rarer than florp (3 of 4): holding it is worth more
    expect(lexical('zindle veszo')).toBeGreaterThan(lexical('florp quaxo'));
    expect(lexical('zindle veszo') + lexical('florp quaxo')).toBeCloseTo(1, 10);
  });

  it("a memory holding the model's nearest word to a query word covers half of that word", async () => {
    const engine = await store(['The crash on the ring road', 'A quiet evening at home']);
    const [hit] = await engine.recall('accident', { explain: true });
    expect(hit!.text).toBe('The crash on the ring road');
    expect(hit!.explain!.match!.lexical).toBeCloseTo(0.5, 10);
  });

  it('rejects a minMatch outside [0, 1]', async () => {
    const engine = await store(notes);
    for (const minMatch of [-0.1, 1.5, Number.NaN])
      await expect(engine.recall('kitten', { minMatch })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
  });
});

describe('codes, numbers, phrases and addresses', () => {
  it('a ticket number or a version finds its memory first, not its neighbour', async () => {
    const engine = await store([
      'Support ticket 4520-0092 closed',
      'Support ticket 4521-0092 opened for the login bug',
      'Upgrade node 18.18.1 on the server',
      'Upgrade node 18.19.1 on the laptop',
    ]);
    expect((await texts(engine, 'ticket 4521-0092'))[0]).toMatch(/4521-0092/);
    expect((await texts(engine, 'node 18.19.1'))[0]).toMatch(/18\.19\.1/);
    const [hit] = await engine.recall('node 18.19.1', { explain: true });
    expect(hit!.explain!.query!.map((q) => q.kind)).toContain('code');
  });

  it('a number and letters written together or apart find each other ("5km", "5 km")', async () => {
    const engine = await store(['Run 5 km on Sunday', 'Flight BA2490 to Lisbon', 'Gym at noon']);
    expect((await texts(engine, '5km'))[0]).toBe('Run 5 km on Sunday');
    expect((await texts(engine, '5km', { typing: true }))[0]).toBe('Run 5 km on Sunday');
    expect((await texts(engine, 'ba 2490'))[0]).toBe('Flight BA2490 to Lisbon');
  });

  it('two words typed apart that the store holds as one find it ("note book" → "notebook")', async () => {
    const engine = await store([
      'Buy a new notebook for school',
      'Covid booster on 3 March',
      'Note to self: water the plants',
    ]);
    for (const typed of ['note book', 'new note book']) {
      const [best] = await engine.recall(typed, { typing: true });
      expect(best?.text, typed).toBe('Buy a new notebook for school');
      expect(best!.match, typed).toBeCloseTo(1, 6);
    }
    // still typing the second word: the notebook holds the whole query (meaning may rank the
    // note first in a store of three)
    const typing = await engine.recall('note boo', { typing: true });
    const notebook = typing.find((r) => r.text === 'Buy a new notebook for school');
    expect(notebook?.match).toBeCloseTo(1, 6);
    // words apart in the query are not joined ("note the book" asks for a note and a book)
    const [apart] = await engine.recall('book note', { explain: true });
    expect(apart!.explain!.query!.length).toBe(2);
    expect((await engine.recall('book note'))[0]?.match ?? 0).toBeLessThan(1);
  });

  it('quoted words are a phrase: the memory with the phrase comes before one with the words apart', async () => {
    const engine = await store([
      'A bug in the search: the login form is fine though, and a long note about other things too',
      'Login bug',
    ]);
    const longFirst = await texts(engine, 'login bug');
    const [hit] = await engine.recall('"bug in the search"', { explain: true });
    expect(hit!.text).toMatch(/^A bug in the search/);
    expect(hit!.explain!.query).toEqual([
      expect.objectContaining({ kind: 'phrase', words: ['bug', 'in', 'the', 'search'] }),
    ]);
    expect(longFirst).toHaveLength(2);
  });

  it("a saved page is found by its address's domain, and by the pasted address", async () => {
    const engine = await store([
      {
        text: 'Solar eclipse - Wikipedia\nA solar eclipse occurs when the Moon passes between the Earth and the Sun.',
        meta: { url: 'https://en.wikipedia.org/wiki/Solar_eclipse' },
      },
      {
        text: 'Total solar eclipse of 2026\nThe path of totality crosses Greenland, Iceland and Spain.',
        meta: { url: 'https://science.nasa.gov/eclipses/future-eclipses/eclipse-2026-08-12/' },
      },
      {
        text: 'City council approves new cycle lanes\nWork starts in the spring.',
        meta: { url: 'https://example-news.com/a/8f3k2q9z' },
      },
    ]);
    expect((await texts(engine, 'nasa eclipse'))[0]).toMatch(/^Total solar eclipse/);
    expect((await texts(engine, 'https://example-news.com/a/8f3k2q9z'))[0]).toMatch(
      /^City council/,
    );
    // an address's words come from meta.url: updating it moves the page
    const [page] = await engine.recall('nasa eclipse');
    await engine.update(page!.id, { meta: { url: 'https://example.org/eclipse' } });
    expect((await texts(engine, 'nasa eclipse'))[0]).not.toMatch(/^Total solar eclipse/);
  });

  it('numbers carry no weight in the model legs: the ticket with the number wins over a closer text', async () => {
    const engine = await store([
      'Ticket 7731: the export button does nothing',
      'Ticket about the export button that does nothing at all when clicked twice',
    ]);
    expect((await texts(engine, 'ticket 7731'))[0]).toMatch(/^Ticket 7731/);
    // the model reads "ticket" alone, so its legs weigh half of what they weigh for a query of words
    const [hit] = await engine.recall('ticket 7731', { explain: true });
    const vector = hit!.explain!.contributions.find((c) => c.component === 'rrf:vector')!;
    expect(vector.weight).toBeCloseTo(0.35, 10);
    const [words] = await engine.recall('ticket export', { explain: true });
    expect(words!.explain!.contributions.find((c) => c.component === 'rrf:vector')!.weight).toBe(
      0.7,
    );
  });
});

describe('spelling, negation and emoji', () => {
  it('British and American spellings find each other', async () => {
    const engine = await store([
      'Colour palette for the website: teal and sand',
      'Color printer needs new toner',
      'Organise the garden shed',
    ]);
    expect((await texts(engine, 'color palette for the site'))[0]).toMatch(/^Colour palette/);
    expect((await texts(engine, 'organize shed'))[0]).toMatch(/^Organise/);
    expect((await texts(engine, 'colour printer'))[0]).toMatch(/^Color printer/);
  });

  it('a negator and the word after it are one slot: the lexical leg ranks the memory with the negation first', async () => {
    const engine = await store([
      'Plant roses by the fence',
      'Do not plant roses by the fence, the soil is too wet',
      'Ferns grow well in wet soil',
    ]);
    const rs = await engine.recall("don't plant roses", { explain: true });
    expect(rs[0]!.explain!.query!.map((q) => [q.kind, q.text, q.words])).toEqual([
      ['negation', 'not plant', ['plant']],
      ['word', 'roses', ['roses']],
    ]);
    const lexicalFirst = rs.find((r) =>
      r.explain!.legs.some((l) => l.leg === 'fts' && l.rank === 1),
    );
    expect(lexicalFirst!.text).toMatch(/^Do not plant/);
    expect(rs.findIndex((r) => r.text.startsWith('Do not'))).toBeLessThan(2);
  });

  it('an emoji is found by itself and by its name', async () => {
    const engine = await store([
      "Party tonight 🎉 at Sam's",
      'Quiet evening at home',
      'Wedding 💍 in June',
    ]);
    expect(await texts(engine, '🎉')).toEqual(["Party tonight 🎉 at Sam's"]);
    expect((await texts(engine, 'ring'))[0]).toBe('Wedding 💍 in June');
  });
});

describe('token budget', () => {
  it('what fits the budget comes back in relevance order, not value per token', async () => {
    const engine = await store([
      'Passport renewal appointment at the passport office on Tuesday at 9:40; bring the old passport, two photos and the printed confirmation',
      'Passport photo booth is next to the pharmacy',
      'Dentist on Friday',
    ]);
    const all = await texts(engine, 'passport renewal appointment');
    const budgeted = await texts(engine, 'passport renewal appointment', { tokenBudget: 60 });
    expect(budgeted.length).toBeGreaterThan(1);
    expect(budgeted).toEqual(all.filter((t) => budgeted.includes(t)));
    expect(budgeted[0]).toMatch(/^Passport renewal/);
  });
});
