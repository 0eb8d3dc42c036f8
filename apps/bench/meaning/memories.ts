// The meaning suite's memories: one household's notes app, written for this suite (anamnesis
// authors, 2026-12-06). Notes are stored as the apps store them (`title\n\nbody`, session = note
// id, meta.title). Every memory has an explicit age relative to ASKED_AT, the moment the queries
// are asked: Wednesday 18 November 2026, 15:00 UTC.
import type { RememberInput } from '@anamnesis/engine';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Wednesday 18 November 2026, 15:00 UTC. */
export const ASKED_AT = Date.UTC(2026, 10, 18, 15);

/** `h` hours before ASKED_AT (for things from today and yesterday). */
const hoursAgo = (h: number): number => ASKED_AT - h * HOUR;
/** `d` whole days before ASKED_AT (same time of day, 15:00 UTC). */
const daysAgo = (d: number): number => ASKED_AT - d * DAY;
/** A dated moment, UTC; `month` is 1–12. */
const on = (year: number, month: number, day: number, hour = 12, minute = 0): number =>
  Date.UTC(year, month - 1, day, hour, minute);

const note = (id: string, title: string, body: string, createdAt: number): RememberInput => ({
  id,
  text: `${title}\n\n${body}`,
  kind: 'note',
  session: id,
  meta: { title },
  createdAt,
});

// ---------------------------------------------------------------------------------------------
// Long notes (diary, trip log, course log, minutes, recipe collection).
// ---------------------------------------------------------------------------------------------

const SICILY = `Day 1 (Saturday 25 October). We left the house at ten past four with both kids asleep in the back, Moss already dropped at Brook Farm the evening before. The flight to Palermo was smooth and Lena slept through the landing, which has never happened in her whole life. The airport bus into the centre was quicker than a taxi would have been and cost six euros each. Our apartment is on a narrow street behind the Quattro Canti, on the third floor with no lift, and it has a tiny balcony above a bakery that starts work at about five in the morning. Jonas says the smell of the bread is worth being woken up for. Dinner at the trattoria on the corner: pasta con le sarde for me, which is sardines, wild fennel, pine nuts and raisins, and might be the strangest and best thing I have eaten this year. Oskar had plain spaghetti with tomato sauce and declared Sicily "fine".

Day 2 (Sunday). Morning at the Ballarò market, which is loud in the best possible way: men singing out the price of swordfish, pyramids of lemons with the leaves still on, and a stall frying panelle, the chickpea fritters, which the kids ate standing up in a soft bun. We learnt quickly to keep one hand on the rucksack. In the afternoon we walked to the cathedral and on to the Norman Palace, where the royal chapel is covered from floor to ceiling in gold mosaic. Lena lay down on a bench, looked up and said it was like being inside a treasure chest. Everybody was in bed by nine.

Day 3 (Monday). Bus up the hill to Monreale. The mosaics in the cathedral are even bigger than yesterday's, and there is an enormous Christ in the apse whose hand is roughly the size of our car. The cloister has more than two hundred columns, each pair carved differently, and Oskar turned it into a game of finding the capital with the monkeys on it (it is in the south-west corner, for next time). Lunch was arancine the size of a fist, the ones with ragù and peas inside, eaten on the steps in the sun. Back in Palermo I bought a painted majolica plate for Vera and spent the evening wrapping it in every sock we owned.

Day 4 (Tuesday). Picked up the rental car at the airport, which took an hour because the company works from a car park that you reach by shuttle bus. The rental car had a cracked wing mirror on the passenger side, and we photographed it at pick-up together with every scratch on the bumpers, which saved us a two-hundred-euro argument at the return desk a week later. Driving in Palermo is a contact sport, so we headed straight out along the motorway towards Cefalù. The town sits under an enormous rock, and we climbed halfway up to the ruins of the Temple of Diana before Lena sat down on the path and refused to go any further. Jonas took Oskar to the top while I sat on a wall with Lena, eating crisps and watching the lizards. The town beach was still warm enough for paddling. Our agriturismo for the next three nights is inland, among olive trees at the end of a white gravel track, and it has a shaggy sheepdog called Tito who followed Oskar everywhere he went.

Day 5 (Wednesday). A rest day at the farm. The owner, Signora Gatto, showed us how she makes ricotta in a copper pot over a wood fire, and the children were allowed to stir and then to eat the first warm spoonfuls with honey. I could have that for breakfast every day for the rest of my life. I read by the pool all morning while Jonas and the kids built a dam across the stream at the bottom of the olive grove. In the evening a thunderstorm rolled over the hills and the power went off for an hour, so we played cards by candlelight. Lena won three rounds of Uno in a row and has been unbearable about it ever since.

Day 6 (Thursday). The long drive south through the middle of the island, which in October is brown and empty and very beautiful, with little towns balanced on the tops of the ridges like hats. Lunch was in a petrol station café that turned out to be one of the best meals of the whole trip: pasta with pistachio pesto, and cannoli filled in front of us so the shells were still crisp. We reached Agrigento in the late afternoon and walked through the Valley of the Temples as the sun went down, when the stone turns the colour of honey. The Temple of Concordia is almost complete, and it is hard to believe it has been standing for two and a half thousand years. Oskar wanted to know how they lifted the columns without cranes. None of us had a good answer, so he has promised to find out and tell us.

Day 7 (Friday). Early start for the Scala dei Turchi, the white marl cliff that looks like a giant flight of steps made of meringue. You are no longer allowed to climb on it, but the beach beside it was almost empty and the sea was still warm enough to go in properly. Jonas got sunburnt on the backs of his knees, of all places. From there we drove west along the coast to Marsala. At the salt pans outside the town the old windmills turned pink in the sunset, the shallow pools went orange and then grey, and we bought a bag of coarse sea salt from the little shop for Aunt Vera and a smaller one for ourselves. Dinner was fish couscous, which the waiter told us came across from North Africa centuries ago and never left.

Day 8 (Saturday). Trapani. We wandered around the old town, which sticks out into the sea on a thin spit, so that you can see water at the end of almost every street. Near the harbour the fishmonger told us to try busiate with pesto trapanese, which turned out to be twisted pasta with almonds, raw tomatoes, garlic and basil, and Oskar ate two plates of it and then asked me to learn how to make it at home. In the afternoon we took the cable car up to Erice, which was wrapped in cloud, so we saw absolutely nothing from the famous viewpoint. Instead we ate pastries from Maria Grammatico's shop in a mist so thick that it felt like being inside a cloud, which, as Lena pointed out, we were.

Day 9 (Sunday). Hydrofoil from Trapani to Favignana, forty minutes of bouncing that made me regret the second cornetto at breakfast. On Favignana we hired bikes for ten euros a day, with a child seat on the back of mine for Lena, and rode along the flat island roads to Cala Rossa, where the water is a shade of blue I did not know existed. Oskar did his first proper snorkel there and saw an octopus under a rock, and he has talked about almost nothing else since. On the way back the chain came off Jonas's bike twice, and we only just made the last boat back to Trapani, running down the quay with Lena on my shoulders.

Day 10 (Monday). Segesta on the drive back towards Palermo. The temple stands alone on a hill with nothing around it, never finished and never roofed, and there were hawks circling above it the whole time we were there. The theatre at the top of the hill looks straight out to the sea, and we sat on the stone seats and ate the last of the ricotta biscuits from the farm. Last night in Palermo: we went back to the trattoria on the corner, and the owner remembered Oskar and brought him plain spaghetti without being asked.

Day 11 (Tuesday). Returned the car, and the photographs did their job: the man at the desk looked at them, shrugged and signed the form. The flight home was two hours late, but the kids were good and Lena slept again. Moss went berserk with joy when we picked him up.

Things to remember for next time. Book the car from a company with a desk inside the terminal, not a shuttle. Bring a fleece for the evenings inland, because it gets cold after dark even in October. The kids liked the farm more than any of the sights, so next time we should spend more nights in the countryside and fewer in cities. Favignana deserves two nights, not a day trip. The mosquito plug-ins were worth every cent, and we should have packed twice as many refills. Signora Gatto would have us again in the spring, and she says the blossom in the valley is at its best in February.`;

