/** A fixed probe set of short texts (six topics, five each) and nearest-neighbour helpers. */
export const PROBES = [
  'I adopted a kitten and she sleeps on the sofa',
  'our dog loves long walks in the park every morning',
  'the vet said the puppy needs another vaccine',
  'my cat keeps scratching the furniture at night',
  'we bought a bigger cage for the rabbit',
  'the quarterly tax filing deadline is in april',
  'send all receipts to the accountant before friday',
  'my salary was paid late again this month',
  'the bank raised the interest rate on our mortgage',
  'we opened a savings account for the children',
  'we hiked along the mountain trail and camped by a lake',
  'the flight to rome was delayed by three hours',
  'book a hotel near the beach for the summer holiday',
  'the train across the alps had amazing views',
  'pack warm clothes for the ski trip in january',
  'sourdough bread needs flour water salt and a starter',
  'add garlic and onions before the tomato sauce',
  'the soup was too salty so we added potatoes',
  'bake the chocolate cake for forty minutes',
  'she makes fresh pasta with eggs every sunday',
  'the standup meeting moved to half past nine',
  'the client wants the project report by tuesday',
  'our manager approved the new budget for the team',
  'I will present the quarterly results to the board',
  'the deadline for the software release slipped a week',
  'the guitar lesson starts at five after school',
  'he practises piano scales for an hour each day',
  'the orchestra played a symphony by beethoven',
  'we listened to jazz records all evening',
  'the choir is rehearsing songs for the winter concert',
] as const;

/** Cosine of two unit (or zero) vectors. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** For each vector, the indices of its `k` nearest others by cosine (ties: lower index first). */
export function topNeighbours(vectors: ArrayLike<number>[], k = 10): number[][] {
  return vectors.map((v, i) =>
    vectors
      .map((w, j) => ({ j, s: j === i ? -Infinity : dot(v, w) }))
      .sort((x, y) => y.s - x.s || x.j - y.j)
      .slice(0, k)
      .map((x) => x.j),
  );
}

/** Largest absolute difference between two sets of vectors. */
export function maxAbsDiff(a: ArrayLike<number>[], b: ArrayLike<number>[]): number {
  let max = 0;
  a.forEach((v, i) => {
    for (let d = 0; d < v.length; d++) max = Math.max(max, Math.abs(v[d]! - b[i]![d]!));
  });
  return max;
}
