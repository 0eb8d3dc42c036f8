/** Port of the test app (`vite preview` and the dev server); `HARNESS_PORT` overrides it. */
export const HARNESS_PORT = Number(process.env.HARNESS_PORT ?? 4391);

/** Port of the example app (`apps/example`) in the browser tests; `EXAMPLE_PORT` overrides it. */
export const EXAMPLE_PORT = Number(process.env.EXAMPLE_PORT ?? HARNESS_PORT + 1);

/** Port of the notes app (`apps/notes`) in the browser tests; `NOTES_PORT` overrides it. */
export const NOTES_PORT = Number(process.env.NOTES_PORT ?? HARNESS_PORT + 2);

/** Port of the React example (`apps/react-example`) in the browser tests; `REACT_EXAMPLE_PORT` overrides it. */
export const REACT_EXAMPLE_PORT = Number(process.env.REACT_EXAMPLE_PORT ?? HARNESS_PORT + 3);