const SAILING = `Sunday, day 0. Arrived at the marina in Hamble at six with far too much luggage for a 36-foot boat. Our home for the week is Nimbus, a Bavaria 36 with a slightly temperamental engine and a saloon that smells faintly of diesel and coffee. The instructor, Clare, has been sailing the Solent for thirty years and has the calmest voice I have ever heard, even when someone is about to hit something. The other students are Pete, a retired pharmacist from Reading who has done a lot of dinghy sailing, and Sunita, who works in shipping insurance and wants to charter a boat in Croatia next summer. We stowed our kit, did the safety briefing (life jackets, flares, the grab bag, the gas solenoid, where the seacocks are) and walked up to the pub for dinner. Clare has one rule she will not bend: nobody goes on deck at night without a harness clipped on.

Monday. Boat handling in the river all morning, which was humbling. Coming alongside a pontoon with the tide across you and a bit of wind is nothing like the videos; the first time I came in I was far too fast and Pete had to fend us off the boat in front. By lunchtime we were all better at it, and then Clare made us do everything again in reverse. The afternoon was picking up mooring buoys and then our first proper sail, beating down Southampton Water in a steady force four. I helmed for an hour and loved every minute of it. In the evening we planned the next day's passage to Yarmouth. Clare made us work out the heights of tide by hand with the tables and the curve, and I got it wrong twice before it finally clicked.

Tuesday. Out through the western Solent towards Yarmouth. The wind got up in the afternoon, gusting over twenty knots, and we put in the first reef, which took far too long because the reefing lines were tangled. Then we did the man overboard drill again and again, with a fender tied to a bucket, until each of us could bring the boat back alongside it in under two minutes. The bucket acts as a drogue, so the fender drifts the way a person in the water would. Sunita was the quickest of us. My problem was losing sight of it in the waves, and Clare said the most important job on board in that moment is to point at the casualty and never stop pointing. We moored in Yarmouth harbour on the finger pontoons, rafted three deep, and ate fish and chips sitting on the harbour wall.

Wednesday. Pilotage day. Each of us had to plan and lead a passage into somewhere we had never been. Mine was into Newtown Creek, which is shallow and winding, with a narrow entrance between two shingle spits. I wrote a pilotage plan with clearing bearings and the transit of the two leading marks, and it worked, which felt wonderful. We anchored in the creek for lunch and Sunita made her chilli in the pressure cooker. Then came a lesson learnt the hard way: always check the tidal stream atlas before planning a passage past Hurst Point. We arrived at the narrows with two and a half knots of tide against us and spent an hour going nowhere, watching the same lighthouse refuse to move. Clare let us find this out for ourselves, which was probably the point.

Wednesday evening. Back in Newtown Creek for the night, on a mooring buoy this time. Pete and I rowed the tender ashore to stretch our legs and walked along the sea wall past the old salt marsh, where there were hundreds of waders feeding on the mud and an egret standing perfectly still in a channel. Back on board, Clare got out the charts and talked us through the passage for the next day, then taught us three new knots by torchlight: the rolling hitch, the sheet bend and a bowline tied with one hand, which she says could one day save a life. The sky cleared completely after midnight and I sat in the cockpit for a while looking at more stars than I have seen since I was a child. No phone signal at all, which felt like a holiday inside the holiday.

Thursday. The long day. We left Yarmouth at eight, went out through the Needles Channel and then east along the south side of the island, with a long swell rolling in from the south-west. Off St Catherine's Point Pete was seasick for the first time in his life, he said, and after lying in the cockpit for a while he swore that ginger biscuits were the only thing that helped; he had brought a whole packet from home and shared them round. I felt queasy below deck doing the navigation but was fine as soon as I came up and looked at the horizon. We practised taking bearings on headlands and plotting three-point fixes, and for once mine made a nice small triangle. We came round the eastern end of the island in the late afternoon and anchored off Cowes for supper.

Thursday night. After supper we did the night passage across to Lymington. I was on the helm for the crossing, with Sunita navigating below. At night the Solent becomes a mass of lights that all seem to mean something: cardinal buoys flashing in their patterns, the red and green of the channel marks, the orange glow of the refinery at Fawley behind us. Halfway across, a big ferry came up from astern, first a single white masthead light and then its red and green sidelights both at once, which meant it was heading straight at us. Clare quietly asked me what I was going to do. I altered course to starboard in a big, obvious way, and the ferry passed a comfortable distance down our port side. My hands were shaking afterwards. We tied up in Lymington at half past midnight and drank hot chocolate in the cockpit before bed.

Friday. The assessment, although Clare insists there is no exam, only a judgement on whether she would be happy to let each of us skipper a boat. Each of us took charge for a couple of hours. I had to plan a passage back to the Hamble, brief the crew, and deal with whatever Clare threw at us: an engine failure (we sailed onto a mooring), a lee shore, a pretend injury. I forgot to brief the crew about where the life jackets were, and she reminded me, gently, in the debrief. By mid-afternoon we were back on the pontoon at Hamble, scrubbing the decks, emptying the fridge and arguing about who had left wet socks in the forepeak.

Results and notes to self. All three of us passed. Things I need to work on: reefing early instead of waiting until it is already hard work; writing down the time of every fix in the log, because at night I forgot twice; and keeping a proper lookout astern as well as ahead. Things that went well: the pilotage plan, the night crossing, and my knots, which Clare said were the tidiest on the boat. For the future: charter a boat with Pete and Sunita in the Solent next September, then perhaps Croatia with the family the year after, once the kids are a bit older and Lena can swim further than a width. Buy a proper pair of sailing gloves, because my hands are raw from the sheets. Keep the almanac and the tidal atlas rather than selling them on. Write to Clare to thank her. And next time, bring half the luggage.`;

