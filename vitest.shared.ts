/**
 * What every Vitest project of the workspace shares: `@anamnesis/*` resolve to their TypeScript
 * sources (the `"@anamnesis/source"` export condition), so the tests need no build. The other
 * conditions are Vite's defaults (`defaultClientConditions`, `defaultServerConditions`).
 */
import type { ViteUserConfig } from 'vitest/config';

const SOURCE = '@anamnesis/source';

export const sourceConditions: Pick<ViteUserConfig, 'resolve' | 'ssr'> = {
  resolve: { conditions: [SOURCE, 'module', 'browser', 'development|production'] },
  ssr: { resolve: { conditions: [SOURCE, 'module', 'node', 'development|production'] } },
};
