// The current-facts suite's questions (issue 70): each answered by the current fact (`current`),
// never by the older facts it replaced (`old`). Written with the memories, 2026-12-06, before any
// run. Every third question is held out (fixed here, never tuned).
const list: [query: string, current: string, old: string[]][] = [
  ['where do I live', 'home-3', ['home-1', 'home-2']],
  ['what is my address', 'home-3', ['home-1', 'home-2']],
  ['which town is my home in', 'home-3', ['home-1', 'home-2']],
  ['where do I work', 'work-2', ['work-1']],
  ['what is my job', 'work-2', ['work-1']],
  ['who is my doctor', 'gp-2', ['gp-1']],
  ['which GP am I registered with', 'gp-2', ['gp-1']],
  ['what is my phone number', 'phone-2', ['phone-1']],
  ['my mobile number', 'phone-2', ['phone-1']],
  ['what car do I drive', 'car-2', ['car-1']],
  ['which car do I have', 'car-2', ['car-1']],
  ['am I vegan', 'diet-2', ['diet-1']],
  ['what do I eat, any diet', 'diet-2', ['diet-1']],
  ['which gym do I go to', 'gym-2', ['gym-1']],
  ['where do I exercise', 'gym-2', ['gym-1']],
  ['which bank is my account with', 'bank-2', ['bank-1']],
  ['who cuts my hair', 'hair-2', ['hair-1']],
  ['my hairdresser', 'hair-2', ['hair-1']],
  ['who is our internet provider', 'net-2', ['net-1']],
  ['how fast is our broadband', 'net-2', ['net-1']],
  ['who is my dentist', 'keep-dentist', []],
  ['where does Hana live', 'other-sister', []],
  ['where does dad work', 'other-dad', []],
  ['what is mum’s number', 'other-mum-phone', []],
];

/** One question of the suite. */
export interface CurrentCase {
  query: string;
  /** The memory with the current fact. */
  current: string;
  /** The memories with facts it replaced. */
  old: string[];
  split: 'dev' | 'held-out';
}

export const CASES: CurrentCase[] = list.map(([query, current, old], i) => ({
  query,
  current,
  old,
  split: i % 3 === 2 ? 'held-out' : 'dev',
}));
