// `pnpm start`: builds and serves the notes app on http://localhost:5173 (or $PORT).
// The notes app is not built yet; until it is, this says so and exits.
console.log('anamnesis: the notes app (apps/notes) is not built yet; see README.md "Status".');
