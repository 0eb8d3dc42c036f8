// The current-facts suite's memories (issue 70): one person's notes over two years, facts that
// changed (home, work, doctor, phone, car, habits…) with their realistic ages, other people's facts,
// and unrelated notes. Written for this suite by the anamnesis authors, 2026-12-06, before any run.
import type { RememberInput } from '@anamnesis/engine';

/** When the questions are asked: Tuesday 1 December 2026, 10:00 UTC. */
export const ASKED_AT = Date.UTC(2026, 11, 1, 10);
const DAY = 86_400_000;
const note = (id: string, text: string, daysAgo: number): RememberInput => ({
  id,
  text,
  kind: 'note',
  session: id,
  createdAt: ASKED_AT - daysAgo * DAY,
});

export const MEMORIES: RememberInput[] = [
  // home: three places, the last current
  note('home-1', 'I live in Norwich, a flat above the bakery on Elm Hill', 720),
  note('home-2', 'Moved to Cambridge in spring, renting a small house on Mill Road', 240),
  note('home-3', 'We moved again: the new place is a cottage in Ely, by the river', 35),
  // work
  note('work-1', 'I work as a nurse on the children’s ward at Addenbrooke’s', 650),
  note('work-2', 'Started a new job as a school nurse at Parkside, term time only', 90),
  // doctor
  note('gp-1', 'My GP is Dr Farah at the Chesterton surgery', 400),
  note('gp-2', 'Registered with a new GP after the move: Dr Whitlock in Ely', 30),
  // phone number
  note('phone-1', 'My mobile number is 07700 900 118', 600),
  note('phone-2', 'New phone number from today: 07700 900 462, the old one is cancelled', 15),
  // car
  note('car-1', 'I drive a grey Toyota Yaris, registration AB12 CDE', 500),
  note('car-2', 'Sold the Yaris, now driving a second-hand Nissan Leaf', 70),
  // diet
  note('diet-1', 'I am vegan, no dairy or eggs', 380),
  note('diet-2', 'No longer vegan, eating eggs and cheese again since the summer', 120),
  // gym
  note('gym-1', 'My gym is Pure Fitness on the ring road, off-peak membership', 300),
  note('gym-2', 'Switched gyms: now swimming at the leisure centre pool instead', 45),
  // bank
  note('bank-1', 'My bank account is with Barclays, the branch on the high street', 800),
  note('bank-2', 'Moved my account to Monzo, the Barclays one is closed', 150),
  // hairdresser
  note('hair-1', 'My hairdresser is Priya at Cut Above', 260),
  note('hair-2', 'Switched hairdressers: now going to Leon at the barber on Fore Hill', 20),
  // internet
  note('net-1', 'Our broadband provider is BT, 80 Mbps', 600),
  note('net-2', 'Changed broadband to a local fibre provider, 500 Mbps, much better', 50),
  // other people's facts that did not change
  note('other-sister', 'My sister Hana lives in Glasgow with her two cats', 330),
  note('other-dad', 'Dad works at the garden centre three days a week', 210),
  note('other-friend', 'Friend Olu moved to Lisbon for a year abroad', 60),
  note('other-mum-phone', 'Mum’s phone number is 07700 900 733', 410),
  // facts that are still true and have nothing newer
  note('keep-dentist', 'My dentist is Dr Amara at Smile Studio, check-ups every six months', 280),
  note('keep-insurance', 'Home insurance is with Aviva, renews in March', 190),
  note('keep-vet', 'The vet for Biscuit is the clinic on Station Road', 140),
  // unrelated notes, some sharing a word with the facts
  note('u-bakery', 'The bakery sells sourdough on Saturdays only', 30),
  note('u-river', 'Walk along the river to the cathedral, about forty minutes', 12),
  note('u-pool', 'Pool timetable: lane swimming 7–9am on weekdays', 8),
  note('u-fibre', 'Eat more fibre: oats, beans and lentils', 95),
  note('u-school', 'Parkside school play on 12 December, tickets from the office', 5),
  note('u-number', 'Book number 12 of the series is missing from the shelf', 160),
  note('u-account', 'Netflix account password is in the password manager', 75),
  note('u-cut', 'Cut the hedge back before the birds nest', 300),
  note('u-leaf', 'Leaf blower borrowed from the neighbour, return by Friday', 18),
  note('u-ring', 'Ring road closed this weekend for resurfacing', 3),
  note('u-fitness', 'Fitness goal: 5k under 30 minutes by spring', 100),
  note('u-move', 'Move the sofa to the other wall to make room for the piano', 25),
];

/** The supersessions a careful reader makes: [newer, older]. Any other link is a wrong one. */
export const SUPERSESSIONS: [string, string][] = [
  ['home-2', 'home-1'],
  ['home-3', 'home-2'],
  ['home-3', 'home-1'],
  ['work-2', 'work-1'],
  ['gp-2', 'gp-1'],
  ['phone-2', 'phone-1'],
  ['car-2', 'car-1'],
  ['diet-2', 'diet-1'],
  ['gym-2', 'gym-1'],
  ['bank-2', 'bank-1'],
  ['hair-2', 'hair-1'],
  ['net-2', 'net-1'],
];
