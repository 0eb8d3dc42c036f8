/** Port of the test app (`vite preview` and the dev server); `HARNESS_PORT` overrides it. */
export const HARNESS_PORT = Number(process.env.HARNESS_PORT ?? 4391);