const AGM = `Annual general meeting held on Tuesday 3 March 2026 at 7:30pm in the back room of St Peter's church hall.

Present: Derek Fowles (chair), Ayesha Rahman (treasurer), me (secretary, taking these minutes), and twenty-six residents from nineteen households. Apologies from the Morels, Mr and Mrs Wendt, and Jan at number 41, who is in hospital and sends his best wishes to everyone.

1. Welcome and last year's minutes. Derek welcomed everyone, especially the three households who have moved in since the last meeting: the Nwosu family at number 7, Hannah and Leo at number 22, and Mr Barker at number 50. The minutes of the 2025 AGM were approved without changes, proposed by Rita Szabo and seconded by Graham Pike.

2. Chair's report. Derek said it had been a busy year. The association now has 61 member households out of 84 on the road, up from 52 a year ago. The group chat has become the main way people share news, lost cats and spare apples, and he asked everyone to keep it friendly. He thanked the volunteers who cleared the back alley in October, filling two skips, and the families who ran the Halloween trail, which more than forty children walked. He noted that the speed survey has now been done and would be discussed under item 5.

3. Treasurer's report. Ayesha presented the accounts for the year to 28 February. The balance stands at £1,842, compared with £1,390 a year ago. Income came from subscriptions (£5 per household, £305 in total) and from the street party in July, which made a surplus of £312, mostly from the cake stall and the tombola; the tombola alone raised £140, thanks to prizes donated by the shops on the high street. Spending was mainly the public liability insurance (£96), hire of the hall (£60) and the skip in October (£210). The accounts were approved, proposed by Hannah and seconded by Rita. Ayesha asked for a volunteer to shadow her this year, because she intends to stand down next March after six years.

4. Trees and greening. Rita reported on her talks with the council's tree officer. The council has agreed to plant six rowan trees on the verge outside numbers 20 to 32 in November, and residents on that stretch are asked to water them through their first dry summer; Rita will set up a watering rota nearer the time. The council will not replace the cherry that came down in the January storm outside number 3, because of the cables under the pavement, but has offered a large planter instead, which the meeting accepted. Several people asked about the weeds and brambles along the alley, and it was agreed to hold a clean-up morning on Saturday 18 April, with gloves and bags provided by the council. Mrs Nwosu offered seeds for a strip of wildflowers along the alley wall, and the meeting welcomed the idea as long as the strip is kept away from the gates.

5. Traffic and speeding. Graham presented the results of the speed survey carried out over two weeks in January with a radar unit borrowed from the council. The average speed recorded was 31 mph in a 20 mph zone, and the highest was 52 mph at eleven on a Friday night. A petition asking for speed cushions now has 146 signatures. There was a long discussion. Some residents worry that cushions are noisy for the houses next to them and slow down ambulances; others said the road is used as a rat-run to avoid the lights on the high street, and that children walking to the primary school are at real risk. It was agreed to send the petition and the survey results to the council together, to ask for a proper traffic study rather than any particular measure, and to raise it at the next ward meeting.

6. The alley gates. The gating scheme for the back alley between Linden Road and Elm Terrace is now complete, after two years of paperwork. The gates are locked at all times. Keys for the alley gate cost £15 each from Ayesha, a spare will be kept by Derek for emergencies, and one has been given to the refuse team. Residents are asked not to prop the gates open and to report any damage straight away. Two break-ins to back gardens were reported in the year before the gates went in, and none since.

7. Planning application at the end of the road. Several residents raised the application to build six flats on the old garage site at the corner with Mill Lane. Views in the room were mixed: some welcomed new homes and the end of an empty site that attracts fly-tipping, while others worried about parking and about the loss of light for numbers 80 to 84. The association will not take a position as a body, but Derek will circulate the link to the council's planning portal so that households can comment individually before the deadline on 27 March.

8. Street lighting. The broken streetlight outside number 9 has been reported to the council three times since December without anything happening. Derek will take it up directly with the ward councillor, and residents who walk that stretch after dark are asked to report it online as well, because the council counts the number of reports when it decides on priorities. Graham pointed out that the same lamp failed two winters ago and took four months to fix.

9. Noticeboard and newsletter. The printed newsletter will continue three times a year for residents who are not on the group chat, delivered by volunteers; Rita has a list of the eleven households who rely on it. The noticeboard outside the corner shop has been vandalised again and will be replaced with a lockable one, at a cost of about £120, which was approved.

10. Summer street party. This year's party will be on Saturday 11 July, and the road closure application must go in by the end of March; Derek will do it. Hannah offered to run the music, the Nwosus will run a barbecue, and the cake stall and the tombola will return. There were suggestions of a children's sports hour and a fun dog show, and Mr Barker, who turns out to be a retired judge of agricultural shows, offered to judge the dogs.

11. Winter lights. The lights strung between the lamp-posts in December were very popular and will go up again this year. Graham reminded the meeting that they need a volunteer with a ladder and a head for heights, and that two strings need replacing, which the committee will pay for from the surplus.

12. Election of officers. Derek was re-elected as chair and Ayesha as treasurer, both unopposed. I agreed to continue as secretary for one more year. Hannah joined the committee as a general member, and the meeting thanked Graham, who is stepping down from the committee after nine years but will carry on with the traffic work.

13. Any other business. Dog fouling on the stretch by the school gate has got worse, and the association will ask the council for a second bin there. Mr Barker asked whether the association could organise a bulk order of water butts, and Rita will find out prices. Someone raised the broadband: the fibre company has promised to connect the odd-numbered side of the road by the summer, and the association will chase them if it slips. The meeting closed at 9:20pm. The next committee meeting will be in the church hall on Tuesday 14 April.`;

