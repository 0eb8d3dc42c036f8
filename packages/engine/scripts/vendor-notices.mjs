// The packages a vendored bundle carries, and the check that THIRD-PARTY-NOTICES.txt names each of
// them at the bundled version with its licence text (used by vendor-transformers.mjs and tested in
// test/vendor-notices.test.ts).

/**
 * The packages esbuild bundled into `code`, from its module path comments
 * (`// ../../node_modules/.pnpm/@scope+name@1.2.3/node_modules/...`): `[{ name, version }]`.
 */
export function bundledPackages(code) {
  const found = new Map();
  for (const m of code.matchAll(
    /^\/\/ \S*node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@([^/_]+)/gm,
  )) {
    found.set(`${m[1].replace('+', '/')}@${m[2]}`, { name: m[1].replace('+', '/'), version: m[2] });
  }
  return [...found.values()];
}

/**
 * The problems of `notices` (the text of THIRD-PARTY-NOTICES.txt) for `packages`: each needs a
 * `NAME VERSION: LICENSE` section. Returns a list of sentences, empty when all are there.
 */
export function noticeProblems(notices, packages) {
  return packages
    .filter(({ name, version }) => !notices.includes(`\n${name} ${version}: LICENSE\n`))
    .map(
      ({ name, version }) =>
        `THIRD-PARTY-NOTICES.txt has no licence section for ${name} ${version}`,
    );
}
