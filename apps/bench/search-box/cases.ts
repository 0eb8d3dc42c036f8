// The search-box suite's queries, one kind per group (written for this suite, 2026-11-28, before
// any run). `targets`: the memories that answer (empty: nothing stored answers it). `typing`: the
// query is still being typed. Every third case of each kind is held out (fixed here, never tuned).
const kinds: Record<string, [query: string, targets: string[]][]> = {
  prefix: [
    ['panc', ['cook-pancake']],
    ['panna', ['cook-panna']],
    ['sourd', ['cook-sourdough']],
    ['physi', ['health-physio']],
    ['boil', ['home-boiler']],
    ['recyc', ['home-recycling']],
    ['veterin', ['pet-vet']],
    ['insur', ['home-insurance']],
    ['lisb', ['travel-lisbon']],
    ['eclipse gla', ['web-eclipse-glasses']],
    ['cornw', ['chat-1', 'chat-2']],
    ['orchest', ['chat-6', 'chat-7']],
    ['courget', ['garden-tomatoes']],
    ['antihist', ['health-allergy']],
    ['fingerp', ['hobby-guitar']],
  ],
  typo: [
    ['restaurnt', ['travel-restaurant']],
    ['restuarant booking', ['travel-restaurant']],
    ['pasport renewal', ['home-passport', 'web-gov-passport']],
    ['dentsit appointment', ['health-dentist']],
    ['alergies', ['health-allergy']],
    ['sourdogh starter', ['cook-sourdough']],
    ['recyling days', ['home-recycling']],
    ['car insurence', ['home-insurance']],
    ['chikpea curry', ['cook-curry']],
    ['guiter lessons', ['hobby-guitar']],
    ['lisbn trip', ['travel-lisbon']],
    ['boilr pressure', ['home-boiler']],
    ['physoi exercises', ['health-physio']],
    ['weding shuttle', ['social-wedding']],
    ['kiten from the shelter', ['pet-kitten']],
  ],
  none: [
    ['mortgage refinancing options', []],
    ['how do I change a bike tyre', []],
    ['quantum computing lecture notes', []],
    ['tax return deadline', []],
    ['tennis lessons for the kids', []],
    ['wine tasting in Bordeaux', []],
    ['oil change for the motorbike', []],
    ['piano tuning', []],
    ['knitting pattern for a scarf', []],
    ['electricity meter reading', []],
    ['japanese grammar flashcards', []],
    ['snowboard rental prices', []],
    ['volcano eruption in Hawaii', []],
    ['stock options vesting schedule', []],
    ['hamster cage cleaning', []],
  ],
  code: [
    ['ticket 4521-0092', ['tech-ticket-a']],
    ['4520-0092', ['tech-ticket-b']],
    ['node 18.19.1', ['tech-node']],
    ['v2.4.0', ['tech-release']],
    ['AX-2291-77', ['home-insurance']],
    ['192.168.1.40', ['tech-ip']],
    ['id_ed25519', ['tech-ssh']],
    ['node 16.20.2', ['tech-node-old']],
    ['4521-0093', ['tech-ticket-c']],
  ],
  phrase: [
    ['"login bug"', ['tech-standup']],
    ['"short stories"', ['travel-books']],
    ['"second driver"', ['home-insurance']],
    ['"spare key"', ['home-neighbour']],
    ['"old mill"', ['social-wedding']],
    ['"sea view"', ['chat-2']],
  ],
  site: [
    ['nasa eclipse', ['web-eclipse-nasa']],
    ['wikipedia solar eclipse', ['web-eclipse-wiki']],
    ['https://example-news.com/a/8f3k2q9z', ['web-article-opaque']],
    ['gov.uk passport', ['web-gov-passport']],
    ['sqlite.org', ['web-sqlite-wal']],
    ['bbcgoodfood bread', ['web-bbc-bread']],
    ['https://example-news.com/a/7d1m0x4c', ['web-article-opaque2']],
    ['mozilla opfs', ['web-mdn-opfs']],
    ['timeanddate', ['web-eclipse-glasses']],
  ],
  'common-word': [
    ['what did the vet suggest', ['pet-vet']],
    ['book a table for dinner', ['travel-restaurant']],
    ['who looks after the plants', ['home-neighbour']],
    ['what did the engineer say about the pressure', ['home-boiler']],
    ['reading list for the summer', ['travel-books']],
    ['which day is the glass collected', ['home-recycling']],
  ],
  spelling: [
    ['color palette for the living room', ['home-colour']],
    ['colour printer toner', ['home-printer']],
    ['favorite food', ['food-ramen']],
    ['neighbor with the key', ['home-neighbour']],
    ['gray walls', ['home-colour']],
    ['analyze the budget', ['money-budget']],
  ],
  negation: [
    ['what not to plant by the fence', ['garden-not-roses']],
    ['no coffee after two', ['health-sleep']],
    ['no sprinting', ['health-physio']],
  ],
  emoji: [
    ['🎉', ['social-party']],
    ['💍', ['social-wedding']],
    ['party 🎉', ['social-party']],
  ],
  paraphrase: [
    ['what do I drive', ['car-fiat']],
    ['where do I work', ['job-nurse']],
    ['what is my job', ['job-nurse']],
    ['what instrument do I play', ['hobby-guitar']],
    ['when does my kid begin school', ['family-school']],
    ['which vehicle do we own', ['car-fiat']],
    ['where is our apartment', ['home-flat']],
    ['who is getting married', ['social-wedding']],
    ['where is Priya relocating', ['social-coffee']],
    ['what musical instrument is Sam learning', ['chat-6']],
    ['what am I allergic to', ['health-allergy']],
    ['what should I eat less of, says the vet', ['pet-vet']],
  ],
};

/** One query of the suite. */
export interface SearchBoxCase {
  kind: string;
  query: string;
  targets: string[];
  typing: boolean;
  split: 'dev' | 'held-out';
}

export const CASES: SearchBoxCase[] = Object.entries(kinds).flatMap(([kind, list]) =>
  list.map(([query, targets], i) => ({
    kind,
    query,
    targets,
    typing: kind === 'prefix',
    split: i % 3 === 2 ? 'held-out' : 'dev',
  })),
);