const RECIPES = `Typed up from Oma's green notebook before it falls apart completely. Her own remarks are in brackets; my notes come after the dashes. I have turned her "a cup", "a knob" and "enough" into grams where I could, but she never measured anything twice the same way.

Rotkohl (red cabbage). One red cabbage of about a kilo, quartered, the hard core cut out, and the rest sliced into thin strips. Two tart apples, peeled and grated. One onion, chopped. Melt a big spoon of goose fat or butter in the heavy pot, soften the onion, then add the cabbage, the apples, three tablespoons of red wine vinegar, two of sugar, a bay leaf, three cloves, a few juniper berries and a glass of water. Lid on, lowest heat, and stir now and then. (Red cabbage that has only simmered for half an hour is a salad, not Rotkohl.) It wants at least an hour and a half and tastes better on the second day. — A spoon of redcurrant jelly at the end is good too, and it freezes perfectly.

Swabian potato salad. One kilo of waxy potatoes, boiled in their skins until just tender, then peeled while they are still hot (she did this with her bare fingers; I use a fork and a tea towel) and sliced thinly into a wide bowl. Finely chop one onion. For the dressing, bring 250 ml of beef stock to the boil with the onion, three tablespoons of white wine vinegar, a teaspoon of mustard, salt, plenty of pepper and a pinch of sugar. The most important thing, underlined twice in the notebook: pour the hot stock over the sliced potatoes while they are still warm, otherwise they will not drink it up and the salad ends up dry. Turn them gently with your hands, cover, and leave for at least an hour. Only then add four tablespoons of oil and a handful of chives. (Never mayonnaise. Mayonnaise is for Northerners.) — It should look almost too wet when the stock goes in; after an hour it is perfect.

Rinderrouladen (beef rolls). Ask the butcher for six thin slices of topside, about 5 mm, as big as your hand. Lay them out and season them. Each slice is spread with strong mustard and topped with a rasher of streaky bacon, a spoon of chopped onion and a strip of gherkin, then rolled up tightly from the short end and tied with kitchen string or pinned with cocktail sticks. Brown the rolls well on all sides in hot fat, take them out, and fry a chopped carrot, a piece of celeriac and an onion in the same pot until they colour. Add a spoon of tomato purée, a glass of red wine and half a litre of stock, put the rolls back, and braise with the lid on for an hour and a half, turning them once. Take the rolls out, push the vegetables through a sieve into the sauce and boil it down a little. (If the sauce is too thin, you were too impatient with the browning.) — We have these with mashed potato and the red cabbage. Remember to warn people about the string.

Käsespätzle. For four people: 400 g plain flour, four eggs, a good pinch of salt and about 150 ml of sparkling water, beaten with a wooden spoon until the batter blisters and pulls away from the bowl. Leave it for ten minutes. Meanwhile get a big pan of salted water to the boil and grate 250 g of mountain cheese, Bergkäse if you can find it, or half Emmental and half Gruyère. Oma always fried the onions slowly in plenty of butter until they were dark brown but never burnt, which takes a good twenty-five minutes and cannot be hurried, so start them first. Press the batter through the Spätzle press into the boiling water in batches; they are done when they float. Lift them out with a slotted spoon straight into a warm dish, in layers with the cheese, and finish with the onions on top. (Serve at once. Spätzle do not wait for anybody.) — A green salad with a sharp dressing on the side is the only thing it needs.

Linzer biscuits. 300 g plain flour, 200 g cold butter in cubes, 100 g sugar, 100 g ground hazelnuts, one egg yolk, the grated zest of a lemon and a pinch of cinnamon. Rub the butter into the flour, add everything else and bring it together quickly with cold hands; do not knead it. The dough must rest in the fridge for at least an hour, or it tears when you roll it and cut the little hearts out of the tops. Roll it to 3 mm between two sheets of baking paper, cut rounds, and cut a small heart from the middle of half of them. Bake at 175 degrees for ten to twelve minutes, until only just golden at the edges. When they are cold, spread the whole rounds with blackcurrant jam, put the tops with the hearts on, and dust with icing sugar. (They are better after two days in the tin, so hide them.) — Lena is in charge of the icing sugar, which means the kitchen floor is too.

Baked apples. One big apple per person, a sharp one that holds its shape. Core them and score the skin round the middle so they do not burst. Fill the holes with a mixture of marzipan, raisins soaked in a little rum or apple juice, chopped walnuts and a spoon of honey. Put them in a buttered dish with a splash of water and bake at 180 degrees for twenty-five to thirty minutes, until soft but not collapsing. (With vanilla sauce, never with cream from a can.) — Oskar picks out the raisins, so make one without.

Vanilla sauce. Half a litre of whole milk with a split vanilla pod, brought just to the boil and left to stand for ten minutes. Whisk two egg yolks with two tablespoons of sugar and a level tablespoon of cornflour, pour the hot milk on slowly while whisking, then put it all back in the pan and stir over a low heat until it coats the back of the spoon. Do not let it boil, or it turns to scrambled egg. (If it goes lumpy, nobody needs to know: push it through a sieve.) — Rinse the vanilla pod, dry it and put it in the sugar jar.

Herring salad for New Year's Eve. Four salted herring fillets, soaked overnight in milk and cut into small squares. Two boiled potatoes, two pickled beetroots, one sharp apple and two gherkins, all diced the same size as the herring, and half a red onion chopped very fine. Stir in a small pot of soured cream thinned with a little of the gherkin vinegar, season with pepper only, and leave it in a cold place for a day so the beetroot colours everything pink. (Made on the thirtieth, eaten on the thirty-first, finished on the first.) — Jonas will not touch it; the rest of us fight over it.

Things she never wrote down but always said. Salt the potato water like the sea. Wash up as you go, or you will be washing up all evening. Taste everything before it goes on the table, and never apologise for your cooking to guests. And if a recipe says "a pinch", it means her pinch, which was about three of anybody else's.`;

const DIARY = `Thursday 1 January. New Year's Day walk up Hadley Hill with the Hallorans. Mud everywhere, low sun, and Moss rolled in something unspeakable right at the top, so he had a bath in the garden when we got home and sulked for the rest of the afternoon. Resolutions, written here so that I cannot pretend later: fewer screens after nine, ring Grandad every Sunday, and finally finish the photo albums from the last three summers.

Friday 2 January. Back to work for a single day, which felt pointless; half the office was still away and the other half spent the morning describing their Christmas. I cleared two hundred emails and went home early.

Sunday 4 January. Decorations down, tree out to the kerb for the collection, needles everywhere. Lena cried because the house looks "bare", so we let her keep one string of lights in her room.

Tuesday 6 January. First day back at school. Oskar dragged his feet all the way there and then came out full of news about a new boy in his class who can do the Rubik's cube in under a minute. Lena has a wobbly front tooth and wants everyone to touch it.

Wednesday 7 January. Oskar has to make a model volcano for his class project by the end of the month, which means papier mâché all over the dining table for the foreseeable future. Jonas has appointed himself chief engineer and has already bought more bicarbonate of soda than any family could ever need.

Thursday 8 January. Snow! Proper snow, fifteen centimetres overnight, and both schools closed by seven. We built an igloo in the back garden, using the recycling crate as a mould for the bricks, and it lasted until the following Thursday, long after the rest of the snow had melted, slumped but still standing. Jonas worked from the kitchen table and kept getting up to throw snowballs.

Friday 9 January. Minus eight this morning. The car would not start on the coldest morning of the year, and Bill from next door jump-started it with his cables in his dressing gown, then refused a coffee and went back to bed. Must buy him a bottle of something. Note to self: the battery is five years old.

Saturday 10 January. Sledging on Hadley Hill with half the town. Oskar went down the steep side on the old plastic sledge, hit a mole hill and cracked it clean in two, so the rest of the morning was spent taking turns on the tea tray. Lena refused to go higher than halfway and was right to. Hot chocolate from the van at the bottom, which was the best thing we had all week.

Sunday 11 January. Rang Grandad, as promised. He talked for forty minutes about his neighbour's new fence and the price of bird seed, and I realised I had not heard him so cheerful in months. Two Sundays in a row now.

Monday 12 January. Moss ate most of a tube of Lena's glitter glue from the craft box while we were at school and work. I rang the emergency vet in a panic, and the nurse said it was non-toxic and to expect sparkly poos for a day or two, which the children think is the funniest thing that has ever happened in the history of the world. He was completely fine.

Wednesday 14 January. At work Gustav announced the new team structure. I keep my team but lose Tobias to the data group, which I mind more than I expected. Long evening run-through of the budget with Jonas afterwards; we are fine, just not as fine as we were.

Friday 16 January. Dinner at Kasia's. She has started the new job at the museum and loves it, though the building is so cold that she wears two jumpers at her desk. Her brownies are as good as ever. We talked until midnight about whether to move out of town one day, and as usual decided nothing.

Saturday 17 January. Lena's tooth finally came out, in a bread roll at lunch, and we had to search the crumbs for it. The tooth fairy left a pound coin and a note in very tiny writing, which Lena has put in her treasure box. Oskar claims he has never believed in the tooth fairy but read the note three times.

Sunday 18 January. Started on the photo albums at last. Sorted the prints from 2023 into date order on the living room floor, with Moss walking across them at regular intervals. One album finished, two years still to go. It was lovely to see the kids so small.

Monday 19 January. Jonas turned forty-one. The children made him a card with Moss drawn as something closer to a horse, and Oskar wrote a poem that rhymed "forty-one" with "almost done", which Jonas pretended not to mind. Aunt Vera came round to sit with them while we had dinner at the Georgian place on the high street, where the cheese bread came out of the oven with an egg yolk sitting in the middle of it.

Tuesday 20 January. Quiet day. Video call with Jonas's parents, who have bought a tablet and hold it so close to their faces that we mostly saw eyebrows. They want to come over in the spring.

Thursday 22 January. Gave the quarterly presentation at work to the whole department, which I had been dreading since before Christmas. It went well: nobody fell asleep, the demo worked, and Gustav sent me a message afterwards that just said "great". I went for a long walk at lunchtime to let the adrenaline go.

Saturday 24 January. Maisie from number 14 came for a sleepover. She and Lena built a den out of every blanket in the house and were still whispering at eleven, long after they had promised to be asleep. Boiled eggs and toast soldiers in the morning, then I walked her back next door at ten, both of them yawning.

Sunday 25 January. Burns Night at Henrik's. He wore a borrowed kilt, recited the Address to a Haggis in a truly terrible accent, and stabbed the haggis with great ceremony. I ate my first haggis, which tasted like peppery stuffing and was much nicer than I expected, with neeps and tatties and far too much whisky sauce. Sofia made cranachan for pudding. Walked home at one in the morning under a clear sky, freezing and very happy.

Tuesday 27 January. Mum's knee is worse; she can barely manage the stairs now. The GP has finally referred her to the orthopaedic clinic, but the wait is long. I will go over on Saturdays to do her shopping until something happens.

Wednesday 28 January. Moss was limping on his front left paw all evening, and I was already imagining the vet bill when Jonas found a thorn deep between his pads. Out it came with the tweezers, Moss licked it once and was running round the garden five minutes later as if nothing had happened.

Thursday 29 January. A new habit that seems to be sticking: I wake at six and read for half an hour in the kitchen before anyone else is up, with the radio off and the kettle on. I have finished three novels this month, which is more than in the whole of last autumn, and I feel calmer for it.

Saturday 31 January. End of the month. It has been grey and cold and the days are still too short, but it has been a good month: the snow, Burns Night, the tooth, and the mornings with a book. For February: book the car in for a new battery before Bill has to rescue us again, start sorting the albums properly, and plan something for the half-term week.`;

