/** A small bundled sample, so a newcomer sees search work in seconds. */
export const SAMPLE_NOTES: { title: string; body: string; tags: string[] }[] = [
  {
    title: 'Luna the kitten',
    body: 'Adopted Luna from the shelter in March. She sleeps on the sofa all afternoon and hates the vacuum cleaner. Vet check-up every six months; see [[Vet appointments]].',
    tags: ['pets'],
  },
  {
    title: 'Vet appointments',
    body: 'Dr. Okafor at the Elm Street clinic. Luna: vaccinations due in September. Bring the carrier and the vaccination booklet.',
    tags: ['pets', 'health'],
  },
  {
    title: 'Sourdough starter',
    body: 'Feed the starter with equal weights of flour and water every evening. It doubles in about six hours in a warm kitchen. Bake when it passes the float test.',
    tags: ['cooking'],
  },
  {
    title: 'Weeknight pasta',
    body: 'Garlic, chili flakes, olive oil, lemon zest and parmesan. Salt the water well. Ten minutes from start to plate.',
    tags: ['cooking'],
  },
  {
    title: 'Tax return 2026',
    body: 'Deadline April 15. Collect receipts for the home office, the donation to the library and the train passes. The accountant wants everything by March 20.',
    tags: ['finance'],
  },
  {
    title: 'Budget for the trip',
    body: 'Lisbon in June: flights 240, apartment 610 for five nights, food about 40 a day. Keep a cushion for the tram and museum tickets. See [[Lisbon itinerary]].',
    tags: ['finance', 'travel'],
  },
  {
    title: 'Lisbon itinerary',
    body: 'Day one: Alfama and the castle at sunset. Day two: Belém, pastéis, the monastery. Day three: Sintra by train, wear good shoes.',
    tags: ['travel'],
  },
  {
    title: 'Hiking the ridge trail',
    body: 'Twelve kilometres, 700 m of climbing. Start before nine to avoid the heat. Water source at the halfway hut is unreliable in August.',
    tags: ['travel', 'outdoors'],
  },
  {
    title: 'Standup format',
    body: 'The client prefers asynchronous updates in the shared channel instead of a daily call. Post blockers before ten; a short sync on Mondays only.',
    tags: ['work'],
  },
  {
    title: 'Database migration plan',
    body: 'Move the orders table to the new cluster in three steps: dual writes, backfill, switch reads. Rollback is switching reads back. Owner: Dev.',
    tags: ['work'],
  },
  {
    title: 'Reading list',
    body: 'Memory by Alan Baddeley; The Art of Memory by Frances Yates; Moonwalking with Einstein. Borrow from the library before buying.',
    tags: ['books'],
  },
  {
    title: 'Running plan',
    body: 'Three easy runs a week, one long run on Sunday, add ten percent each week. Rest if the knee hurts. Goal: a 10k in October.',
    tags: ['health'],
  },
  {
    title: 'Garden',
    body: 'Tomatoes by the south fence, basil between them. Water in the early morning. The fence needs a new coat of stain before winter.',
    tags: ['home'],
  },
  {
    title: 'Wifi and router',
    body: 'The router admin page is at the gateway address; the password is on the sticker under the router. Reboot it if the video calls stutter.',
    tags: ['home'],
  },
  {
    title: 'Birthday ideas for Mia',
    body: 'A pottery class voucher, the new graphic novel she mentioned, or concert tickets for the jazz trio in November.',
    tags: ['gifts'],
  },
  {
    title: 'Car insurance',
    body: 'Renewal in May. Compare three quotes; the current one went up eighteen percent. Ask about the discount for the winter tyres.',
    tags: ['finance'],
  },
];
