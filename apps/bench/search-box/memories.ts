// The search-box suite's memories: texts written for this suite (anamnesis authors, 2026-11-28),
// shaped as the apps store them: notes (`title\n\nbody`, session = note id), saved pages
// (`title\npassage`, session = meta.url), chat turns (meta.speaker).
import type { RememberInput } from '@anamnesis/engine';

const DAY = 86_400_000;
const askedAt = Date.UTC(2026, 10, 20, 12);
let n = 0;
const note = (id: string, title: string, body: string): RememberInput => ({
  id,
  text: `${title}\n\n${body}`,
  kind: 'note',
  session: id,
  meta: { title },
  createdAt: askedAt - (++n * 3 + 1) * DAY,
});
const page = (
  id: string,
  url: string,
  title: string,
  passage: string,
  chunk = 0,
): RememberInput => ({
  id,
  text: `${title}\n${passage}`,
  kind: 'page',
  session: url,
  meta: { url, title, chunk },
  createdAt: askedAt - (++n * 2 + 5) * DAY,
});
const turn = (id: string, session: string, speaker: string, text: string): RememberInput => ({
  id,
  text,
  kind: 'turn',
  session,
  meta: { speaker },
  createdAt: askedAt - (++n + 40) * DAY,
});

export const ASKED_AT = askedAt;
export const MEMORIES: RememberInput[] = [
  // cooking
  note(
    'cook-pancake',
    'Pancake batter',
    'Two cups of flour, two eggs, a cup and a half of milk, a pinch of salt. Let it rest for twenty minutes before the first pancake.',
  ),
  note(
    'cook-trout',
    'Pan-fried trout',
    'Dry the fillets, salt the skin, four minutes skin side down in a hot pan with butter, then one minute on the other side. Lemon and parsley.',
  ),
  note(
    'cook-pantry',
    'Pantry list',
    'Running low on rice, chickpeas, olive oil and tinned tomatoes. The spice rack needs cumin and smoked paprika.',
  ),
  note(
    'cook-sourdough',
    'Sourdough starter',
    'Feed the starter every morning with equal weights of flour and water. It doubled in six hours on day five, so it is ready to bake with.',
  ),
  note(
    'cook-curry',
    'Chickpea curry for six',
    'Onions, garlic, ginger, a tin of coconut milk, two tins of chickpeas, garam masala. Serve with basmati rice and yoghurt on the side.',
  ),
  note(
    'cook-panna',
    'Panna cotta for the dinner party',
    'Gelatine leaves soaked in cold water, cream warmed with vanilla and sugar, set overnight in the fridge. Raspberry coulis on top.',
  ),
  // home and admin
  note(
    'home-boiler',
    'Boiler service',
    'The engineer said the pressure drops because of a leaking valve under the radiator in the hall. Replacement part ordered, second visit booked for the 14th.',
  ),
  note(
    'home-mortgage',
    'Bank appointment',
    'Meeting at the bank about the savings account for the kids, bring passports and proof of address.',
  ),
  note(
    'home-passport',
    'Passport renewal appointment',
    'Renewal appointment at the passport office on Tuesday at 9:40. Bring the old passport, two photos and the printed confirmation.',
  ),
  note(
    'home-photobooth',
    'Photo booth',
    'The passport photo booth is next to the pharmacy on the high street, it takes coins only.',
  ),
  note(
    'home-insurance',
    'Car insurance',
    'Policy number AX-2291-77 renews on the first of March. The broker quoted a lower premium if we add a second driver.',
  ),
  note(
    'home-wifi',
    'Wi-Fi password',
    'Guest network is called attic-guest, the password is written on the back of the router.',
  ),
  note(
    'home-recycling',
    'Recycling days',
    'Glass and paper on alternate Thursdays, garden waste only from April to October.',
  ),
  note(
    'home-colour',
    'Colour palette for the living room',
    'Warm grey walls, a deep teal for the bookcase, sand coloured curtains. Avoid anything too saturated.',
  ),
  note(
    'home-printer',
    'Color printer',
    'The office printer needs new toner cartridges; the cyan one is empty and the black one is low.',
  ),
  note(
    'home-neighbour',
    'Neighbour',
    'Our neighbour Ruth will water the plants while we are away and has the spare key.',
  ),
  // health
  note(
    'health-dentist',
    'Dentist',
    'The dentist moved my check-up to Friday at 3pm. Ask about the sensitive tooth on the lower left.',
  ),
  note(
    'health-running',
    'Running plan',
    'Three easy runs a week, one long run on Sunday, build up to 10 km by the end of the month.',
  ),
  note(
    'health-physio',
    'Physio exercises',
    'Calf raises, hamstring stretches and ten minutes on the foam roller after each run. No sprinting until the knee stops aching.',
  ),
  note(
    'health-allergy',
    'Allergies',
    'I am allergic to penicillin and to cats. Hay fever in May and June, take antihistamines in the morning.',
  ),
  note(
    'health-sleep',
    'Sleep',
    'No coffee after two in the afternoon, screens off at ten. Sleep has been much better since.',
  ),
  // pets
  note(
    'pet-vet',
    'Vet visit',
    'The veterinarian advised a lighter diet for Biscuit and a walk twice a day; weigh him again in six weeks.',
  ),
  note(
    'pet-kitten',
    'New kitten',
    'We adopted a kitten called Luna from the shelter. She is eight weeks old and already uses the litter tray.',
  ),
  note(
    'pet-reading',
    'Suggested reading',
    'Books suggested by the book club: three novels and a memoir about a lighthouse keeper.',
  ),
  // work and tech
  note(
    'tech-node',
    'Server upgrade',
    'Upgraded node 18.19.1 on the build server; the laptop still runs 18.18.1 and needs the same upgrade.',
  ),
  note(
    'tech-node-old',
    'Old laptop',
    'The old laptop runs node 16.20.2 and should be retired before the audit.',
  ),
  note(
    'tech-ticket-a',
    'Support ticket 4521-0092',
    'Customer cannot log in after the password reset; the session cookie is never set. Escalated to the identity team.',
  ),
  note(
    'tech-ticket-b',
    'Support ticket 4520-0092',
    'Invoice PDF shows the wrong VAT rate for Portugal. Fixed in the billing service and closed.',
  ),
  note(
    'tech-ticket-c',
    'Support ticket 4521-0093',
    'Dark mode toggle does not persist after reload. Waiting for the front-end release.',
  ),
  note(
    'tech-release',
    'Release checklist',
    'Bump the version to v2.4.0, update the changelog, tag the commit, then publish with the release script.',
  ),
  note(
    'tech-release-old',
    'Previous release',
    'v2.3.9 went out with a broken migration; we rolled back within the hour.',
  ),
  note(
    'tech-ssh',
    'SSH config',
    'Host bastion uses port 2222 and the key in ~/.ssh/id_ed25519; jump through it to reach the database server.',
  ),
  note(
    'tech-standup',
    'Standup notes',
    'Mira is blocked on the login bug, Tom finished the export feature, design review moved to Thursday.',
  ),
  note(
    'tech-meeting',
    'Meeting: quarterly planning',
    'Agreed to drop the legacy importer and spend the quarter on search quality and offline sync.',
  ),
  note(
    'tech-regex',
    'Regex for dates',
    'Use ^\\d{4}-\\d{2}-\\d{2}$ for ISO dates; the old pattern also accepted the 31st of February.',
  ),
  note(
    'tech-ip',
    'Office network',
    'The printer sits at 192.168.1.40 and the NAS at 192.168.1.12; DHCP range starts at .100.',
  ),
  // travel and social
  note(
    'travel-lisbon',
    'Lisbon trip',
    'Flights booked for 12 to 19 May. Stay in Alfama, day trip to Sintra, eat at the tiny place near the tram 28 stop.',
  ),
  note(
    'travel-restaurant',
    'Restaurant booking',
    'Booked a table for four at the Italian restaurant on Friday at eight. Ask for the table by the window.',
  ),
  note(
    'travel-gym',
    'Gym membership',
    'Membership renewal is due next month; the off-peak plan is cheaper and includes the pool.',
  ),
  note(
    'travel-books',
    'Books to read',
    'A list for the summer: two thrillers, a history of the Silk Road and a collection of short stories.',
  ),
  note(
    'social-party',
    'Party tonight 🎉',
    'Sam is turning forty, bring a bottle and the card everyone signed. Starts at seven.',
  ),
  note(
    'social-birthday',
    'Birthday gift ideas',
    'Mum would like a good gardening book or a day at the spa. Her birthday is on the 3rd of August.',
  ),
  note(
    'social-wedding',
    'Wedding',
    'Anna and Joe get married on 6 September in the old mill; we are on the shuttle from the station. 💍',
  ),
  note(
    'social-coffee',
    'Coffee with Priya',
    'Priya is moving to Berlin for a job at a robotics startup. Remember to send her the flat-hunting tips.',
  ),
  note(
    'car-fiat',
    'The car',
    'My car is a blue Fiat Panda, bought second-hand in 2019. The MOT is due in November.',
  ),
  note(
    'family-school',
    'School',
    'Our daughter starts school in September; uniform from the shop on Mill Road, name labels on everything.',
  ),
  note(
    'job-nurse',
    'Work',
    'I work night shifts as a nurse on the cardiology ward at the city hospital.',
  ),
  note(
    'home-flat',
    'Where we live',
    'We live in a third-floor flat near the river, the lift is often out of order.',
  ),
  note(
    'food-ramen',
    'Food',
    'Favourite food: a bowl of ramen with a soft egg; the best one is at the place behind the station.',
  ),
  note(
    'hobby-guitar',
    'Guitar',
    'I play the guitar on weekends and am learning fingerpicking from an online course.',
  ),
  note(
    'garden-tomatoes',
    'Garden',
    'Tomatoes did well against the south wall; the courgettes got powdery mildew in August.',
  ),
  note(
    'garden-not-roses',
    'Garden plan',
    'Do not plant roses by the fence again, the soil is too wet there; try ferns instead.',
  ),
  note(
    'money-budget',
    'Monthly budget',
    'Rent, utilities and groceries come first; put 10% into savings on payday and keep the rest for the month.',
  ),
  // saved pages
  page(
    'web-eclipse-nasa',
    'https://science.nasa.gov/eclipses/future-eclipses/eclipse-2026-08-12/',
    'Total solar eclipse of 12 August 2026',
    'The path of totality crosses Greenland, Iceland and northern Spain; in Spain totality happens shortly before sunset.',
  ),
  page(
    'web-eclipse-wiki',
    'https://en.wikipedia.org/wiki/Solar_eclipse',
    'Solar eclipse - Wikipedia',
    'A solar eclipse occurs when the Moon passes between the Earth and the Sun, blocking all or part of the Sun for a viewer on Earth.',
  ),
  page(
    'web-eclipse-glasses',
    'https://www.timeanddate.com/eclipse/eclipse-glasses.html',
    'How to watch an eclipse safely',
    'Never look at the Sun directly; use certified eclipse glasses or a pinhole projector, even during a partial eclipse.',
  ),
  page(
    'web-mdn-fetch',
    'https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API/Using_Fetch',
    'Using the Fetch API',
    'The Fetch API provides a JavaScript interface for making HTTP requests and handling the responses, returning promises.',
  ),
  page(
    'web-mdn-opfs',
    'https://developer.mozilla.org/en-US/docs/Web/API/File_System_API/Origin_private_file_system',
    'Origin private file system',
    'The origin private file system is a storage endpoint private to the origin of the page, optimized for performance.',
  ),
  page(
    'web-sqlite-wal',
    'https://sqlite.org/wal.html',
    'Write-Ahead Logging',
    'The default method by which SQLite implements atomic commit and rollback is a rollback journal; WAL is an alternative.',
  ),
  page(
    'web-bbc-bread',
    'https://www.bbcgoodfood.com/recipes/easy-white-bread',
    'Easy white bread',
    'Mix flour, yeast, salt, oil and warm water; knead for ten minutes, prove until doubled, then bake for 25 minutes.',
  ),
  page(
    'web-gov-passport',
    'https://www.gov.uk/renew-adult-passport',
    'Renew or replace your adult passport',
    'It costs less to apply online than by post. You will need a digital photo and your old passport.',
  ),
  page(
    'web-article-opaque',
    'https://example-news.com/a/8f3k2q9z',
    'City council approves new cycle lanes',
    'The council voted to add protected cycle lanes on three main roads, with work starting in the spring.',
  ),
  page(
    'web-article-opaque2',
    'https://example-news.com/a/7d1m0x4c',
    'Library opening hours extended',
    'The central library will stay open until nine on weekdays from next month.',
  ),
  // chat turns
  turn(
    'chat-1',
    'chat-holiday',
    'Alex',
    'Did you end up booking the cottage in Cornwall for August?',
  ),
  turn(
    'chat-2',
    'chat-holiday',
    'Sam',
    'Yes, the one with the sea view near St Ives, for the second week.',
  ),
  turn('chat-3', 'chat-holiday', 'Alex', 'Great, I will bring the kayak and the camping stove.'),
  turn(
    'chat-4',
    'chat-work',
    'Sam',
    'The client wants the quarterly report by Wednesday instead of Friday.',
  ),
  turn(
    'chat-5',
    'chat-work',
    'Alex',
    'Then I will skip the workshop and finish the charts tonight.',
  ),
  turn(
    'chat-6',
    'chat-music',
    'Sam',
    'I have been learning the cello for a year now, my teacher says I am ready for an orchestra.',
  ),
  turn(
    'chat-7',
    'chat-music',
    'Alex',
    'Amazing, you should audition for the community orchestra in the spring.',
  ),
];