// ---------------------------------------------------------------------------------------------

export const MEMORIES: RememberInput[] = [
  // --- Things with a time: today, yesterday, the last weeks, the seasons, earlier years. ---
  note(
    'groceries-coop',
    'Groceries',
    'Co-op on the way home: oat milk, two leeks, lemons, feta, a net of clementines, dishwasher tablets and bin bags. £38.60.',
    hoursAgo(21), // Tuesday 17 November, 18:00
  ),
  note(
    'groceries-lidl',
    'Groceries',
    "Big shop at Lidl: potatoes, a whole chicken, carrots, rosemary, a dozen eggs, sparkling water and the kids' cereal. £71.20.",
    on(2026, 11, 10, 17, 30), // Tuesday 10 November
  ),
  note(
    'swim-lido',
    'Swim',
    '40 lengths at the lido before work, 1,000 m in 24 minutes. Shoulder felt fine the whole way.',
    hoursAgo(8), // today, Wednesday 18 November, 07:00
  ),
  note(
    'swim-sauna',
    'Swim',
    "Only 24 lengths, legs heavy from yesterday's parkrun. Ten minutes in the sauna afterwards.",
    on(2026, 11, 15, 9, 30), // Sunday 15 November
  ),
  note(
    'call-mum',
    'Phone call with Mum',
    'Her knee operation is on 2 December at the General. She wants me to drive her in and stay the first night. Ask work for the 2nd and 3rd off.',
    hoursAgo(18.5), // Tuesday 17 November, 20:30
  ),
  note(
    'call-rafael',
    'Phone call with Rafael',
    "From Montreal: he's moving back in March and asked to stay with us for two weeks while he finds somewhere. Said yes, he can have the box room.",
    on(2026, 11, 13, 19), // Friday 13 November
  ),
  note(
    'call-grandad',
    'Phone call with Grandad',
    "He's got his hearing aids at last and could hear me properly for once. Wants the kids' school photos for his fridge.",
    on(2026, 11, 4, 16), // Wednesday 4 November
  ),
  note(
    'work-planning',
    'Planning meeting',
    'Decided: the CSV export moves to January and the December release is bug fixes only. Ines owns the database migration to Postgres; I write the release notes.',
    hoursAgo(29), // Tuesday 17 November, 10:00
  ),
  note(
    'school-parents-evening',
    "Parents' evening",
    "Oskar's teacher says his reading is well ahead but he rushes his maths. Ten minutes of times tables a day; he now sits next to Ayaan.",
    on(2026, 11, 16, 18, 30), // Monday 16 November
  ),
  note(
    'car-mot',
    'MOT',
    'The car passed. Advisory: both rear tyres close to the legal limit, replace soon. Certificate emailed.',
    on(2026, 11, 16, 12), // Monday 16 November
  ),
  note(
    'parkrun-hadley',
    'Parkrun',
    '27:40 at Hadley Park, 112th of 340. Negative split for once.',
    on(2026, 11, 14, 10), // Saturday 14 November
  ),
  note(
    'parkrun-mud',
    'Parkrun',
    '28:55 and very muddy; walked part of the hill. Jonas marshalled at the far corner.',
    on(2026, 10, 31, 10), // Saturday 31 October
  ),
  note(
    'parkrun-pb',
    'Parkrun',
    'New PB: 26:58! Cool morning, went out steady and kept something back for the last kilometre.',
    on(2026, 9, 19, 10), // Saturday 19 September
  ),
  note(
    'lunch-vera',
    "Lunch at Aunt Vera's",
    'Roast lamb and far too much pudding. She gave us her old sewing machine; it needs a new belt.',
    on(2026, 11, 15, 14), // Sunday 15 November
  ),
  note(
    'lunch-noor',
    'Lunch with Noor',
    "The Lebanese place near the office. She's leaving for the Berlin office in January and thinks I should apply for her role.",
    on(2026, 10, 22, 13), // Thursday 22 October
  ),
  note(
    'bookclub-orchard',
    'Book club',
    "'The Glass Orchard': half of us hated the ending and Kasia defended it for twenty minutes. Next one at hers on 9 December.",
    on(2026, 11, 11, 21, 30), // Wednesday 11 November
  ),
  note(
    'bookclub-tides',
    'Book club',
    "'Winter Tides': everyone loved it except Henrik. Next pick is 'The Glass Orchard'.",
    on(2026, 9, 23, 21, 30), // Wednesday 23 September
  ),
  note(
    'bookclub-picnic',
    'Book club',
    'Picnic edition in the park. Nobody had finished the book, so we talked about holidays instead.',
    on(2026, 7, 15, 21), // Wednesday 15 July
  ),
  note(
    'haircut-yusuf',
    'Haircut',
    'Yusuf at Fade & Co: short on the sides, scissors on top. £22 plus tip.',
    on(2026, 3, 12, 11), // Thursday 12 March
  ),
  note(
    'haircut-station',
    'Haircut',
    'Tried the new barber by the station because Yusuf was away. Far too short at the back, never again.',
    on(2026, 8, 20, 17), // Thursday 20 August
  ),
  note(
    'haircut-longer',
    'Haircut',
    'Back to Yusuf at Fade & Co; asked him to leave it longer on top for the winter.',
    on(2026, 10, 24, 10, 30), // Saturday 24 October
  ),
  note(
    'camp-snowdonia',
    'Easter camping',
    'Two nights at Nant Gwynant in Snowdonia. It rained the whole time and the tent leaked at a seam: buy seam sealer before the next trip.',
    on(2026, 4, 6, 18), // Easter Monday, 6 April
  ),
  note(
    'camp-dolomites',
    'Camping in the Dolomites',
    'Campsite near Cortina, pitch 14, showers close at 22:00. The kids swam in the lake every day; best week of the year.',
    on(2026, 7, 24, 20), // Friday 24 July
  ),
  note(
    'camp-wasdale',
    'Camping',
    'Weekend at Wasdale with the Hallorans. Freezing second night; borrow a warmer sleeping bag next time.',
    on(2025, 9, 14, 19), // Sunday 14 September 2025
  ),
  note(
    'bill-water',
    'Water bill',
    '£48.20 for July to September, paid by card. Meter reading 01843.',
    on(2026, 9, 14, 9), // Monday 14 September 2026
  ),
  note(
    'bill-electric-2025',
    'Electricity bill',
    '£212 for the winter quarter, much higher than last year. Switch to a fixed tariff when this one ends.',
    on(2025, 1, 16, 19), // Thursday 16 January 2025
  ),
  note(
    'bill-electric-2026',
    'Electricity bill',
    '£168 for the winter quarter; the fixed tariff is paying off.',
    on(2026, 1, 15, 19), // Thursday 15 January 2026
  ),
  note(
    'bill-phone',
    'Phone bill',
    '£31.40 this month, £9 of it roaming from the holiday. Turn data roaming off next time.',
    on(2026, 8, 5, 8), // Wednesday 5 August
  ),
  note(
    'beds-potatoes',
    'Raised beds',
    'Planted the Charlotte seed potatoes in both raised beds, 30 cm apart. Earth them up in three weeks.',
    on(2026, 5, 2, 10), // Saturday 2 May
  ),
  note(
    'beds-garlic',
    'Raised beds',
    'Planted garlic where the potatoes were and covered it with fleece against the pigeons.',
    on(2026, 10, 20, 16), // Tuesday 20 October
  ),
  note(
    'ski-les-arcs',
    'Ski week',
    'Les Arcs with the Hallorans. Lena skied her first blue run and Oskar snapped a pole. Chalet Edelweiss: book again.',
    on(2026, 2, 14, 20), // Saturday 14 February 2026
  ),
  note(
    'ski-kuhtai',
    'Ski weekend',
    'Two days in Kühtai. Icy in the mornings, great snow after lunch. My boots still hurt at the ankle.',
    on(2025, 1, 25, 20), // Saturday 25 January 2025
  ),
  note(
    'gp-bloods',
    'GP',
    'Blood test results all normal except cholesterol, a bit high at 5.9. More oats, less cheese; recheck in six months.',
    hoursAgo(4), // today, Wednesday 18 November, 11:00
  ),
  note(
    'gp-rash',
    'GP',
    'The rash on my arm is contact dermatitis, probably the new washing powder. Hydrocortisone cream for a week.',
    on(2026, 9, 29, 9, 30), // Tuesday 29 September
  ),

  // --- Everyday notes: home, food, family, money, pets (pairs that share some words). ---
  note(
    'whole-vase',
    'Flea market find',
    'Blue ceramic vase, £8, with a tiny chip on the rim that nobody will notice. Looks great with the dried hydrangeas on the landing.',
    daysAgo(52),
  ),
  note(
    'whole-flea',
    'Flea market',
    'Flea market at the old tram depot every first Sunday. Flea market rules: go early, bring cash, haggle politely.',
    daysAgo(96),
  ),
  note(
    'whole-shedkey',
    'Garden shed',
    'The spare key for the garden shed hangs on the hook inside the broom cupboard, on the red keyring.',
    daysAgo(140),
  ),
  note(
    'whole-shedroof',
    'Shed roof',
    'Shed roof felt has torn at the corner again. The shed needs new felt and a couple of battens before the winter rain.',
    daysAgo(33),
  ),
  note(
    'whole-tea-henrik',
    "Henrik's tea",
    'He drinks it black: no milk, no sugar, and not too strong.',
    daysAgo(210),
  ),
  note(
    'whole-tea-dad',
    "Dad's tea",
    "Builder's tea with milk and two sugars, in the big blue mug.",
    daysAgo(188),
  ),
  note(
    'whole-lasagne-veg',
    'Potluck lasagne',
    'For the Year 5 potluck: a vegetarian lasagne with spinach and ricotta, no mushrooms, because half the class hates them.',
    daysAgo(27),
  ),
  note(
    'whole-lasagne-mushroom',
    "Jonas's lasagne",
    'His mushroom lasagne: porcini, chestnut mushrooms and extra mushrooms on top. Vegetarian if he leaves out the pancetta.',
    daysAgo(121),
  ),
  note(
    'whole-edinburgh',
    'Edinburgh conference',
    "Train tickets booked for the data conference in Edinburgh: 08:30 from King's Cross on 21 January, coach C, seats 41 and 42 (me and Ines).",
    daysAgo(24),
  ),
  note(
    'whole-fringe',
    'Edinburgh Fringe',
    'Shows to see next summer: the Norwegian clown duo, the improvised musical, anything at Summerhall. Tickets go on sale in June.',
    daysAgo(84),
  ),
  note(
    'whole-stain',
    'Sofa',
    'Got the red wine stain out: salt on it straight away, then cold water and a drop of washing-up liquid. Dab, never rub.',
    daysAgo(58),
  ),
  note(
    'whole-stains-grass',
    'Grass stains',
    "Grass stains on Oskar's school trousers again. Stain remover stick, soak overnight; the stain is still faint, try once more.",
    daysAgo(103),
  ),
  note(
    'whole-brownies-gf',
    "Kasia's brownies",
    "No wheat flour at all: ground almonds instead, so they're gluten-free. 70% chocolate, 22 minutes, let them set before cutting.",
    daysAgo(76),
  ),
  note(
    'bake-sale',
    'Bake sale',
    'For the school bake sale on Friday: a lemon drizzle cake and a tray of brownies (plain flour, walnuts, double batch).',
    daysAgo(44),
  ),
  note(
    'whole-concert',
    'Recorder concert',
    "Lena's recorder concert is on Thursday 3 December at 6pm in the school hall. Grandad wants to come, so save two seats near the front.",
    daysAgo(21),
  ),
  note(
    'whole-recorder',
    'Recorder',
    'Bought Lena a new recorder, the old one cracked. The music shop on Bridge Street sells cases for £4.',
    daysAgo(71),
  ),
  note(
    'whole-fence',
    'Fence',
    'Quote for the garden fence repair from Greenlines: £420 for three new panels and two posts. They can start on 30 November.',
    daysAgo(23),
  ),
  note(
    'whole-repaircafe',
    'Repair café',
    "In the library hall on the first Saturday of the month. Take the toaster and Lena's headphones.",
    daysAgo(67),
  ),
  note(
    'whole-hotel-grandad',
    "Grandad's room in Bath",
    'Ground floor at the Abbey Hotel, no stairs, step-free entrance from the car park. Confirmed by email.',
    daysAgo(131),
  ),
  note(
    'whole-hotel-us',
    'Our room in Bath',
    'Attic room at the Abbey Hotel, up four flights of stairs, but a lovely view of the abbey.',
    daysAgo(130),
  ),
  note(
    'whole-crumble',
    'Rhubarb crumble',
    'With ginger: chop two balls of stem ginger into the fruit, oats and demerara in the topping, 40 minutes at 180.',
    daysAgo(177),
  ),
  note(
    'whole-ginger',
    'Ginger shots',
    'A thumb of ginger, two lemons, a pinch of cayenne; blitz and strain. Ginger shots keep a week in the fridge.',
    daysAgo(36),
  ),
  note(
    'whole-shampoo-ff',
    "Lena's eczema",
    'Flare-up again on her elbows. Fragrance-free shampoo and body wash only, no bubble bath, cream twice a day.',
    daysAgo(47),
  ),
  note(
    'whole-shampoo-lav',
    'Shampoo',
    'The lavender shampoo from the market has a really strong fragrance. I love it; Jonas says it gives him a headache.',
    daysAgo(89),
  ),
  note(
    'whole-tiles',
    'Kitchen tiles invoice',
    'Invoice for the kitchen tiles from Tile Depot: £640 including VAT, paid by bank transfer, reference TD-2291.',
    daysAgo(112),
  ),
  note(
    'whole-kitchen',
    'Kitchen jobs',
    'Kitchen tap drips again, the kitchen light flickers, and a kitchen cupboard door has dropped. Weekend jobs.',
    daysAgo(29),
  ),
  note(
    'whole-anniv',
    'Anniversary gift',
    "For my parents' 40th wedding anniversary: a framed print of their first house, ordered from the print shop, ready on 12 December.",
    daysAgo(31),
  ),
  note(
    'whole-henrikphone',
    'Henrik',
    "Henrik's new phone number: 07700 900412. The old one died when he dropped it in the harbour.",
    daysAgo(42),
  ),
  note(
    'whole-henrikaddr',
    "Henrik's new address",
    'Henrik and Sofia have moved to 12 Elm Terrace, the house with the green door.',
    daysAgo(98),
  ),
  note(
    'whole-tap',
    'Upstairs bathroom',
    'Leaking tap in the upstairs bathroom: the hot one needs a new half-inch washer.',
    daysAgo(38),
  ),
  note(
    'whole-flights-direct',
    'Toronto flights',
    'For May half-term: direct, no layover, Air Canada from Heathrow at 12:05. £540 each.',
    daysAgo(55),
  ),
  note(
    'whole-flights-layover',
    'Cheaper Toronto option',
    'Icelandair via Reykjavik with a three-hour layover, £390 each. A long day with the kids.',
    daysAgo(55),
  ),
  note(
    'whole-dogfood-moss',
    "Moss's food",
    'Salmon and potato kibble, no chicken: chicken makes him scratch all night.',
    daysAgo(160),
  ),
  note(
    'whole-dogfood-pepper',
    "Pepper (Noor's dog)",
    'While Noor is away: chicken and rice food, two scoops morning and evening, a walk at lunchtime.',
    daysAgo(150),
  ),
  note(
    'whole-worming',
    'Moss: worming',
    'Worming tablet for the dog every three months. Last one on 2 October, next due early January. Hide it in cheese.',
    daysAgo(46),
  ),
  note(
    'whole-parking',
    'Parking permit',
    "Renewal due by 30 November: £95 for the year, done online. Have the car's logbook number ready.",
    daysAgo(25),
  ),
  note(
    'whole-hospitalparking',
    'Hospital parking',
    'Parking at the General is £4 an hour; the multi-storey by the maternity wing is easiest.',
    daysAgo(61),
  ),

  // --- Notes named in their own words (asked about in other words). ---
  note(
    'para-moss',
    'Moss',
    'Whippet, born 3 March 2022. Microchip 981 020 000 123 456. Adopted from the Greyhound Trust in Kent.',
    daysAgo(300),
  ),
  note(
    'para-derm',
    'Jonas: mole check',
    "Dermatology clinic at St Mary's, Dr Haverkamp, Friday 4 December at 10:40, outpatients building B.",
    daysAgo(27),
  ),
  note(
    'para-garage',
    'Garage',
    'Ridley Motors on Mill Lane fixes the Skoda. Ask for Dev; cash or bank transfer only, closed on Saturday afternoons.',
    daysAgo(240),
  ),
  note(
    'para-nanny',
    'Heloise',
    'Picks Oskar and Lena up from school at 3:15 Monday to Thursday and stays until 6. £14 an hour, paid every Friday.',
    daysAgo(80),
  ),
  note(
    'para-isa',
    'ISA',
    'Moved £4,000 into the stocks and shares ISA with Vanguard, all in the global index fund.',
    daysAgo(190),
  ),
  note(
    'para-oskar-class',
    'Oskar — Year 5',
    'With Mr Abernethy in room 12 this year. PE kit on Tuesdays and Fridays; homework goes in on Wednesdays.',
    daysAgo(74),
  ),
  note(
    'para-inhaler',
    "Lena's inhalers",
    "Blue one: two puffs before PE and whenever she's wheezy. Brown one: every morning and night through the spacer.",
    daysAgo(118),
  ),
  note(
    'para-stopcock',
    'Stopcock',
    "Under the kitchen sink behind the bleach bottles. Turn clockwise to close; it's stiff, use a cloth for grip.",
    daysAgo(260),
  ),
  note(
    'para-leave',
    'Annual leave',
    'Six days left; use them by 31 December or lose them. Two are already promised for the week before Christmas.',
    daysAgo(26),
  ),
  note(
    'para-nits',
    'Nit comb',
    "Letter from school: there's an outbreak in Year 1. Conditioner and the nit comb through Lena's hair every Sunday for two weeks.",
    daysAgo(39),
  ),
  note(
    'para-kennels',
    'Brook Farm kennels',
    "Moss is booked in from 20 to 27 December while we're in Vienna, £22 a night. Bring his bed and his food.",
    daysAgo(40),
  ),
  note(
    'para-loft',
    'Loft',
    'Insulation top-up quote from ThermaRoof: £780 for 270 mm across the whole loft, a two-day job.',
    daysAgo(49),
  ),

  // --- Notes in other languages, and English notes that come close to them. ---
  note(
    'de-paket',
    'Paket abholen',
    'Paket bei Familie Wendt (Nr. 14) abholen – DHL hat es dort abgegeben, weil wir nicht zu Hause waren. Die Benachrichtigungskarte liegt auf dem Schuhschrank.',
    daysAgo(30),
  ),
  note(
    'de-kuchen',
    'Omas Zwetschgenkuchen',
    '500 g Mehl, ein Würfel Hefe, 250 ml lauwarme Milch, 60 g Zucker, 60 g Butter, ein Ei. Den Teig eine Stunde gehen lassen, dann 1,5 kg entsteinte Zwetschgen dicht an dicht daraufsetzen, mit Zimtzucker bestreuen und 35 Minuten bei 180 Grad backen.',
    daysAgo(70),
  ),
  note(
    'de-fahrrad',
    'Fahrrad',
    'Das Hinterrad an Jonas’ Fahrrad ist platt. Neuen Schlauch kaufen (28 Zoll, Sclaverandventil) und Flickzeug für die Satteltasche.',
    daysAgo(37),
  ),
  note(
    'es-gazpacho',
    'Gazpacho de la abuela',
    'Un kilo de tomates muy maduros, un pepino, medio pimiento verde, un diente de ajo, un trozo de pan del día anterior remojado, aceite de oliva, vinagre de Jerez y sal. Triturar todo, colar y dejar en la nevera al menos dos horas.',
    daysAgo(135),
  ),
  note(
    'es-salsa',
    'Clases de salsa',
    'Los martes a las 20:00 en la academia Ritmo Latino, 35 € al mes. Llevar zapatos con suela lisa.',
    daysAgo(62),
  ),
  note(
    'es-bogota',
    'Vuelo a Bogotá',
    'Sale el 3 de enero a las 11:40 desde Heathrow, con escala en Madrid. Valeria nos recoge en el aeropuerto El Dorado; llevar los regalos para sus hijos en la maleta grande.',
    daysAgo(35),
  ),
  note(
    'fr-chloe',
    'Crémaillère de Chloé',
    'Samedi 28 novembre à partir de 19 h. Apporter une plante pour le balcon, une bouteille de vin blanc et deux chaises pliantes : elle n’a pas encore assez de sièges.',
    daysAgo(22),
  ),
  note(
    'fr-chat',
    'Chat des voisins',
    'Nourrir Minou, le chat des Morel, du 2 au 6 décembre : une demi-boîte matin et soir, et changer l’eau. La clé est sous le pot de géraniums.',
    daysAgo(28),
  ),
  note(
    'fr-lave',
    'Lave-vaisselle',
    'Garantie du lave-vaisselle Bosch jusqu’au 15 mars 2027. La facture est dans le classeur bleu, onglet « maison ».',
    daysAgo(205),
  ),
  note(
    'ru-borsch',
    'Борщ',
    'Свёкла, капуста, три картофелины, морковь, лук, томатная паста. Свёклу тушить отдельно с уксусом, чтобы не потеряла цвет. В конце чеснок и укроп, подавать со сметаной.',
    daysAgo(100),
  ),
  note(
    'ru-chess',
    'Шахматы для Оскара',
    'Шахматный кружок по средам в 16:00 в библиотеке, тренер Игорь Петрович. Первое занятие бесплатно, потом 40 фунтов за четверть.',
    daysAgo(57),
  ),
  note(
    'ja-kyoto',
    '京都メモ',
    '伏見稲荷は朝7時前に行くと人が少ない。鳥居の道は山頂まで往復2時間くらい。帰りに参道でいなり寿司を食べる。',
    daysAgo(230),
  ),
  note(
    'ja-omiyage',
    'お土産リスト',
    'ゆかりさんに抹茶、課長に和菓子、チームのみんなには抹茶味のキットカット、子どもたちには鹿のキーホルダー。',
    daysAgo(225),
  ),
  note(
    'zh-jiaozi',
    '饺子馅',
    '猪肉末五百克，白菜半棵切碎挤干水，再加姜末、葱花、酱油、香油和一点盐。顺着一个方向搅拌上劲，大概能包四十个。',
    daysAgo(115),
  ),
  note(
    'zh-train',
    '春节回家',
    '二月三号早上八点的高铁，从北京西站出发，下午一点半到武汉。票已经买好了，记得带身份证。',
    daysAgo(32),
  ),
  note(
    'pickup-lena',
    'Pick up Lena',
    "From the neighbours' at number 14 at 6 on Saturday, after Maisie's party.",
    daysAgo(34),
  ),
  note(
    'leek-soup',
    'Freezer',
    'Leek and potato soup, four portions, frozen in the blue tubs. Use by February.',
    daysAgo(43),
  ),
  note(
    'football-subs',
    'Football club',
    "Oskar's football club subs are due: £30 for the spring term, pay the coach in cash at Saturday training.",
    daysAgo(253),
  ),

  // --- Long notes, and short notes that share a word with something inside them. ---
  note('long-sicily', 'Sicily trip log, October half-term', SICILY, on(2025, 11, 5, 20)),
  note('long-sailing', 'Day Skipper practical: course log', SAILING, on(2026, 5, 30, 21)),
  note('long-agm', "Linden Road Residents' Association: AGM minutes", AGM, on(2026, 3, 4, 21)),
  note('long-recipes', "Oma's recipe notebook (typed up)", RECIPES, on(2026, 2, 21, 20)),
  note('long-diary', 'Diary: January 2026', DIARY, on(2026, 1, 31, 22)),
  note(
    'hallway-mirror',
    'Hallway mirror',
    'Jonas wants the round brass one from the homeware shop, 60 cm, £85. Measure the wall first.',
    daysAgo(92),
  ),
  note(
    'bike-oskar',
    "Oskar's bike",
    "He's outgrown it. Look for a 24-inch frame at the school's second-hand sale in March.",
    daysAgo(63),
  ),
  note(
    'drill-bits',
    "Shelves for Oskar's room",
    'Buy 6 mm masonry drill bits and wall plugs; the old drill bits are blunt.',
    daysAgo(86),
  ),
  note(
    'atlas',
    'Present for Oskar',
    'The big illustrated world atlas from the bookshop, £25, and a torch for reading under the covers.',
    daysAgo(108),
  ),
  note(
    'ferry-iow',
    'Isle of Wight at half-term?',
    'Wightlink ferry from Lymington, car and four people about £180 return. Book before January.',
    daysAgo(51),
  ),
  note(
    'tombola',
    'School fair',
    'Tombola prizes collected so far: a bath set, two bottles of wine, a box of chocolates and a cinema voucher.',
    daysAgo(41),
  ),
  note(
    'christmas-tree',
    'Christmas tree',
    'Got the tree from the farm on Elm Lane: 6 ft Nordmann, £48. The stand is in the loft.',
    on(2025, 12, 12, 15),
  ),
  note(
    'councillor',
    'Councillor surgery',
    'Cllr Hughes holds a surgery at the library on the first Saturday of the month, 10 till 12. Ask about the bus stop.',
    daysAgo(145),
  ),
  note(
    'gherkins',
    "Gherkins from Kasia's mum",
    'A big jar of her dill gherkins. Keep in the fridge once opened and give the jar back.',
    daysAgo(125),
  ),
  note(
    'fridge-seal',
    'Fridge',
    'Fridge door seal has split at the bottom. The part number is on the sticker inside; order online.',
    daysAgo(170),
  ),
  note(
    'onion-sets',
    'Onion sets',
    'Red onion sets for the raised beds: plant in March, 10 cm apart, and net them against the birds.',
    on(2026, 2, 20, 18),
  ),
  note(
    'glue-mug',
    'Broken mug',
    "Lena's favourite mug: mend it with the two-part epoxy glue, not superglue. Not dishwasher safe afterwards.",
    daysAgo(155),
  ),
  note(
    'snow-chains',
    'Snow chains',
    'The snow chains are in the boot under the floor. Practise fitting them before we actually need them.',
    daysAgo(270),
  ),
];
