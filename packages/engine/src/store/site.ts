import { ftsTokens } from '@anamnesis/ranking';

/**
 * The words of a memory's address (`meta.url`, as the extension stores a saved page's): its host
 * without `www` and its path, each cut into words ("https://science.nasa.gov/eclipse/future-eclipses/"
 * → "science nasa gov eclipse future eclipses"). The lexical index holds them in their own
 * low-weight column (`site`), so a domain ("nasa") or a pasted address finds its page.
 */
export function siteWords(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !parsed.hostname) return ftsTokens(url).join(' ').toLowerCase();
  const host = parsed.hostname.replace(/^www\./i, '');
  return ftsTokens(`${host} ${safeDecode(parsed.pathname)}`)
    .join(' ')
    .toLowerCase();
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** `siteWords` of the `url` in a memory's stored metadata (JSON), or `''` without one. */
export function siteWordsOfMeta(metaJson: string): string {
  if (!metaJson.includes('"url"')) return '';
  try {
    const url = (JSON.parse(metaJson) as { url?: unknown }).url;
    return typeof url === 'string' ? siteWords(url) : '';
  } catch {
    return '';
  }
}

/** The SQL function the FTS triggers call: `anamnesis_site(meta)` → {@link siteWordsOfMeta}. */
export const SITE_SQL_FUNCTION = 'anamnesis_site';
