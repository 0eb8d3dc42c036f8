/**
 * The extraction set of the current-facts suite (issue 70): chat turns of our own writing, each
 * with the durable facts a careful reader would keep about the person, written before any run of
 * `learn` on them. A fact is given as the words a stored memory must hold (all of them, any
 * case) to count as that fact; a turn with nothing durable keeps nothing. `assistant` is the
 * assistant's message the person answers (a question the person confirms is a fact; anything
 * else the assistant said is not). Every third turn is held out (frozen with the suite).
 */

/** One chat turn and what should be kept of it. */
export interface ExtractionTurn {
  id: string;
  user: string;
  assistant?: string;
  /** Each fact: words one stored memory must hold. */
  facts: string[][];
}

const TURNS: ExtractionTurn[] = [
  {
    id: 'home-ghent',
    user: 'I live in Ghent with my partner Jonas, in a flat above a bakery.',
    facts: [['Ghent'], ['Jonas']],
  },
  { id: 'greeting', user: 'Hi there! How are you today?', facts: [] },
  {
    id: 'allergy',
    user: "I'm allergic to shellfish, so please never suggest prawn recipes.",
    facts: [['allergic', 'shellfish']],
  },
  {
    id: 'job-nurse',
    user: 'I work as a night nurse at the county hospital.',
    facts: [['nurse']],
  },
  { id: 'question-weather', user: 'What will the weather be like in Porto tomorrow?', facts: [] },
  {
    id: 'vegetarian',
    user: "I've been vegetarian for ten years and I don't eat fish either.",
    facts: [['vegetarian']],
  },
  { id: 'tired', user: "I'm so tired today, long shift.", facts: [] },
  {
    id: 'sister',
    user: 'My sister Ingrid lives in Oslo and works as an architect.',
    facts: [['Ingrid', 'Oslo']],
  },
  {
    id: 'hypothetical',
    user: 'If I ever moved to Canada I would want a dog.',
    facts: [],
  },
  {
    id: 'birthday',
    user: 'My birthday is on 14 March.',
    facts: [['birthday', '14 March']],
  },
  {
    id: 'thanks',
    user: 'Thanks, that was really helpful!',
    facts: [],
  },
  {
    id: 'car',
    user: 'I drive a blue Skoda Octavia, bought it second hand last year.',
    facts: [['Skoda']],
  },
  {
    id: 'plan-marathon',
    user: "I'm running the Rotterdam marathon on 12 April next year.",
    facts: [['Rotterdam', 'marathon']],
  },
  {
    id: 'confirm-move',
    assistant: 'So you live in Utrecht now?',
    user: 'Yes, since the summer.',
    facts: [['Utrecht']],
  },
  {
    id: 'deny',
    assistant: 'Do you still work at the bank?',
    user: 'No.',
    facts: [],
  },
  {
    id: 'assistant-claim',
    assistant: 'Many people find that cycling to work improves their mood.',
    user: 'Interesting, tell me more.',
    facts: [],
  },
  {
    id: 'dentist',
    user: 'My dentist is Dr Haddad on Station Road.',
    facts: [['dentist', 'Haddad']],
  },
  {
    id: 'prefers-tea',
    user: 'I prefer green tea to coffee, coffee makes me jittery.',
    facts: [['tea']],
  },
  {
    id: 'kids',
    user: 'We have two kids, Mira who is seven and Tom who is four.',
    facts: [['Mira'], ['Tom']],
  },
  {
    id: 'colleague-chat',
    user: 'My colleague said the new printer is rubbish.',
    facts: [],
  },
  {
    id: 'moved-job',
    user: 'I started a new job at Vestas as a data analyst last month.',
    facts: [['Vestas']],
  },
  {
    id: 'phone',
    user: 'My new phone number is 0612 345 678.',
    facts: [['0612 345 678']],
  },
  {
    id: 'question-recipe',
    user: 'Can you give me a recipe for lentil soup?',
    facts: [],
  },
  {
    id: 'hates-cilantro',
    user: "I can't stand coriander, it tastes like soap to me.",
    facts: [['coriander']],
  },
  {
    id: 'pet',
    user: 'Our cat Biscuit is fourteen and has kidney problems.',
    facts: [['Biscuit']],
  },
  {
    id: 'mood-weekend',
    user: 'Feeling a bit lazy this weekend.',
    facts: [],
  },
  {
    id: 'language',
    user: "I'm learning Portuguese on Tuesday evenings.",
    facts: [['Portuguese']],
  },
  {
    id: 'stopped-smoking',
    user: 'I quit smoking in January and I no longer drink alcohol either.',
    facts: [['smoking'], ['alcohol']],
  },
  {
    id: 'friend-wedding',
    user: "My best friend Kwame is getting married on 6 June, I'm his best man.",
    facts: [['Kwame']],
  },
  {
    id: 'small-talk',
    user: 'Haha, that is funny.',
    facts: [],
  },
  {
    id: 'bank',
    user: 'I bank with Triodos and my savings are with ING.',
    facts: [['Triodos']],
  },
  {
    id: 'confirm-allergy',
    assistant: 'Are you allergic to penicillin?',
    user: 'Yes, I am.',
    facts: [['penicillin']],
  },
  {
    id: 'guess',
    user: 'Maybe I will take the train, I have not decided.',
    facts: [],
  },
  {
    id: 'diabetes',
    user: 'I have type 1 diabetes and use an insulin pump.',
    facts: [['diabetes']],
  },
  {
    id: 'holiday-plan',
    user: "We're flying to Crete on 3 August for two weeks.",
    facts: [['Crete']],
  },
  {
    id: 'other-person-fact',
    user: 'The neighbour across the street has a new red car.',
    facts: [],
  },
  {
    id: 'mother',
    user: 'My mother Rosa lives with us since her fall.',
    facts: [['Rosa']],
  },
  {
    id: 'question-self',
    user: 'Do you remember where I work?',
    facts: [],
  },
  {
    id: 'favourite-band',
    user: 'My favourite band is Radiohead, I saw them in 2017.',
    facts: [['Radiohead']],
  },
  {
    id: 'gym',
    user: 'I go swimming every Monday and Thursday morning before work.',
    facts: [['swimming']],
  },
  {
    id: 'transient-hungry',
    user: "I'm hungry, what should I have for lunch?",
    facts: [],
  },
  {
    id: 'gp',
    user: 'My GP is Dr Lindqvist at the Kungsholmen practice.',
    facts: [['Lindqvist']],
  },
];

/** The set, each turn with its split: every third held out. */
export const EXTRACTION: readonly (ExtractionTurn & { heldOut: boolean })[] = TURNS.map((t, i) => ({
  ...t,
  heldOut: i % 3 === 2,
}));
